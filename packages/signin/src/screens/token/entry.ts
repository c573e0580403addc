import { customerPaths as paths } from '@gatehouse/contract/client';
import type { FactorEntry } from '../../factors.ts';

/** The token app (widget spec §2 "Token app code screen", "Token resync screen"). */
const routes = {
  authenticatorSvip: '/authenticator/svip',
  authenticatorSvipSync: '/authenticator/svip/sync',
} as const;

const calls = {
  svipStatus: { method: 'GET', path: paths.svipStatus, factor: 'TOTPSVIP' },
  svipAuthentication: { method: 'POST', path: paths.svipAuthentication, factor: 'TOTPSVIP' },
  svipSynchronization: { method: 'POST', path: paths.svipSynchronization, factor: 'TOTPSVIP' },
} as const;

type TokenRoutes = typeof routes;
type TokenCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorRoutes extends TokenRoutes {}
  interface FactorCalls extends TokenCalls {}
}

export const entry = {
  key: 'token',
  types: ['TOTPSVIP'],
  routes,
  opens: { TOTPSVIP: routes.authenticatorSvip },
  calls,
  textGroups: ['appCodes'],
} satisfies FactorEntry;
