import { customerPaths as paths } from '@gatehouse/contract/client';

/** Every call of widget spec §7: its method and path under the configured endpoint base. */
export const calls = {
  // baseInfo: the body carries requestBaseInfo with an empty sessionTokens (portal spec §3, §7).
  passwordAuthentication: { method: 'POST', path: paths.passwordAuthentication, baseInfo: true },
  sessionLogin: { method: 'POST', path: paths.sessionLogin, baseInfo: true },
  logout: { method: 'DELETE', path: paths.sessionLogout, baseInfo: true },
  rememberGet: { method: 'GET', path: paths.rememberUsername },
  rememberPut: { method: 'PUT', path: paths.rememberUsername },
  rememberPost: { method: 'POST', path: paths.rememberUsername },
  attributes: { method: 'GET', path: paths.identityAttributes },
  authenticators: { method: 'GET', path: paths.authenticators },
  otpState: { method: 'GET', path: paths.otpState },
  otpSendSms: { method: 'POST', path: paths.otpSms },
  otpSendVoice: { method: 'POST', path: paths.otpVoice },
  otpSendEmail: { method: 'POST', path: paths.otpEmail },
  otpCheckSms: { method: 'PUT', path: paths.otpSms },
  otpCheckVoice: { method: 'PUT', path: paths.otpVoice },
  otpCheckEmail: { method: 'PUT', path: paths.otpEmail },
  otpCheckRep: { method: 'PUT', path: paths.otpRep },
  svipStatus: { method: 'GET', path: paths.svipStatus },
  svipAuthentication: { method: 'POST', path: paths.svipAuthentication },
  svipSynchronization: { method: 'POST', path: paths.svipSynchronization },
  totpAuthentication: { method: 'POST', path: paths.totpAuthentication },
  pushAuthentication: { method: 'POST', path: paths.pushAuthentication },
  pushStatus: { method: 'POST', path: paths.pushStatus },
  trustedDevice: { method: 'POST', path: paths.trustedDevice },
  changeUsername: { method: 'PUT', path: paths.changeUsername },
  sessionUpdate: { method: 'POST', path: paths.sessionUpdate },
  sessionExtend: { method: 'POST', path: paths.sessionExtend },
  clientLogs: { method: 'POST', path: paths.clientLogs },
} as const;

export type CallName = keyof typeof calls;

/**
 * The factor each second-factor call proves. In the step-up journey the token type header
 * carries it (widget spec §4: "A step-up journey sets the token type header to the factor value").
 */
export const callFactor: Partial<Record<CallName, string>> = {
  otpSendSms: 'OTP-SMS',
  otpCheckSms: 'OTP-SMS',
  otpSendVoice: 'OTP-VOICE',
  otpCheckVoice: 'OTP-VOICE',
  otpSendEmail: 'OTP-EMAIL',
  otpCheckEmail: 'OTP-EMAIL',
  otpCheckRep: 'OTP-REP',
  svipStatus: 'TOTPSVIP',
  svipAuthentication: 'TOTPSVIP',
  svipSynchronization: 'TOTPSVIP',
  totpAuthentication: 'TOTPAUTHN',
  pushAuthentication: 'PUSH',
  pushStatus: 'PUSH',
};
