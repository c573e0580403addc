import { identityMessages } from '@gatehouse/contract/client';
import { translator } from '../../messages/index.ts';

/** Change username and confirmation (widget spec §2, §5, §8); heading, button and rule 3 are ours. Loaded with these screens, not on the login route. */
const usernameTexts = {
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
  'username.rule.password': identityMessages.usernameSharesWithPassword,
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
  'username.confirmHeading': identityMessages.usernameChanged,
  'username.confirmValue': 'Your new username is {0}.',
  'username.confirmBody': 'Use your new username the next time you log in.',
  'username.continue': 'Continue',
} as const;

export type UsernameTextsKey = keyof typeof usernameTexts;

export const tx = translator(usernameTexts);
