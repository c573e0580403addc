import { describe, expect, test } from 'vitest';
import { codeAt, findConsecutive, findStep, parametersOf, timeStep } from './app-codes.ts';

/** The standards' vectors (craft.md): RFC 4226 Appendix D and RFC 6238 Appendix B, through otpauth. */

const ascii = (text: string) => new TextEncoder().encode(text);
const seed20 = ascii('12345678901234567890');
const seed32 = ascii('12345678901234567890123456789012');
const seed64 = ascii('1234567890123456789012345678901234567890123456789012345678901234');

describe('RFC 4226 Appendix D: HOTP of the 20-byte ASCII secret, counts 0-9', () => {
  const expected = [
    '755224',
    '287082',
    '359152',
    '969429',
    '338314',
    '254676',
    '287922',
    '162583',
    '399871',
    '520489',
  ];
  test.each(expected.map((code, count) => [count, code]))('count %i: %s', (count, code) => {
    expect(codeAt(seed20, count, { algorithm: 'SHA1', digits: 6 })).toBe(code);
    // Found back in a window around it, at its own count.
    expect(findStep(seed20, code, 5, 5, { algorithm: 'SHA1', digits: 6 })).toBe(count);
  });
});

describe('RFC 6238 Appendix B: TOTP, 30 s steps, 8 digits', () => {
  const rows: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  test.each(rows)('T = %i s: SHA-1 %s, SHA-256 %s, SHA-512 %s', (seconds, sha1, sha256, sha512) => {
    const step = timeStep(new Date(seconds * 1000), 30);
    expect(codeAt(seed20, step, { algorithm: 'SHA1', digits: 8 })).toBe(sha1);
    expect(codeAt(seed32, step, { algorithm: 'SHA256', digits: 8 })).toBe(sha256);
    expect(codeAt(seed64, step, { algorithm: 'SHA512', digits: 8 })).toBe(sha512);
    // The service's codes are the same computation cut to 6 digits (design: SHA-1, 6 digits, 30 s).
    expect(codeAt(seed20, step, { algorithm: 'SHA1', digits: 6 })).toBe(sha1.slice(2));
  });
});

describe('windows', () => {
  const p = { algorithm: 'SHA1', digits: 6 } as const;
  test('findStep: within the window either way, the nearest first; outside it null', () => {
    const center = 1000;
    for (const k of [-1, 0, 1])
      expect(findStep(seed20, codeAt(seed20, center + k, p), center, 1, p)).toBe(center + k);
    for (const k of [-2, 2]) expect(findStep(seed20, codeAt(seed20, center + k, p), center, 1, p)).toBeNull();
    expect(findStep(seed20, '12345', center, 1, p)).toBeNull();
  });
  test('findConsecutive: two consecutive codes inside the look-ahead window; not one apart by two, not outside', () => {
    const center = 50_000_000;
    const at = (i: number) => codeAt(seed20, i, p);
    expect(findConsecutive(seed20, at(center + 37), at(center + 38), center, 100, p)).toBe(center + 37);
    expect(findConsecutive(seed20, at(center - 80), at(center - 79), center, 100, p)).toBe(center - 80);
    expect(findConsecutive(seed20, at(center + 37), at(center + 39), center, 100, p)).toBeNull();
    expect(findConsecutive(seed20, at(center + 38), at(center + 37), center, 100, p)).toBeNull();
    expect(findConsecutive(seed20, at(center + 101), at(center + 102), center, 100, p)).toBeNull();
  });
  test('parameters: the design defaults, and only sane values from a credential', () => {
    expect(parametersOf({ data: {} })).toEqual({ algorithm: 'SHA1', digits: 6, period: 30 });
    expect(parametersOf({ data: { algorithm: 'MD5', digits: 12, period: 1 } })).toEqual({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    expect(parametersOf({ data: { algorithm: 'SHA256', digits: 8, period: 60 } })).toEqual({
      algorithm: 'SHA256',
      digits: 8,
      period: 60,
    });
  });
});
