/**
 * The texts of the device app's calls (decision 022), a module of their own: the widget's and the
 * portal's login routes load messages.ts and never show these (docs/decisions/019-small-router.md).
 */
export const deviceMessages = {
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
