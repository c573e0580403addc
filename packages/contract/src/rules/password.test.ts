import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serverMessages } from '../server-messages.ts';
import {
  birthDateForms,
  hasRepeatedRun,
  hasSequentialDigits,
  passwordError,
  passwordPolicyStatus,
  passwordRules,
  passwordStatusMessages,
} from './password.ts';

const common = new Set(['password1', 'qwerty123']);
const isCommon = (p: string) => common.has(p);

describe('password client rules (portal spec §5)', () => {
  it('gives the first failing rule in the spec order with its exact message', () => {
    expect(passwordError('Ab1')).toBe('Password must be between 8 and 20 characters');
    expect(passwordError('Ab1Ab1Ab1Ab1Ab1Ab1Ab1')).toBe('Password must be between 8 and 20 characters');
    // Length comes first even when everything else fails too.
    expect(passwordError('a b')).toBe('Password must be between 8 and 20 characters');
    expect(passwordError('harbor7lights')).toBe('Password must contain at least one uppercase letter');
    expect(passwordError('HARBOR7LIGHTS')).toBe('Password must contain at least one lowercase letter');
    expect(passwordError('HarborLights')).toBe('Password must contain at least one number');
    expect(passwordError('Harbor7Lights!')).toBe('Password cannot contain any special characters');
    expect(passwordError('Harbor7 Lights')).toBe('Password cannot contain any special characters');
    expect(passwordError('Harbor7Lights₹')).toBe('Password cannot contain any special characters');
    expect(passwordError('Harbor7Lightsé')).toBe('Password cannot contain any special characters');
    expect(passwordError('Harbor7Lights')).toBeNull();
  });

  it('8 and 20 characters are the bounds', () => {
    expect(passwordError('Abcdef12')).toBeNull();
    expect(passwordError('Abcdef1')).toBe('Password must be between 8 and 20 characters');
    expect(passwordError('Abcdefgh1Abcdefgh1Ab')).toBeNull();
    expect(passwordError('Abcdefgh1Abcdefgh1Abc')).toBe('Password must be between 8 and 20 characters');
  });

  it('the confirmation must match, after the rules', () => {
    expect(passwordError('Harbor7Lights', 'Harbor7Lights')).toBeNull();
    expect(passwordError('Harbor7Lights', 'Harbor7lights')).toBe('Passwords do not match');
    expect(passwordError('harbor7', 'other')).toBe('Password must be between 8 and 20 characters');
  });

  it('lists every rule with whether it is met', () => {
    expect(passwordRules('harbor lights')).toEqual([
      { id: 'length', met: true, message: 'Password must be between 8 and 20 characters' },
      { id: 'uppercase', met: false, message: 'Password must contain at least one uppercase letter' },
      { id: 'lowercase', met: true, message: 'Password must contain at least one lowercase letter' },
      { id: 'number', met: false, message: 'Password must contain at least one number' },
      { id: 'special', met: false, message: 'Password cannot contain any special characters' },
    ]);
  });
});

describe('password server policy (portal spec §2 hints, §8 codes)', () => {
  it('the client rules as codes: 1471, 1489, 1488, 1487, 1490', () => {
    expect(passwordPolicyStatus('Ab1')).toBe(1471);
    expect(passwordPolicyStatus('harbor7lights')).toBe(1489);
    expect(passwordPolicyStatus('HARBOR7LIGHTS')).toBe(1488);
    expect(passwordPolicyStatus('HarborLights')).toBe(1487);
    expect(passwordPolicyStatus('Harbor7Lights!')).toBe(1490);
    expect(passwordPolicyStatus('Harbor7 Lights')).toBe(1490);
    expect(passwordPolicyStatus('Harbor7Lights')).toBe(1200);
  });

  it('1475: more than 5 of one character in a row (111111); 5 is allowed', () => {
    expect(hasRepeatedRun('Harbor11111')).toBe(false);
    expect(hasRepeatedRun('Harbor111111')).toBe(true);
    expect(hasRepeatedRun('HAaaaaa1')).toBe(true);
    expect(passwordPolicyStatus('Harbor111111')).toBe(1475);
    expect(passwordPolicyStatus('Harbor11111')).toBe(1200);
    expect(passwordPolicyStatus('Harboooooor7')).toBe(1475);
  });

  it('1472: 5 or more sequential digits either way (12345, 98765); 4 are allowed', () => {
    expect(hasSequentialDigits('Harbor1234')).toBe(false);
    expect(hasSequentialDigits('Harbor12345')).toBe(true);
    expect(hasSequentialDigits('Harbor98765x')).toBe(true);
    expect(hasSequentialDigits('Harbor12321')).toBe(false);
    expect(passwordPolicyStatus('Harbor12345')).toBe(1472);
    expect(passwordPolicyStatus('Harbor54321')).toBe(1472);
    expect(passwordPolicyStatus('Harbor1234')).toBe(1200);
  });

  it('1486: on the common list, compared case-insensitively', () => {
    expect(passwordPolicyStatus('Password1', { isCommon })).toBe(1486);
    expect(passwordPolicyStatus('QWERTY123x', { isCommon })).toBe(1200);
    expect(passwordPolicyStatus('QwErTy123', { isCommon })).toBe(1486);
  });

  it('1427: contains the birth date as YYYYMMDD, MMDDYYYY, DDMMYYYY or MMDDYY', () => {
    expect(birthDateForms('1985-07-24')).toEqual(['19850724', '07241985', '24071985', '072485']);
    const birthDate = '1985-07-24';
    for (const pw of ['Harbor19850724', 'Harbor07241985', 'Hb24071985x', 'Harbor072485']) {
      expect(passwordPolicyStatus(pw, { birthDate }), pw).toBe(1427);
    }
    expect(passwordPolicyStatus('Harbor1985x', { birthDate })).toBe(1200);
    expect(passwordPolicyStatus('Harbor072485', {})).toBe(1200);
  });

  it('1473: contains the SSN / tax id or the username (case-insensitive)', () => {
    expect(passwordPolicyStatus('Harbor918273645', { taxId: '918-27-3645' })).toBe(1473);
    expect(passwordPolicyStatus('Harbor91827364', { taxId: '918-27-3645' })).toBe(1200);
    expect(passwordPolicyStatus('XAlexDemo1x', { username: 'alexdemo1' })).toBe(1473);
  });

  it('1474: shares 5 or more consecutive characters with the username; 4 are allowed', () => {
    expect(passwordPolicyStatus('Maple4Alexd', { username: 'alexdemo1' })).toBe(1474);
    expect(passwordPolicyStatus('Maple4Alex', { username: 'alexdemo1' })).toBe(1200);
    expect(passwordPolicyStatus('DEMO1Harbor', { username: 'alexdemo1' })).toBe(1474);
  });

  it('every code the policy gives has its §8 message', () => {
    expect(passwordStatusMessages[1450]).toBe(
      'Your new password cannot match any of your 6 previous passwords. Please try again.',
    );
    expect(passwordStatusMessages[1475]).toBe(
      'Passwords cannot have more than 5 instances of a single number or letter.',
    );
    expect(passwordStatusMessages[1490]).toBe('Password cannot contain any special characters');
    expect(serverMessages.passwordNeedsSpecial).toBe('Passwords need at least one special character.');
    expect(passwordStatusMessages).toMatchObject({
      1471: 'Password length requirements not met.',
      1472: 'Passwords cannot have more than 5 sequential numbers.',
      1473: "Passwords cannot contain the user's SSN, Tax ID, G number, or username.",
      1474: 'Passwords cannot share more than 5 characters with usernames.',
      1486: 'Password is too common.',
      1487: 'Passwords need at least one number.',
      1488: 'Passwords need at least one lowercase letter.',
      1489: 'Passwords need at least one uppercase letter.',
      1427: "Passwords cannot contain the user's birth date.",
      1477: 'Passwords need at least one letter and one number.',
      1491: 'Password does not meet minimum requirements.',
    });
  });

  it('the screen and the server agree: the client rules pass exactly when the server passes its first five', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 24 }),
          fc.stringMatching(/^[A-Za-z0-9]{6,22}$/),
          fc.stringMatching(/^[A-Za-z0-9 !@#₹é]{6,22}$/),
        ),
        (pw) => {
          const client = passwordError(pw) === null;
          const code = passwordPolicyStatus(pw);
          const clientCodes = [1471, 1489, 1488, 1487, 1490];
          expect(client, JSON.stringify(pw)).toBe(!clientCodes.includes(code));
        },
      ),
    );
  });

  it('any special character fails, whatever else the password is', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z][a-z]{3}[0-9]{2}$/),
        fc.constantFrom(' ', '\t', '!', '#', '&', '*', '{', '₹', '€', 'ß', '_', '-'),
        (base, special) => {
          expect(passwordPolicyStatus(`${base}${special}x`)).toBe(1490);
        },
      ),
    );
  });
});
