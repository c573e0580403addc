import { customerPaths as paths } from '@gatehouse/contract/client';

/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { TokenScreen } from './TokenScreen.tsx';
export { TokenSyncScreen } from './TokenSyncScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'appCodes' },
  import: 'default',
});

/** The screen of each of its routes (route name -> export above), read off the login route (screens/Routes.tsx). */
export const screenNames: Readonly<Record<string, string>> = {
  authenticatorSvip: 'TokenScreen',
  authenticatorSvipSync: 'TokenSyncScreen',
  totpSync: 'TokenSyncScreen',
};

/**
 * Its calls (widget spec §7): method, path, and the factor a step-up names in its header. They join
 * the widget's call table when this chunk loads (screens/Routes.tsx), so the login route carries none.
 */
export const calls = {
  svipStatus: { method: 'GET', path: paths.svipStatus, factor: 'TOTPSVIP' },
  svipAuthentication: { method: 'POST', path: paths.svipAuthentication, factor: 'TOTPSVIP' },
  svipSynchronization: { method: 'POST', path: paths.svipSynchronization, factor: 'TOTPSVIP' },
} as const;

type TokenCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorCalls extends TokenCalls {}
}
