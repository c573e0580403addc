import { factorMessages, identityMessages, loginMessages } from '@gatehouse/contract/client';

/**
 * The texts of the login route and those every screen shares, keyed, verbatim from the
 * specification where it quotes one; each screen folder off the login route has its own
 * catalog (otp/, username/, states/). `{0}` placeholders are filled by t(). A second language
 * is a second file of the same shape. Unquoted texts are our wording (docs/decisions/005).
 */
export const en = {
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
  'login.typeOtherUser': 'Type a different username',
  'login.remember': 'Remember my username',
  'error.incorrectCredentials': loginMessages.incorrectCredentials,
  'error.securityBlocked': loginMessages.securityBlocked,
  'error.unauthorized': loginMessages.unauthorized,
  'error.incorrectCode': factorMessages.securityCodeNotRecognized,
  'error.emptyCode': 'Enter your security code.',
  'error.shortCode': 'Enter your 6-digit security code.',
  'error.pushBlocked': 'Please try logging in again',
  'error.usernameSimilar': identityMessages.usernameSharesWithPassword,
  'error.wrongPassword': identityMessages.wrongPasswordOnChange,
  'error.usernameTaken': identityMessages.usernameTaken,
  'error.usernameMinLength': identityMessages.usernameMinLength,
  'error.usernameMaxLength': identityMessages.usernameMaxLength,
  'error.usernameNoAlpha': identityMessages.usernameNoAlpha,
  'error.usernameInvalidCharacter': identityMessages.usernameInvalidCharacter,
  'error.usernameGuidelines': identityMessages.usernameGuidelines,
  'error.rateLimited': loginMessages.rateLimited,
  'error.unknown': loginMessages.unknown,
  'error.contactUnavailable': factorMessages.contactNotUsable,
  'page.somethingWentWrong': 'Something went wrong',
  'page.cantComplete': "Sorry, we can't complete this action right now. Please try again.",
  'page.supportHours': 'If the problem continues, call us Monday-Friday, 8 a.m.-6 p.m. ET.',
  'page.backToLogin': 'Back to log in',
  'page.cancel': 'Cancel',
  'page.loading': 'Loading…',
  'page.errorPrefix': 'Error:',
  'page.doneLogin': "You're signed in.",
  'page.doneStepUp': factorMessages.factorVerified,
} as const;

export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, string>;
