import type { FactorEntry } from '../../factors.ts';

/** The one-time code by text, voice or e-mail (widget spec §2 "OTP contact screen", "OTP code screen"). */
const routes = {
  otp: '/otp',
  securityCode: '/securitycode',
  authenticatorOtp: '/authenticator/otp',
  authenticatorOtpCode: '/authenticator/otp/securitycode',
} as const;

type OtpRoutes = typeof routes;
declare module '../../factors.ts' {
  interface FactorRoutes extends OtpRoutes {}
}

export const entry = {
  key: 'otp',
  types: ['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL'],
  routes,
  opens: {
    'OTP-SMS': routes.authenticatorOtp,
    'OTP-VOICE': routes.authenticatorOtp,
    'OTP-EMAIL': routes.authenticatorOtp,
  },
  textGroups: ['otp'],
} satisfies FactorEntry;
