/** Every route of the widget's in-memory router (widget spec §2). */
export const routes = {
  login: '/login',
  authenticator: '/authenticator',
  reject: '/reject',
  prohibited: '/prohibited',
  expired: '/expired',
  otp: '/otp',
  totp: '/totp',
  totpSync: '/totp-sync',
  push: '/push',
  pushDenied: '/pushdenied',
  rep: '/rep',
  securityCode: '/securitycode',
  error: '/error',
  ssoError: '/ssoerror',
  blocked: '/blocked',
  forcedUpdate: '/forcedaci',
  createUsername: '/createusername',
  usernameConfirmation: '/usernameconfirmaton',
  totpBlock: '/totp-block',
  extendSession: '/extend-session',
  logout: '/logout',
  authenticatorOtp: '/authenticator/otp',
  authenticatorOtpCode: '/authenticator/otp/securitycode',
  authenticatorRep: '/authenticator/rep',
  authenticatorSvip: '/authenticator/svip',
  authenticatorSvipSync: '/authenticator/svip/sync',
  authenticatorPush: '/authenticator/push',
  authenticatorPushDenied: '/authenticator/pushdenied',
  authenticatorTotp: '/authenticator/totp',
  authenticatorTotpBlock: '/authenticator/totp-block',
} as const;

export type RoutePath = (typeof routes)[keyof typeof routes];

/**
 * A path the widget can show: one of its routes. A route of an unbuilt factor has no screen, so
 * it shows the generic error card (the catch-all route), as the error route would.
 */
export const isShownRoute = (path: string | undefined): path is RoutePath =>
  path !== undefined && (Object.values(routes) as string[]).includes(path);
