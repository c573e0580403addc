import { customerPaths as paths } from '@gatehouse/contract/client';

/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { PushDeniedScreen } from './PushDeniedScreen.tsx';
export { PushScreen } from './PushScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'push' },
  import: 'default',
});

/** The screen of each of its routes (route name -> export above), read off the login route (screens/Routes.tsx). */
export const screenNames: Readonly<Record<string, string>> = {
  authenticatorPush: 'PushScreen',
  push: 'PushScreen',
  authenticatorPushDenied: 'PushDeniedScreen',
  pushDenied: 'PushDeniedScreen',
};

/**
 * Its calls (widget spec §7): method, path, and the factor a step-up names in its header. They join
 * the widget's call table when this chunk loads (screens/Routes.tsx), so the login route carries none.
 */
export const calls = {
  pushAuthentication: { method: 'POST', path: paths.pushAuthentication, factor: 'PUSH' },
  pushStatus: { method: 'POST', path: paths.pushStatus, factor: 'PUSH' },
} as const;

type PushCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorCalls extends PushCalls {}
}
