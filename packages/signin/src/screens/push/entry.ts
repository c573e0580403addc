import type { FactorEntry } from '../../factors.ts';

/** Push to the device app (widget spec §2 "Push screen", "Push denied screen"). */
const routes = {
  push: '/push',
  pushDenied: '/pushdenied',
  authenticatorPush: '/authenticator/push',
  authenticatorPushDenied: '/authenticator/pushdenied',
} as const;

type PushRoutes = typeof routes;
declare module '../../factors.ts' {
  interface FactorRoutes extends PushRoutes {}
}

export const entry = {
  key: 'push',
  types: ['PUSH'],
  routes,
  opens: { PUSH: routes.authenticatorPush },
  textGroups: ['push'],
} satisfies FactorEntry;
