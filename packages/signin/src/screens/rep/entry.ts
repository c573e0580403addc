import type { FactorEntry } from '../../factors.ts';

/**
 * The representative's code (widget spec §2 "Rep page"): a representative reads out a temporary
 * code, entered on the one-time-code screen with its check call. Its texts are the one-time-code
 * group's.
 */
const routes = { authenticatorRep: '/authenticator/rep', rep: '/rep' } as const;

type RepRoutes = typeof routes;
declare module '../../factors.ts' {
  interface FactorRoutes extends RepRoutes {}
}

export const entry = {
  key: 'rep',
  types: ['OTP-REP'],
  routes,
  opens: { 'OTP-REP': routes.authenticatorRep },
  textGroups: ['otp'],
} satisfies FactorEntry;
