import { customerPaths as paths } from '@gatehouse/contract/client';

/** The screens of this factor and their texts: loaded on demand, in the screens' chunk (screens/lazy.ts). */
export { OtpCodeScreen } from './OtpCodeScreen.tsx';
export { OtpContactScreen } from './OtpContactScreen.tsx';

export const texts = import.meta.glob('../../../messages/*.json', {
  query: { groups: 'otp' },
  import: 'default',
});

/** The screen of each of its routes (route name -> export above), read off the login route (screens/Routes.tsx). */
export const screenNames: Readonly<Record<string, string>> = {
  authenticatorOtp: 'OtpContactScreen',
  otp: 'OtpContactScreen',
  authenticatorOtpCode: 'OtpCodeScreen',
  securityCode: 'OtpCodeScreen',
};

/**
 * Its calls (widget spec §7): method, path, and the factor a step-up names in its header. They join
 * the widget's call table when this chunk loads (screens/Routes.tsx), so the login route carries none.
 */
export const calls = {
  otpState: { method: 'GET', path: paths.otpState },
  otpSendSms: { method: 'POST', path: paths.otpSms, factor: 'OTP-SMS' },
  otpSendVoice: { method: 'POST', path: paths.otpVoice, factor: 'OTP-VOICE' },
  otpSendEmail: { method: 'POST', path: paths.otpEmail, factor: 'OTP-EMAIL' },
  otpCheckSms: { method: 'PUT', path: paths.otpSms, factor: 'OTP-SMS' },
  otpCheckVoice: { method: 'PUT', path: paths.otpVoice, factor: 'OTP-VOICE' },
  otpCheckEmail: { method: 'PUT', path: paths.otpEmail, factor: 'OTP-EMAIL' },
} as const;

type OtpCalls = typeof calls;
declare module '../../factors.ts' {
  interface FactorCalls extends OtpCalls {}
}
