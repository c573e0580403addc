import '@gatehouse/ui/styles.css';

export type { FinishResult, SignInConfig, WidgetEvent } from './config.ts';
export { SignInConfigError } from './config.ts';
export { mount } from './mount.tsx';
