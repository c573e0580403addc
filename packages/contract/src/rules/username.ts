import { limits } from '../limits.ts';
import { Status } from '../status.ts';

/**
 * Username rules of widget spec §5, once: the live checklist on screen and the server's
 * authoritative check both call these.
 */
export const usernameRuleIds = ['length', 'letters', 'sequences', 'password'] as const;
export type UsernameRuleId = (typeof usernameRuleIds)[number];

const letters = (s: string) => s.replace(/[^A-Za-z]/g, '').length;

/** 5 or more of the same letter or digit in a row. */
export function hasRepeatRun(value: string, run = limits.usernameMaxRepeat + 1): boolean {
  let count = 1;
  for (let i = 1; i < value.length; i++) {
    count = value[i]!.toLowerCase() === value[i - 1]!.toLowerCase() ? count + 1 : 1;
    if (count >= run) return true;
  }
  return false;
}

/** 4 or more consecutive digits or alphabet letters, ascending or descending (1234, 9876, abcd, DCBA). */
export function hasSequence(value: string, run = 4): boolean {
  const chars = value.toLowerCase();
  const kind = (c: string) => (/[0-9]/.test(c) ? 'd' : /[a-z]/.test(c) ? 'a' : 'x');
  for (const step of [1, -1]) {
    let count = 1;
    for (let i = 1; i < chars.length; i++) {
      const a = chars[i - 1]!;
      const b = chars[i]!;
      const consecutive =
        kind(a) !== 'x' && kind(a) === kind(b) && b.charCodeAt(0) - a.charCodeAt(0) === step;
      count = consecutive ? count + 1 : 1;
      if (count >= run) return true;
    }
  }
  return false;
}

/** True when the two share more than `max` consecutive characters (case-insensitive). */
export function sharesMoreThan(a: string, b: string, max: number = limits.sharedCharactersMax): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const size = max + 1;
  if (x.length < size || y.length < size) return false;
  for (let i = 0; i + size <= x.length; i++) if (y.includes(x.slice(i, i + size))) return true;
  return false;
}

/** Each checklist rule: met or not, for the username typed (and the password, for rule 4). */
export function checkUsername(username: string, password = ''): Record<UsernameRuleId, boolean> {
  const n = username.length;
  return {
    length: n >= limits.usernameMin && n <= limits.usernameMax && /^[A-Za-z0-9]+$/.test(username),
    letters:
      n >= limits.usernameLongThreshold ||
      n < limits.usernameShortThreshold ||
      letters(username.replace(/[^A-Za-z0-9]/g, '')) >= limits.usernameMinLetters,
    sequences: n > 0 && !hasRepeatRun(username) && !hasSequence(username),
    password: password === '' || !sharesMoreThan(username, password),
  };
}

/**
 * The server's verdict: the first failing rule as a status code of widget spec §4
 * (1481 too short, 1482 too long, 1484 invalid character, 1483 no letters, 1485 guidelines).
 */
export function usernameStatus(username: string, password: string): number {
  if (username.length < limits.usernameMin) return Status.USERNAME_MIN_LENGTH;
  if (username.length > limits.usernameMax) return Status.USERNAME_MAX_LENGTH;
  if (!/^[A-Za-z0-9]+$/.test(username)) return Status.USERNAME_INVALID_CHARACTER;
  const rules = checkUsername(username, password);
  if (!rules.letters) return Status.USERNAME_NO_ALPHA;
  if (!rules.sequences || !rules.password) return Status.USERNAME_GUIDELINES;
  return Status.SUCCESS;
}
