import { customerPaths as paths } from '@gatehouse/contract/client';
import type { FactorEntry } from '../../factors.ts';

/** Push to the device app (widget spec §2 "Push screen", "Push denied screen"). */
const routes = {
  push: '/push',
  pushDenied: '/pushdenied',
  authenticatorPush: '/authenticator/push',
  authenticatorPushDenied: '/authenticator/pushdenied',
} as const;

const calls = {
  pushAuthentication: { method: 'POST', path: paths.pushAuthentication, factor: 'PUSH' },
  pushStatus: { method: 'POST', path: paths.pushStatus, factor: 'PUSH' },
} as const;

type PushRoutes = typeof routes;
type PushCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorRoutes extends PushRoutes {}
  interface FactorCalls extends PushCalls {}
}

export const entry = {
  key: 'push',
  types: ['PUSH'],
  routes,
  opens: { PUSH: routes.authenticatorPush },
  calls,
  textGroups: ['push'],
} satisfies FactorEntry;
