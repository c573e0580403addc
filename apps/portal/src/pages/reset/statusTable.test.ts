import { describe, expect, it } from 'vitest';
import { t } from '../../texts.ts';
import { enrollmentRequest, passwordUpdate400, updateBlocked, updateSuccess } from './statusTable.ts';

describe('password update (portal spec §4, §8)', () => {
  it('shows the §8 message for every 400 code, 1488 with the uppercase message', () => {
    const shown = Object.fromEntries(Object.entries(passwordUpdate400).map(([code, key]) => [code, t(key)]));
    expect(shown).toEqual({
      1475: 'Passwords cannot have more than 5 instances of a single number or letter.',
      1472: 'Passwords cannot have more than 5 sequential numbers.',
      1471: 'Password length requirements not met.',
      1491: 'Password does not meet minimum requirements.',
      1487: 'Passwords need at least one number.',
      1488: 'Passwords need at least one uppercase letter.',
      1489: 'Passwords need at least one uppercase letter.',
      1490: 'Passwords need at least one special character.',
      1477: 'Passwords need at least one letter and one number.',
      1486: 'Password is too common.',
      1427: "Passwords cannot contain the user's birth date.",
      1473: "Passwords cannot contain the user's SSN, Tax ID, G number, or username.",
      1474: 'Passwords cannot share more than 5 characters with usernames.',
      1450: 'Your new password cannot match any of your 6 previous passwords. Please try again.',
    });
  });

  it('chooses PUT for 1200, 1203 and 1205, POST with only the password for 1201', () => {
    const input = { username: 'alexdemo1', newPassword: 'Lantern5Orbit' };
    for (const code of [1200, 1203, 1205]) {
      expect(enrollmentRequest(code, input)).toEqual({
        method: 'PUT',
        body: { requestBaseInfo: { sessionTokens: {} }, username: 'alexdemo1', newPassword: 'Lantern5Orbit' },
      });
    }
    expect(enrollmentRequest(1201, input)).toEqual({
      method: 'POST',
      body: { requestBaseInfo: { sessionTokens: {} }, password: 'Lantern5Orbit' },
    });
  });

  it('POSTs username, old and new password otherwise, and only when the initial password is known', () => {
    expect(enrollmentRequest(1401, { username: 'a', newPassword: 'N' })).toBeNull();
    expect(enrollmentRequest(1401, { username: 'a', newPassword: 'N', initialPassword: 'O' })).toEqual({
      method: 'POST',
      body: { requestBaseInfo: { sessionTokens: {} }, username: 'a', oldPassword: 'O', newPassword: 'N' },
    });
  });

  it('treats 1200 and 1201 as success, and blocked or expired as the support message', () => {
    expect([...updateSuccess].sort()).toEqual([1200, 1201]);
    expect(updateBlocked.has(1203) && updateBlocked.has(1205) && updateBlocked.has(1401)).toBe(true);
  });
});
