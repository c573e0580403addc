import type { FactorEntry } from '../../factors.ts';

/**
 * The token app (widget spec §2 "Token app code screen", "Token resync screen"): under
 * /authenticator, and the top-level /totp-sync §2 names too (a server's redirect may name either).
 */
const routes = {
  authenticatorSvip: '/authenticator/svip',
  authenticatorSvipSync: '/authenticator/svip/sync',
  totpSync: '/totp-sync',
} as const;

type TokenRoutes = typeof routes;
declare module '../../factors.ts' {
  interface FactorRoutes extends TokenRoutes {}
}

export const entry = {
  key: 'token',
  types: ['TOTPSVIP'],
  routes,
  opens: { TOTPSVIP: routes.authenticatorSvip },
  textGroups: ['appCodes'],
} satisfies FactorEntry;
