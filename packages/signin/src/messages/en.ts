import { loginMessages } from '@gatehouse/contract/client';

/**
 * Every text the widget shows, keyed, verbatim from the specification where it quotes one.
 * `{0}` placeholders are filled by t(). A second language is a second file of the same shape.
 * Texts the spec leaves unquoted are our wording (docs/decisions/005-widget-texts.md).
 */
export const en = {
  // login (heading and empty-field messages: our wording, the spec shows none)
  'login.heading': 'Log in to your account',
  'login.username': 'Username',
  'login.password': 'Password',
  'login.submit': 'Log in',
  'login.submitting': 'Logging in…',
  'login.usernameRequired': 'Enter your username.',
  'login.passwordRequired': 'Enter your password.',
  'login.forgotUsername': 'Forgot username?',
  'login.region': 'Sign in',
  'login.savedUsername': 'Username',
  'login.otherUser': 'Use a different username',
  'login.useSaved': 'Use a saved username',
  'login.remember': 'Remember my username',

  // named errors of the status tables (spec §8)
  'error.incorrectCredentials': loginMessages.incorrectCredentials,
  'error.securityBlocked': loginMessages.securityBlocked,
  'error.unauthorized': loginMessages.unauthorized,
  'error.incorrectCode': 'Security code not recognized. Try again.',
  'error.emptyCode': 'Enter your security code.',
  'error.shortCode': 'Enter your 6-digit security code.',
  'error.pushBlocked': 'Please try logging in again',
  'error.usernameSimilar':
    'Your username cannot share more than 5 consecutive characters with your password.',
  'error.wrongPassword': 'You entered your password incorrectly.',
  'error.usernameTaken': 'The username you entered is already taken. Please try another one.',
  'error.usernameMinLength': 'Username must contain a minimum of 8 characters.',
  'error.usernameMaxLength': 'Username contains more than maximum characters allowed.',
  'error.usernameNoAlpha': 'Username must contain alpha characters',
  'error.usernameInvalidCharacter': 'Username contains invalid character.',
  'error.usernameGuidelines':
    'Your new username did not meet all of the security guidelines. Please try again.',
  'error.rateLimited': loginMessages.rateLimited,
  'error.unknown': loginMessages.unknown,

  // account-state pages (spec §2, §8); headings the spec leaves unquoted are our wording
  'page.blockedHeading': 'Your account has been blocked',
  'page.blockedBody': 'Sorry, your account has been blocked for security reasons. Call us so we can help.',
  'page.callUs': 'Call {0}',
  'page.lockedHeading': 'Your account has been locked',
  'page.lockedBody':
    "You've made too many login attempts. For security reasons, you'll need to reset your password.",
  'page.resetPassword': 'Reset password',
  'page.expiredHeading': 'You must create a new password',
  'page.expiredBody': 'Your current password is not strong enough, or has expired.',
  'page.rejectHeading': 'We were unable to log you in',
  'page.prohibitedHeading': "You can't access this website right now",
  'page.prohibitedBody': 'This service is unavailable in your current location.',
  'page.forcedHeading': 'Update your username',
  'page.forcedBody': 'You need to update your username before you can continue.',
  'page.updateUsername': 'Update username',
  'page.totpBlockHeading': 'We were unable to log you in',
  'page.totpBlockBody':
    'Sorry, your account has been temporarily blocked due to too many attempts. Please try again 5 minutes from the time you first saw this message.',
  'page.back': 'Back',
  'page.ssoHeading': "We couldn't complete this action",
  'page.ssoBody': 'Please try logging in again.',
  'page.logoutHeading': 'You are now logged out.',
  'page.logoutBody': 'Thank you for visiting. You can close this window or log in again.',

  // change username and confirmation (spec §2, §5); heading, button and rule 3 wording are ours
  'username.heading': 'Create a new username',
  'username.intro': 'Choose a username you have not used before.',
  'username.new': 'New username',
  'username.password': 'Current password',
  'username.requirements': 'Username requirements',
  'username.rule.length': 'Use 8–15 letters and/or numbers.',
  'username.rule.letters':
    'If your username is between 9–11 characters in length, it must contain at least two letters.',
  'username.rule.sequences':
    "Don't repeat a letter or number 5 or more times in a row, or use 4 or more letters or numbers in order (like abcd or 1234).",
  'username.rule.password':
    'Your username cannot share more than 5 consecutive characters with your password.',
  'username.rule.personal':
    'Do not use personal information such as your Social Security number, phone number or birth date.',
  'username.met': 'Met:',
  'username.unmet': 'Not met:',
  'username.progress': '{0} of {1} username requirements met.',
  'username.notMet': 'Username requirements are not met.',
  'username.usernameRequired': 'Enter a new username.',
  'username.passwordRequired': 'Enter your current password.',
  'username.submit': 'Update username',
  'username.submitting': 'Updating your username…',
  'username.confirmHeading': "You've changed your username",
  'username.confirmValue': 'Your new username is {0}.',
  'username.confirmBody': 'Use your new username the next time you log in.',
  'username.continue': 'Continue',

  // one-time code factor (spec §2 "OTP contact screen", "OTP code screen", "Rep page", §8);
  // the per-channel headings, the outage advice and button busy texts are our wording
  'otp.heading': 'Verify your identity',
  'otp.smsTemplate':
    '{0} msg: Your security code is: $$CODE$$ DO NOT SHARE THIS CODE WITH ANYONE. Enter it online to complete your transaction. Thank you.',
  'otp.whichNumber': 'Which number should we send it to?',
  'otp.whichEmail': 'Which email should we send it to?',
  'otp.oneNumber': "We'll send it to this number.",
  'otp.oneEmail': 'This is the email address we have on file for you.',
  'otp.numbers': 'Phone numbers',
  'otp.emails': 'Email addresses',
  'otp.textMe': 'Text me the code',
  'otp.callMe': 'Call me with the code',
  'otp.emailMe': 'Email me the code',
  'otp.sending': 'Sending the code…',
  'otp.cantReceive': "Can't receive the code?",
  'otp.anotherWay': 'Get the code another way',
  'otp.back': 'Back',
  'otp.recentlyAdded':
    "Your recently added contact information won't appear right away. You need to wait 2–3 days before your new {0} can be used to verify your identity.",
  'otp.phoneNumber': 'phone number',
  'otp.emailAddress': 'email address',
  'otp.codeHeading.sms': 'Enter the code we texted you',
  'otp.codeHeading.voice': 'Enter the code from our call',
  'otp.codeHeading.email': 'Enter the code we emailed you',
  'otp.codeHeading.rep': 'Enter the code from the representative',
  'otp.securityCode': 'Security code',
  'otp.submit': 'Submit',
  'otp.checking': 'Checking the code…',
  'otp.resend': 'Resend code',
  'otp.resent': 'We sent you a new code.',
  'otp.trustDevice': "Don't ask me again on this device",
  'otp.sentTo': 'We sent the code to {0}. It will expire after 30 minutes.',
  'otp.callInstead': 'call me with the code',
  'otp.anotherPhone': 'Try another phone number',
  'otp.outage': 'There may be a problem texting a code to your number at this time',
  'otp.outageSeveral': 'Try another phone number.',
  'otp.outageOne': 'Ask us to call you with the code, or get it by email.',
  'otp.repHeading': 'Call us to verify your identity',
  'otp.repText': 'A representative will verify your identity and provide a temporary security code.',
  'otp.repCall': 'Call {0}',
  'otp.continue': 'Continue',
  'error.contactUnavailable': 'This contact cannot be used to verify your identity.',

  // system pages
  'page.somethingWentWrong': 'Something went wrong',
  'page.cantComplete': "Sorry, we can't complete this action right now. Please try again.",
  'page.supportHours': 'If the problem continues, call us Monday-Friday, 8 a.m.-6 p.m. ET.',
  'page.backToLogin': 'Back to log in',
  'page.cancel': 'Cancel',
} as const;

export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, string>;
