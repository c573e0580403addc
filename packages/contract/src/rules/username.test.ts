import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUsername, hasRepeatRun, hasSequence, sharesMoreThan, usernameStatus } from './username.ts';

describe('username rules (widget spec §5)', () => {
  it('rule 1: 8 to 15 letters and digits only', () => {
    expect(checkUsername('abcxyz7').length).toBe(false);
    expect(checkUsername('harbor77').length).toBe(true);
    expect(checkUsername('harbor77harbor7').length).toBe(true);
    expect(checkUsername('harbor77harbor77').length).toBe(false);
    expect(checkUsername('harbor_77').length).toBe(false);
  });

  it('rule 2: 9 to 11 characters need two letters; under 9 and 12 to 15 pass', () => {
    expect(checkUsername('1234567a').letters).toBe(true);
    expect(checkUsername('a12345678').letters).toBe(false);
    expect(checkUsername('ab1234567').letters).toBe(true);
    expect(checkUsername('a1234567890').letters).toBe(false);
    expect(checkUsername('a12345678901').letters).toBe(true);
  });

  it('rule 3: no 5 identical in a row, no 4-long digit or letter sequences either way', () => {
    expect(hasRepeatRun('harbor1111')).toBe(false);
    expect(hasRepeatRun('harbor11111')).toBe(true);
    expect(hasRepeatRun('hAaaaa')).toBe(true);
    expect(hasSequence('river123x')).toBe(false);
    expect(hasSequence('river1234')).toBe(true);
    expect(hasSequence('river9876')).toBe(true);
    expect(hasSequence('xabcdx')).toBe(true);
    expect(hasSequence('xDCBAx')).toBe(true);
    expect(hasSequence('xabc1x')).toBe(false);
  });

  it('rule 4: at most 5 consecutive characters shared with the password', () => {
    expect(sharesMoreThan('harbor77', 'Harbo1Lights')).toBe(false);
    expect(sharesMoreThan('harbor77', 'Harbor7Lights')).toBe(true);
    expect(checkUsername('harbor77', '').password).toBe(true);
  });

  it('gives the server code of the first failing rule', () => {
    expect(usernameStatus('short1', 'x')).toBe(1481);
    expect(usernameStatus('waytoolongname12', 'x')).toBe(1482);
    expect(usernameStatus('bad name1', 'x')).toBe(1484);
    expect(usernameStatus('123456789', 'x')).toBe(1483);
    expect(usernameStatus('a12345678', 'x')).toBe(1483);
    expect(usernameStatus('riverabcd', 'x')).toBe(1485);
    expect(usernameStatus('harbor77', 'Harbor7Lights')).toBe(1485);
    expect(usernameStatus('harbor77', 'Maple4Canyon')).toBe(1200);
    expect(usernameStatus('13579246', 'Maple4Canyon')).toBe(1200);
  });

  it('the checklist and the server agree: every checklist pass is a 1200', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.stringMatching(/^[A-Za-z0-9_]{0,18}$/), fc.stringMatching(/^[0-9]{7,12}$/)),
        fc.stringMatching(/^[A-Za-z0-9]{8,12}$/),
        (u, p) => {
          const rules = checkUsername(u, p);
          const allMet = Object.values(rules).every(Boolean);
          expect(usernameStatus(u, p) === 1200, JSON.stringify([u, p])).toBe(allMet);
        },
      ),
    );
  });
});
