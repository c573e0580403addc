import { type FactorRoutes, factorEntries } from './factors.ts';

/** The routes of the widget's own screens (widget spec §2): sign-in, states, username, session. */
const appRoutes = {
  login: '/login',
  authenticator: '/authenticator',
  reject: '/reject',
  prohibited: '/prohibited',
  expired: '/expired',
  error: '/error',
  ssoError: '/ssoerror',
  blocked: '/blocked',
  forcedUpdate: '/forcedaci',
  createUsername: '/createusername',
  usernameConfirmation: '/usernameconfirmaton',
  totpBlock: '/totp-block',
  extendSession: '/extend-session',
  logout: '/logout',
  authenticatorTotpBlock: '/authenticator/totp-block',
} as const;

/**
 * Every route of the widget's in-memory router (widget spec §2): its own, and each factor's from
 * its entry (screens/<key>/entry.ts).
 */
export const routes: Readonly<typeof appRoutes & FactorRoutes> = Object.assign(
  {},
  ...factorEntries.map((entry) => entry.routes),
  appRoutes,
);

export type RoutePath = (typeof routes)[keyof typeof routes];

const shown: ReadonlySet<string> = new Set(Object.values(routes));

/** A path the widget can show: one of its routes. */
export const isShownRoute = (path: string | undefined): path is RoutePath =>
  path !== undefined && shown.has(path);
