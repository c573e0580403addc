import { customerPaths as paths } from '@gatehouse/contract/client';
import type { FactorEntry } from '../../factors.ts';

/** The one-time code by text, voice or e-mail (widget spec §2 "OTP contact screen", "OTP code screen"). */
const routes = {
  otp: '/otp',
  securityCode: '/securitycode',
  authenticatorOtp: '/authenticator/otp',
  authenticatorOtpCode: '/authenticator/otp/securitycode',
} as const;

const calls = {
  otpState: { method: 'GET', path: paths.otpState },
  otpSendSms: { method: 'POST', path: paths.otpSms, factor: 'OTP-SMS' },
  otpSendVoice: { method: 'POST', path: paths.otpVoice, factor: 'OTP-VOICE' },
  otpSendEmail: { method: 'POST', path: paths.otpEmail, factor: 'OTP-EMAIL' },
  otpCheckSms: { method: 'PUT', path: paths.otpSms, factor: 'OTP-SMS' },
  otpCheckVoice: { method: 'PUT', path: paths.otpVoice, factor: 'OTP-VOICE' },
  otpCheckEmail: { method: 'PUT', path: paths.otpEmail, factor: 'OTP-EMAIL' },
} as const;

type OtpRoutes = typeof routes;
type OtpCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorRoutes extends OtpRoutes {}
  interface FactorCalls extends OtpCalls {}
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
  calls,
  textGroups: ['otp'],
} satisfies FactorEntry;
