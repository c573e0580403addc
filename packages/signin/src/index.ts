export type { CallName } from './api/calls.ts';
export { ApiClient, type CallOptions, type CallResult, readCookie, TransportError } from './api/client.ts';
export { interpret, statusTableOf, UnmappedStatusError } from './api/status-tables.ts';
export type { FinishResult, Journey, SignInConfig, WidgetEvent } from './config.ts';
export { SignInConfigError } from './config.ts';
/**
 * Loads the widget's first texts in a language, with the components' (packages/ui) texts in it: a
 * host whose own pages use the components calls it with the page's language, before it renders.
 */
export { loadTexts as loadSignInTexts } from './messages/index.ts';
export { mount } from './mount.tsx';
export { routes } from './routes.ts';
export { SignIn } from './SignIn.tsx';
export { onDemand, whenIdle } from './shared/onDemand.tsx';
export { alertChunk, OnDemandAlert } from './shared/onDemandAlert.tsx';
export { useShownLanguage } from './shared/useShownLanguage.ts';
