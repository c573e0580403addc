import { customerPaths as paths } from '@gatehouse/contract/client';
import type { FactorEntry } from '../../factors.ts';

/** The authenticator app (widget spec §2 "Authenticator-app (TOTP) screen"). */
const routes = { authenticatorTotp: '/authenticator/totp' } as const;

const calls = {
  totpAuthentication: { method: 'POST', path: paths.totpAuthentication, factor: 'TOTPAUTHN' },
} as const;

type TotpRoutes = typeof routes;
type TotpCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorRoutes extends TotpRoutes {}
  interface FactorCalls extends TotpCalls {}
}

export const entry = {
  key: 'totp',
  types: ['TOTPAUTHN'],
  routes,
  opens: { TOTPAUTHN: routes.authenticatorTotp },
  calls,
  textGroups: ['appCodes'],
} satisfies FactorEntry;
