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
 * Factor screens that are not built yet (token app, authenticator app). The widget never
 * lands a customer on one: the authenticator entry skips their factors, and a server redirect to
 * one goes to the error route (issue 9 point 7). A factor leaves this list when its screen lands.
 */
export const unbuiltRoutes: ReadonlySet<string> = new Set([
  routes.totp,
  routes.totpSync,
  routes.authenticatorSvip,
  routes.authenticatorSvipSync,
  routes.authenticatorTotp,
]);

/** A path the widget can show: one of its routes, and a built one. */
export const isShownRoute = (path: string | undefined): path is RoutePath =>
  path !== undefined && (Object.values(routes) as string[]).includes(path) && !unbuiltRoutes.has(path);
