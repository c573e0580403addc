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
  // Saved usernames on a device (widget spec §2 login, §7 remember calls).
  usernameRemembered: 'The username is saved on this device.',
  usernameForgotten: 'The username is not saved on this device.',
  usernameMarkedUsed: 'The saved username is now the first one on this device.',
  rememberNeedsSignIn: 'A username can only be saved on this device while signing in with it.',
  rememberNotSaved: 'There is no such saved username on this device.',
  // Change username (widget spec §8).
  usernameChanged: "You've changed your username",
  incorrectPassword: 'Incorrect password',
  wrongPasswordOnChange: 'You entered your password incorrectly.',
  usernameTaken: 'The username you entered is already taken. Please try another one.',
  usernameMinLength: 'Username must contain a minimum of 8 characters.',
  usernameMaxLength: 'Username contains more than maximum characters allowed.',
  usernameNoAlpha: 'Username must contain alpha characters',
  usernameInvalidCharacter: 'Username contains invalid character.',
  usernameGuidelines: 'Your new username did not meet all of the security guidelines. Please try again.',
  usernameSharesWithPassword:
    'Your username cannot share more than 5 consecutive characters with your password.',
  // Account states (widget spec §8, other page messages).
  prohibitedLocation: "You can't access this website right now",
} as const;
export type ServerMessageKey = keyof typeof serverMessages;

/** Fills `{0}`-style placeholders. */
export function format(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const value = args[Number(i)];
    return value === undefined ? whole : String(value);
  });
}
