/**
 * Texts that the server sends in envelopes and the clients show: one catalog, keyed, quoted
 * verbatim from the specs. Screen texts live in each app's own catalog; these are the shared ones.
 */
export const serverMessages = {
  success: 'Success',
  authenticated: 'User authenticated',
  authNotCompleted: 'Authentication not completed',
  callbacksRequired: 'Callbacks required',
  incorrectCredentials: "You've entered an incorrect username or password. Please try again.",
  blockedForReset:
    "You've made too many login attempts. For security reasons, you'll need to reset your password.",
  securityBlocked:
    'For security reasons, your access has been blocked. To restore your account, please call a representative',
  passwordExpired: 'Your current password is not strong enough, or has expired.',
  noLoginInProgress: 'Please try logging in again.',
  unauthorized: '401 Unauthorized',
  loggedOut: 'You are now logged out.',
  userIdentified: 'User Identified',
  userNotIdentified: 'User Not Identified',
  badRequest: 'The request is not valid: {0}',
  malformedJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request body is larger than {0} bytes.',
  unsupportedMediaType: 'The request body must be JSON (Content-Type: application/json).',
  csrfRefused: 'The request could not be verified. Reload the page and try again.',
  originRefused: 'Requests from this origin are not accepted.',
  rateLimited: 'Too many attempts. Please wait {0} seconds and try again.',
  notFound: 'No such endpoint: {0}',
  methodNotAllowed: 'This endpoint does not accept {0}.',
  unknown: 'Unknown error',
  unavailable: 'The service is temporarily unavailable. Please try again.',
  sessionExpired: 'Your session has ended. Please sign in again.',
} as const;
export type ServerMessageKey = keyof typeof serverMessages;

/** Fills `{0}`-style placeholders. */
export function format(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const value = args[Number(i)];
    return value === undefined ? whole : String(value);
  });
}
