/**
 * Push (widget spec §2 push screens, decision 022; the device app's call texts are in device-messages.ts): part
 * of the catalog in messages.ts, in a module of their own so that the login routes (which read
 * factorMessages) never carry them: a bundler places whole modules in chunks.
 */
export const pushMessages = {
  pushSent: 'We sent a notification to your mobile device',
  /** 1403: the account has no push device. */
  pushNoDevice: 'There is no mobile device set up to approve sign-ins for your account.',
  /** 1491: the third push of a journey was sent; the widget shows its limit text. */
  pushLimitReached: 'Please try another method to verify your identity.',
  pushUnknown: 'There is no such notification.',
} as const;
