/**
 * Push and the device app (widget spec §2 push screens; the device app's calls, decision 022): part
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
  pushAnswered: 'Your answer was recorded.',
  pushAlreadyAnswered: 'This notification was already answered.',
  pushExpired: 'This notification has expired.',
  /** 1403: a device proof or answer signature that does not verify, or a time outside the window. */
  deviceProofRefused: 'The device could not be verified.',
  /** 1403: registering a device needs a sign-in with a second factor other than push, just now. */
  deviceNeedsFactor:
    'To add this device, sign in with your password and a one-time code (not a notification).',
  deviceRegistered: 'This device can now approve sign-ins.',
  deviceRenamed: 'The device was renamed.',
  deviceRemoved: 'The device was removed.',
  /** 1404: a demo account without a seeded device (development only). */
  demoDeviceUnknown: 'There is no demo device for this username.',
} as const;
