/**
 * Every path of both specifications' §7 tables, relative to the API base (`/api`).
 * One place: the server registers these and the clients call them.
 */
export const API_BASE = '/api';

export const paths = {
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
  /**
   * The companion device app (apps/device; docs/decisions/022-push-and-device.md). Every call but
   * register carries a device proof (a signature by the device's own P-256 key), not a cookie.
   */
  devicePushes: '/device/pushes',
  devicePushAnswer: '/device/pushes/answer',
  /** Server-sent events: a hint that the device's pushes changed (it then asks devicePushes). */
  deviceStream: '/device/stream',
  /** A signed-in session registers the device's key as a push device of its account. */
  deviceRegister: '/device/register',
  deviceRegistrations: '/device/registrations',
  deviceRename: '/device/registrations/rename',
  deviceRemove: '/device/registrations/remove',
  clientLogs: '/user/cclogger/logs',
  health: '/health',
  ready: '/ready',
  openapi: '/openapi.json',
  /** The same document as a script-free HTML page. */
  apiDocs: '/docs',
  devOutbox: '/dev/outbox',
  /** Development: the demo accounts that carry push, and claiming one's seeded device. */
  devDemoDevices: '/dev/demo-devices',
  devDemoDeviceClaim: '/dev/demo-devices/claim',
  /** Development: the demo accounts' token credentials as otpauth:// URIs, for the device app's codes. */
  devDemoTokens: '/dev/demo-tokens',
} as const;

/**
 * The representative console's calls (apps/console; docs/decisions/028-representative-console.md),
 * under /api/console: a staff session cookie scoped to that path, never a customer's.
 */
export const consolePaths = {
  /** POST name and password (first step); GET the signed-in staff member; DELETE signs out. */
  consoleSession: '/console/session',
  /** POST the authenticator-app code (second step). */
  consoleFactor: '/console/session/factor',
  /** POST an exact username: the customer's state (POST: the name stays out of URLs and logs). */
  consoleCustomer: '/console/customers/lookup',
  consoleIssueCode: '/console/customers/code',
  consoleLift: '/console/customers/lift',
  consoleAudit: '/console/audit',
} as const;

/** Screens of the sign-in app that the server names in `redirectPath` (widget spec §2). */
export const redirectPaths = {
  prohibited: '/prohibited',
} as const;
