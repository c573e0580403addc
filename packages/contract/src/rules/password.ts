import { limits } from '../limits.ts';
import { passwordMessages } from '../recovery-messages.ts';
import { serverMessages } from '../server-messages.ts';
import { Status } from '../status.ts';
import { sharesMoreThan } from './username.ts';

/**
 * Password rules, once: the portal's reset screen shows the client rules of portal spec §5 (in
 * that order, with those messages), and the server runs the same rules first, then the rest of its
 * policy (portal spec §2 hint lines, §8 codes, §9 limits).
 */
export const passwordRuleIds = ['length', 'uppercase', 'lowercase', 'number', 'special'] as const;
export type PasswordRuleId = (typeof passwordRuleIds)[number];

export type PasswordRule = { id: PasswordRuleId; met: boolean; message: string };

/** Anything but an ASCII letter or digit: punctuation, whitespace, symbols, the rupee sign, accents. */
export const hasSpecialCharacter = (value: string): boolean => /[^A-Za-z0-9]/.test(value);

/** Each client rule of portal spec §5, in its order, met or not, with its message. */
export function passwordRules(password: string): PasswordRule[] {
  // Length in characters as a person counts them (a surrogate pair is one).
  const length = [...password].length;
  const met: Record<PasswordRuleId, boolean> = {
    length: length >= limits.passwordMin && length <= limits.passwordMax,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    number: /[0-9]/.test(password),
    special: !hasSpecialCharacter(password),
  };
  return passwordRuleIds.map((id) => ({ id, met: met[id], message: passwordMessages[id] }));
}

/**
 * The message the reset screen shows: the first failing client rule, then 'Passwords do not
 * match' when a confirmation is given and differs; null when the password may be submitted.
 */
export function passwordError(password: string, confirmation?: string): string | null {
  const failing = passwordRules(password).find((rule) => !rule.met);
  if (failing) return failing.message;
  if (confirmation !== undefined && confirmation !== password) return passwordMessages.mismatch;
  return null;
}

/** More than `max` (5) of the same letter or digit in a row: 111111, aaaaaa (case-insensitive). */
export function hasRepeatedRun(value: string, max: number = limits.passwordMaxRepeat): boolean {
  let count = 1;
  for (let i = 1; i < value.length; i++) {
    count = value[i]!.toLowerCase() === value[i - 1]!.toLowerCase() ? count + 1 : 1;
    if (count > max) return true;
  }
  return false;
}

/** `run` (5) or more consecutive digits counting up or down by one: 12345, 98765. */
export function hasSequentialDigits(value: string, run: number = limits.passwordSequentialDigits): boolean {
  for (const step of [1, -1]) {
    let count = 1;
    for (let i = 1; i < value.length; i++) {
      const a = value.charCodeAt(i - 1);
      const b = value.charCodeAt(i);
      const digits = a >= 48 && a <= 57 && b >= 48 && b <= 57;
      count = digits && b - a === step ? count + 1 : 1;
      if (count >= run) return true;
    }
  }
  return false;
}

/** The forms of a birth date (YYYY-MM-DD) a password must not contain: YYYYMMDD, MMDDYYYY, DDMMYYYY, MMDDYY. */
export function birthDateForms(birthDate: string): string[] {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthDate);
  if (!match) return [];
  const [, y, m, d] = match as unknown as [string, string, string, string];
  return [`${y}${m}${d}`, `${m}${d}${y}`, `${d}${m}${y}`, `${m}${d}${y.slice(2)}`];
}

export type PasswordPolicyInput = {
  username?: string | null;
  /** YYYY-MM-DD */
  birthDate?: string | null;
  /** SSN, tax id or G number; compared by its digits and letters only. */
  taxId?: string | null;
  /** The common-password list (the server's data file); compared case-insensitively. */
  isCommon?: (lowercased: string) => boolean;
};

/**
 * The server's authoritative check, without the password history (that needs the stored hashes):
 * the first failing rule as a portal spec §8 status code, or 1200.
 *
 * 1471 length, 1489 uppercase, 1488 lowercase, 1487 number, 1490 a special character present (our
 * policy forbids them; the spec's 1490 is reused), 1475 more than 5 of one character in a row,
 * 1472 5 or more sequential digits, 1486 too common, 1427 contains the birth date, 1473 contains
 * the SSN / tax id or the username, 1474 shares 5 or more consecutive characters with the username.
 */
export function passwordPolicyStatus(password: string, input: PasswordPolicyInput = {}): number {
  const rules = Object.fromEntries(passwordRules(password).map((r) => [r.id, r.met])) as Record<
    PasswordRuleId,
    boolean
  >;
  if (!rules.length) return Status.PASSWORD_LENGTH;
  if (!rules.uppercase) return Status.PASSWORD_UPPERCASE;
  if (!rules.lowercase) return Status.PASSWORD_LOWERCASE;
  if (!rules.number) return Status.PASSWORD_NUMBER;
  if (!rules.special) return Status.PASSWORD_SPECIAL;
  if (hasRepeatedRun(password)) return Status.PASSWORD_REPEATS;
  if (hasSequentialDigits(password)) return Status.PASSWORD_SEQUENTIAL;
  const lower = password.toLowerCase();
  if (input.isCommon?.(lower)) return Status.PASSWORD_TOO_COMMON;
  if (input.birthDate && birthDateForms(input.birthDate).some((form) => password.includes(form))) {
    return Status.BIRTH_DATE;
  }
  const taxId = input.taxId?.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  const username = input.username?.trim().toLowerCase();
  if ((taxId && taxId.length >= 4 && lower.includes(taxId)) || (username && lower.includes(username))) {
    return Status.PASSWORD_PERSONAL_DATA;
  }
  if (username && sharesMoreThan(password, username, limits.sharedCharactersMax - 1)) {
    return Status.SHARES_WITH_USERNAME;
  }
  return Status.SUCCESS;
}

/** The message the server sends with each password-policy code (portal spec §8 table). */
export const passwordStatusMessages: Record<number, string> = {
  [Status.PASSWORD_LENGTH]: serverMessages.passwordLength,
  [Status.PASSWORD_UPPERCASE]: serverMessages.passwordUppercase,
  [Status.PASSWORD_LOWERCASE]: serverMessages.passwordLowercase,
  [Status.PASSWORD_NUMBER]: serverMessages.passwordNumber,
  [Status.PASSWORD_SPECIAL]: serverMessages.passwordSpecialForbidden,
  [Status.PASSWORD_REPEATS]: serverMessages.passwordRepeats,
  [Status.PASSWORD_SEQUENTIAL]: serverMessages.passwordSequential,
  [Status.PASSWORD_TOO_COMMON]: serverMessages.passwordTooCommon,
  [Status.BIRTH_DATE]: serverMessages.passwordBirthDate,
  [Status.PASSWORD_PERSONAL_DATA]: serverMessages.passwordPersonalData,
  [Status.SHARES_WITH_USERNAME]: serverMessages.passwordSharesWithUsername,
  [Status.PASSWORD_REUSED]: serverMessages.passwordReused,
  [Status.PASSWORD_LETTER_AND_NUMBER]: serverMessages.passwordLetterAndNumber,
  [Status.LIMIT_REACHED]: serverMessages.passwordMinimum,
};
