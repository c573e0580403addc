import { createContext, useContext } from 'react';
import type { ApiClient } from './api/client.ts';
import type { ResolvedConfig } from './config.ts';

export type Widget = {
  config: ResolvedConfig;
  client: ApiClient;
  /** A stable prefix for element ids, so that several widgets on one page never collide. */
  idPrefix: string;
};

export const WidgetContext = createContext<Widget | null>(null);

export function useWidget(): Widget {
  const widget = useContext(WidgetContext);
  if (!widget) throw new Error('useWidget outside <SignIn>');
  return widget;
}
