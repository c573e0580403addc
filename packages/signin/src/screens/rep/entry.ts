import { customerPaths as paths } from '@gatehouse/contract/client';
import type { FactorEntry } from '../../factors.ts';

/**
 * The representative's code (widget spec §2 "Rep page"): a representative reads out a temporary
 * code, entered on the one-time-code screen with its check call. Its texts are the one-time-code
 * group's.
 */
const routes = { authenticatorRep: '/authenticator/rep', rep: '/rep' } as const;

const calls = {
  otpCheckRep: { method: 'PUT', path: paths.otpRep, factor: 'OTP-REP' },
} as const;

type RepRoutes = typeof routes;
type RepCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorRoutes extends RepRoutes {}
  interface FactorCalls extends RepCalls {}
}

export const entry = {
  key: 'rep',
  types: ['OTP-REP'],
  routes,
  opens: { 'OTP-REP': routes.authenticatorRep },
  calls,
  textGroups: ['otp'],
} satisfies FactorEntry;
