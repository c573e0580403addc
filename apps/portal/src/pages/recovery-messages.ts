import { recoveryMessages } from '@gatehouse/contract/client';

/**
 * Texts of the username / one-time code and reset-password screens (portal spec §2, §4, §5, §8),
 * verbatim where the spec quotes them; loaded with those screens, not on the login route.
 */
export const recoveryTexts = {
  genericError: recoveryMessages.genericError,
  // username / one-time code screen (portal spec §2, §4, §8); notes and buttons not quoted are ours
  confirmIdentity: 'Confirm Identity',
  usernamePrompt: 'Please enter your username to receive an email with a one-time code.',
  usernameLabel: 'Username',
  usernameRequired: 'Enter your username.',
  emailDelayNote: 'The email may take 3-4 minutes to arrive.',
  blockNote:
    'If a code is sent 3 times without being entered, your account is blocked and you will need to contact login support.',
  continue: 'Continue',
  cancel: 'Cancel',
  extraStep: 'Extra Security Step Required',
  emailOnFile: 'Email on file: {0}',
  codeWillBeSent: 'A security code will be sent to this address when you select Continue.',
  skipTemporary:
    'This password is a temporary password or expired, please go through OTP process to create new password',
  skipExpired: 'This password is expired, please go through OTP process to create new password',
  codeSent: recoveryMessages.codeSent,
  codeLabel: 'OTP Confirmation Code',
  codeRequired: 'Enter the one-time code.',
  codeShort: 'Enter the 6-digit one-time code.',
  confirm: 'Confirm',
  resendCode: 'Resend Code',
  resendTooltip: 'The email may take 3-4 minutes to arrive. Wait before you ask for another code.',
  resendConfirmTitle: 'Please confirm.',
  resendConfirm: 'Do you really want to resend OTP to {0}?',
  resendYes: 'Resend',
  resendNo: 'Cancel',
  forgotUsername: 'Forgot Username?',
  forgotUsernameBody: 'Please contact login support at {0}',
  invalidInformation: recoveryMessages.invalidInformation,
  supportWithCode: recoveryMessages.contactSupport,
  invalidCode: recoveryMessages.incorrectCode,
  // HTTP 429: the server's own text says how long to wait; this one when it says nothing.
  rateLimited: 'Too many attempts. Please wait a few minutes and try again.',

  // reset password (portal spec §2, §4, §5, §8)
  resetHeading: 'Reset Password',
  newPassword: 'New password',
  confirmPassword: 'Confirm your password',
  newPasswordRequired: 'Enter a new password.',
  confirmPasswordRequired: 'Confirm your new password.',
  passwordRules: 'Your new password:',
  hintLength: 'Must be 8-20 characters in length.',
  hintClasses: 'Must contain at least one uppercase, one lowercase letter, one number.',
  hintForbidden:
    'Cannot contain single repeated characters (e.g. 111111), sequential digits (e.g. 12345), or special characters.',
  hintUserId: 'Cannot share 5 or more characters with your User ID.',
  hintHistory: 'Cannot match any of your 6 previous passwords.',
  submit: 'Submit',
  changing: 'Changing your password',
  passwordChanged: recoveryMessages.passwordChanged,
  successTitle: 'Success',
  noOtp: recoveryMessages.otpConfirmationRequired,
  errorSummaryTitle: 'There is a problem',
} as const;
