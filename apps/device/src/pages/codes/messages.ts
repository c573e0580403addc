/**
 * The codes page's texts, with `{0}` placeholders (format() of the contract): in the page's
 * on-demand chunk, not the start page's catalog (apps/device/src/messages.ts).
 */
export const codesMessages = {
  title: 'Codes',
  intro:
    'Live sign-in codes of the token app and authenticator apps added to this device. A new code appears every 30 seconds (or the period the app was set up with).',
  unavailable:
    'This browser cannot keep codes safely (it needs WebCrypto and IndexedDB, which private windows may block).',
  readFailed: 'The codes on this device could not be read. Reload the page to try again.',
  listHeading: 'Your codes',
  none: 'No codes on this device yet. Add one below.',
  codeLabel: 'Code',
  secondsLeft: '{0} s left',
  progressLabel: 'Seconds left for the code of {0}',
  copy: 'Copy',
  copyName: 'Copy the code of {0}',
  copied: 'Code of {0} copied.',
  copyFailed: 'The code could not be copied. Select it and copy it instead.',
  remove: 'Remove',
  removeName: 'Remove {0}',
  removeTitle: 'Remove {0}?',
  removeDescription:
    'Its codes will no longer be shown on this device. If you still need them, keep the app set up somewhere else first.',
  removeConfirm: 'Yes, remove',
  cancel: 'Cancel',
  removed: '{0} was removed from this device.',
  announceLabel: 'Announce each new code',
  announceHint: 'A screen reader says the new code of every entry when it changes.',
  newCode: 'New code for {0}: {1}',

  addHeading: 'Add a code',
  addIntro:
    'Scan the QR code that a website shows when you set up an authenticator app, or paste the address it gives for manual entry.',
  uriLabel: 'Address (otpauth://)',
  uriHint: 'It starts with otpauth://totp/',
  addUri: 'Add',
  pictureLabel: 'Picture of the QR code',
  pictureHint: 'Take a picture of the QR code or choose one you saved.',
  cameraStart: 'Scan with the camera',
  cameraStop: 'Stop the camera',
  cameraHeading: 'Point the camera at the QR code',
  cameraFailed: 'The camera could not be started. Allow this page to use it, or add the code from a picture.',
  adding: 'Adding…',
  reading: 'Reading the picture…',
  added: '{0} was added. Its code is in Your codes.',
  duplicate: '{0} is already on this device.',
  saveFailed: 'The code could not be saved on this device. Please try again.',
  errorSummaryTitle: 'There is a problem',

  demoHeading: 'Demo tokens',
  demoIntro:
    "Development only: add a demo account's token app, to read its codes here and sign in with them.",
  demoAdd: "Add {0}'s token",

  // Why an address or a picture was refused (otpUri.ts's problems, then the picture's).
  uriRequired: 'Enter the otpauth:// address.',
  uriNotOtpauth: 'Enter an address that starts with otpauth://totp/',
  uriNotTotp: 'This is a counter-based (HOTP) code. Only time-based (TOTP) codes can be added.',
  uriNoLabel: 'The address must name the account after otpauth://totp/',
  uriSecret: 'The address must have a secret made of the letters A to Z and the digits 2 to 7.',
  uriSecretShort: 'The secret is too short. It must have at least 16 characters.',
  uriAlgorithm: 'The algorithm must be SHA1, SHA256 or SHA512.',
  uriDigits: 'Codes must have 6, 7 or 8 digits.',
  uriPeriod: 'The period must be between 10 and 120 seconds.',
  uriInvalid: 'Enter an otpauth://totp/ address as the website gives it.',
  pictureNoCode: 'No QR code was found in the picture. Try a sharper picture with the whole code in it.',
  pictureUnreadable: 'The picture could not be opened. Choose a PNG or JPEG picture.',
} as const;
