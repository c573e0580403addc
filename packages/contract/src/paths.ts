import { customerPaths } from './customer-paths.ts';

/**
 * Every path of both specifications' §7 tables, relative to the API base (`/api`): the customer's
 * (customer-paths.ts, which the login routes carry alone), the device app's and the service's own.
 * One place: the server registers these and the clients call them.
 */
export const paths = {
  ...customerPaths,
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
  ready: '/ready',
  /** A load balancer's liveness probe: no cookie, no CSRF token, no info log line (`health` stays for people and browsers). */
  live: '/live',
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
  /** POST (no body): the staff member is still here; moves the session's idle limit (the time-limit warning). */
  consoleSessionExtend: '/console/session/extend',
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
