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

  // system pages
  'page.somethingWentWrong': 'Something went wrong',
  'page.cantComplete': "Sorry, we can't complete this action right now. Please try again.",
  'page.supportHours': 'If the problem continues, call us Monday-Friday, 8 a.m.-6 p.m. ET.',
  'page.backToLogin': 'Back to log in',
  'page.cancel': 'Cancel',
} as const;

export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, string>;
