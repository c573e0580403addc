import { createContext, useContext } from 'react';
import type { ApiClient } from './api/client.ts';
import type { FinishResult, ResolvedConfig } from './config.ts';
import type { DeviceRisk } from './shared/deviceRisk.ts';

export type Widget = {
  config: ResolvedConfig;
  client: ApiClient;
  /** A stable prefix for element ids, so that several widgets on one page never collide. */
  idPrefix: string;
  /**
   * The journey is complete: the host's finish handler runs once and the widget stops taking
   * input (it shows only that it is done), so nothing can be submitted twice.
   */
  finish: (result: FinishResult) => void;
  /** Names the window after the screen ('Error: ' first while its errors stand). */
  setTitle: (screen: string, invalid: boolean) => void;
  /** The host's device-risk step in the login journey (config.deviceRisk), or null. */
  risk: Promise<DeviceRisk> | null;
};

export const WidgetContext = createContext<Widget | null>(null);

export function useWidget(): Widget {
  const widget = useContext(WidgetContext);
  if (!widget) throw new Error('useWidget outside <SignIn>');
  return widget;
}
