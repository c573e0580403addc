import type { FactorEntry } from '../../factors.ts';

/**
 * The authenticator app (widget spec §2 "Authenticator-app (TOTP) screen"): under /authenticator,
 * and the top-level /totp path §2 names too (a server's redirect may name either).
 */
const routes = { authenticatorTotp: '/authenticator/totp', totp: '/totp' } as const;

type TotpRoutes = typeof routes;
declare module '../../factors.ts' {
  interface FactorRoutes extends TotpRoutes {}
}

export const entry = {
  key: 'totp',
  types: ['TOTPAUTHN'],
  routes,
  opens: { TOTPAUTHN: routes.authenticatorTotp },
  textGroups: ['appCodes'],
} satisfies FactorEntry;
