/**
 * The portal's recovery and password texts (portal spec §2, §4, §5, §8), quoted verbatim; part of
 * the catalog in messages.ts, in a module of their own so that the sign-in screens never load them.
 */
/** Recovery by e-mail code (portal spec §2, §4, §8). */
export const recoveryMessages = {
  // Recovery: username / one-time code screen (portal spec §8).
  invalidInformation: 'The information provided is invalid. Please try again.',
  genericError: 'An error has occurred. Please retry your request. If needed, contact {0} for assistance.',
  contactSupport: 'Please contact {0} for assistance (status code 1491).',
  incorrectCode: 'Your one-time code is invalid. Please try again or request a new code.',
  otpConfirmationRequired: 'Cannot access this page without OTP confirmation',
  recoveryNotStarted: 'Please enter your username to receive a one-time code.',
  codeSent:
    'A validation code has been emailed to you. It may take up to 3-4 minutes to receive this code. Please use this code to continue.',
  codeConfirmed: 'Your one-time code is confirmed.',
  passwordTemporary: 'Your password is temporary and must be replaced.',
  passwordChanged: 'Password changed successfully',
} as const;

/** Password update (portal spec §8 table, verbatim). */
export const passwordUpdateMessages = {
  // Password update, HTTP 400 (portal spec §8 table, verbatim).
  passwordRepeats: 'Passwords cannot have more than 5 instances of a single number or letter.',
  passwordSequential: 'Passwords cannot have more than 5 sequential numbers.',
  passwordLength: 'Password length requirements not met.',
  passwordMinimum: 'Password does not meet minimum requirements.',
  passwordNumber: 'Passwords need at least one number.',
  passwordLowercase: 'Passwords need at least one lowercase letter.',
  passwordUppercase: 'Passwords need at least one uppercase letter.',
  passwordNeedsSpecial: 'Passwords need at least one special character.',
  passwordLetterAndNumber: 'Passwords need at least one letter and one number.',
  passwordTooCommon: 'Password is too common.',
  passwordBirthDate: "Passwords cannot contain the user's birth date.",
  passwordPersonalData: "Passwords cannot contain the user's SSN, Tax ID, G number, or username.",
  passwordSharesWithUsername: 'Passwords cannot share more than 5 characters with usernames.',
  passwordReused: 'Your new password cannot match any of your 6 previous passwords. Please try again.',
  /**
   * 1490 as we use it: our policy forbids special characters, so the code means "contains one"
   * and the message is the portal's §5 rule text, not the §8 "need at least one" (docs/api.md).
   */
  passwordSpecialForbidden: 'Password cannot contain any special characters',
  /** 4401: the old-password form of an account with a second factor needs a session that passed it. */
  passwordChangeNeedsFactor: 'Sign in with your second factor to change your password.',
} as const;

/** The reset screen's password rules (portal spec §5), in the spec's order, and the mismatch. */
export const passwordMessages = {
  length: 'Password must be between 8 and 20 characters',
  uppercase: 'Password must contain at least one uppercase letter',
  lowercase: 'Password must contain at least one lowercase letter',
  number: 'Password must contain at least one number',
  special: 'Password cannot contain any special characters',
  mismatch: 'Passwords do not match',
} as const;
