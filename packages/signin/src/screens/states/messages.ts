import { identityMessages, loginMessages } from '@gatehouse/contract/client';
import { translator } from '../../messages/index.ts';

/** Account-state pages (widget spec §2, §8); headings not quoted are ours. Loaded with these screens, not on the login route. */
const stateTexts = {
  'page.blockedHeading': 'Your account has been blocked',
  'page.blockedBody': 'Sorry, your account has been blocked for security reasons. Call us so we can help.',
  'page.callUs': 'Call {0}',
  'page.lockedHeading': 'Your account has been locked',
  'page.lockedBody': loginMessages.blockedForReset,
  'page.resetPassword': 'Reset password',
  'page.expiredHeading': 'You must create a new password',
  'page.expiredBody': loginMessages.passwordExpired,
  'page.rejectHeading': 'We were unable to log you in',
  'page.prohibitedHeading': identityMessages.prohibitedLocation,
  'page.prohibitedBody': 'This service is unavailable in your current location.',
  'page.forcedHeading': 'Update your username',
  'page.forcedBody': 'You need to update your username before you can continue.',
  'page.updateUsername': 'Update username',
  'page.totpBlockHeading': 'We were unable to log you in',
  'page.totpBlockBody':
    'Sorry, your account has been temporarily blocked due to too many attempts. Please try again 5 minutes from the time you first saw this message.',
  'page.back': 'Back',
  'page.ssoHeading': "We couldn't complete this action",
  'page.ssoBody': loginMessages.noLoginInProgress,
  'page.logoutHeading': loginMessages.loggedOut,
  'page.sessionEnded': loginMessages.sessionExpired,
  'page.signInAgain': 'Sign in again',
  'page.logoutBody': 'Thank you for visiting. You can close this window or log in again.',
} as const;

export type StateTextsKey = keyof typeof stateTexts;

export const tx = translator(stateTexts);

export const isStateKey = (key: string): key is StateTextsKey => key in stateTexts;
