import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './App.tsx';
import { browserLanguage, loadTexts } from './messages.ts';

/**
 * The console in `element`: the browser's preferred language (English when none is shipped), its
 * texts, then the first screen. Nothing renders before the texts are in, so nothing shows in
 * another language first; the page's `lang` says which one it is.
 */
export async function start(
  element: HTMLElement,
  candidates: readonly string[] = globalThis.navigator?.languages ?? [],
): Promise<Root> {
  const language = browserLanguage(candidates);
  await loadTexts(language, candidates);
  document.documentElement.lang = language;
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  return root;
}
