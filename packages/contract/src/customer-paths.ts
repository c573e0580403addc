/** The API base every path below is relative to. */
export const API_BASE = '/api';

/**
 * The paths the sign-in widget and the portal call, relative to the API base (`/api`), apart from
 * the device app's and the service's own in paths.ts, so the login routes carry only these.
 */
export const customerPaths = {
  passwordAuthentication: '/user/factor/password/authentication',
  passwordStatus: '/user/factor/password/status',
  passwordEnrollment: '/user/factor/password/enrollment',
  sessionLogin: '/user/session/login',
  /** Logout: DELETE with the trailing slash, as portal spec §7 writes it. */
  sessionLogout: '/user/session/login/',
  sessionUpdate: '/user/session/update',
  sessionExtend: '/user/session/extend',
  rememberUsername: '/user/identity/remember/username',
  identityAttributes: '/user/identity/attributes',
  identifyUsername: '/user/identity/username',
  /**
   * Recovery by the channel the customer chose (portal spec §4 steps 0-6): POST sends a code by
   * TEXT, CALL or EMAIL; PUT checks a code of any delivery option, REP's from the console included.
   */
  recoveryCode: '/user/recovery/code',
  changeUsername: '/user/identity/username',
  trustedDevice: '/user/identity/preferences/trustedDevice',
  authenticators: '/user/factor/authenticators',
  otpState: '/user/factor/otp/state',
  otpSms: '/user/factor/otp/sms/authentication',
  otpVoice: '/user/factor/otp/voice/authentication',
  otpEmail: '/user/factor/otp/email/authentication',
  otpRep: '/user/factor/otp/rep/authentication',
  svipStatus: '/user/factor/totp/svip/status',
  svipAuthentication: '/user/factor/totp/svip/authentication',
  svipSynchronization: '/user/factor/totp/svip/synchronization',
  totpAuthentication: '/user/factor/totp/authentication',
  pushAuthentication: '/user/factor/push/authentication',
  pushStatus: '/user/factor/push/status',
  clientLogs: '/user/cclogger/logs',
  /**
   * The first-party device-risk beacon (widget spec §7's third-party step,
   * docs/decisions/045-device-risk-step.md): the provider's signals recorded on the login journey.
   */
  deviceRiskBeacon: '/user/risk/beacon',
  health: '/health',
} as const;

/**
 * Paths the specs declare and no client calls (docs/decisions/045b-declared-spec-points.md): portal
 * spec §7, 'a log collector path /servicing/logs/collector; a sign-in path /servicing/signin'
 * ('defined but not called here'), and widget spec §7's 'a path /IDP'. Kept, as the specs keep
 * them, so a host that links to one finds its name here; the service serves none of them (the
 * client log collector is `customerPaths.clientLogs`, sign-in is the widget's calls).
 */
export const declaredPaths = {
  servicingLogsCollector: '/servicing/logs/collector',
  servicingSignin: '/servicing/signin',
  idp: '/IDP',
} as const;
