export type { CallName } from './api/calls.ts';
export { ApiClient, type CallOptions, type CallResult, readCookie, TransportError } from './api/client.ts';
export { interpret, statusTables, UnmappedStatusError } from './api/status-tables.ts';
export type { FinishResult, Journey, SignInConfig, WidgetEvent } from './config.ts';
export { SignInConfigError } from './config.ts';
export { mount } from './mount.tsx';
export { routes } from './routes.ts';
export { SignIn } from './SignIn.tsx';
