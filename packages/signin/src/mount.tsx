import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { SignInConfig } from './config.ts';
import { resolveConfig } from './config.ts';
import { SignIn } from './SignIn.tsx';

/**
 * Mounts the widget into any element of any page; returns the unmount function, which leaves
 * nothing behind. A config mistake throws SignInConfigError naming every wrong field.
 */
export function mount(element: Element, config: SignInConfig): () => void {
  if (!(element instanceof Element))
    throw new TypeError('Gatehouse sign-in widget: mount() needs a DOM element');
  resolveConfig(config);
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <SignIn config={config} />
    </StrictMode>,
  );
  return () => root.unmount();
}
