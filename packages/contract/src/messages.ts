/**
 * Texts that the server sends in envelopes and the clients show: one catalog, keyed, quoted
 * verbatim from the specs. Screen texts live in each app's own catalog; these are the shared ones.
 * The portal's recovery and reset texts are in recovery-messages.ts and the server's whole catalog
 * in server-messages.ts: modules of their own, so a client's first screen loads only the groups it
 * reads (a bundler places whole modules in chunks, not single exports).
 */
/** Sign-in, session and protocol messages (both specs §8, design.md's envelope). */
export const loginMessages = {
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
  unknown: 'Unknown error',
  unavailable: 'The service is temporarily unavailable. Please try again.',
  sessionExpired: 'Your session has ended. Please sign in again.',
} as const;

/** Saved usernames, change username and account states (widget spec §2, §7, §8). */
export const identityMessages = {
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

/** One-time-code second factor, step-up and trusted device (widget spec §2, §4, §8). */
export const factorMessages = {
  /** Code screen text for text and e-mail (widget spec §2); {0} the masked contact, {1} minutes. */
  factorCodeSent: 'We sent the code to {0}. It will expire after {1} minutes.',
  /** Voice: the call is placed; {0} the masked number. */
  factorCallPlaced: "We're calling {0} with the code. It will expire after {1} minutes.",
  /** 1224: the text warning of widget spec §8 (the code is still sent). */
  carrierOutage: 'There may be a problem texting a code to your number at this time',
  /** 1428: widget spec §8, incorrect code. */
  securityCodeNotRecognized: 'Security code not recognized. Try again.',
  factorVerified: 'Identity verified',
  /** 1491: too many sends or wrong codes on a channel; the widget goes to the representative page. */
  factorLimitReached: 'Please try another method to verify your identity.',
  /** 1403: the contact is not this account's, not usable yet, or not of this channel. */
  contactNotUsable: 'This contact cannot be used to verify your identity.',
  /** 1403: the channel is not among the account's allowed authenticators. */
  factorNotAllowed: 'This verification method is not available for your account.',
  deviceTrusted: 'This device is trusted.',
  deviceNotTrusted: 'This device is not trusted.',
  /** 1403: binding needs a session that passed a second factor in the login journey, on a known device. */
  trustNeedsFactor: 'A device can only be trusted right after a second factor at sign-in.',
} as const;

/**
 * The text message of a one-time code (widget spec §2 "OTP send payload"); {0} the application's
 * short name (the widget's businessSMSText). The server sends only this text, with a short name it
 * is configured to allow (SMS_SENDER_NAMES), whatever a request asks for.
 */
export const smsTemplate =
  '{0} msg: Your security code is: $$CODE$$ DO NOT SHARE THIS CODE WITH ANYONE. Enter it online to complete your transaction. Thank you.';

/** Fills `{0}`-style placeholders. */
export function format(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const value = args[Number(i)];
    return value === undefined ? whole : String(value);
  });
}
