import { describe, expect, it } from 'vitest';
import { authenticatorName } from '../security.ts';
import { blockedCharactersList, hasBlockedCharacters, nationalId } from './free-text.ts';

describe('blocked characters (portal spec §5: # & * { } [ ])', () => {
  it.each(['#', '&', '*', '{', '}', '[', ']'])('refuses %s anywhere in the text', (c) => {
    expect(hasBlockedCharacters(`Work${c}phone`)).toBe(true);
    expect(authenticatorName.safeParse(`Work ${c} phone`).success).toBe(false);
  });

  it('lets every other character through: letters of any language, digits, spaces, punctuation', () => {
    for (const name of ["Ana's phone", 'Teléfono (trabajo) - 2', 'Work phone. 100%!', 'Çağrı @ home']) {
      expect(hasBlockedCharacters(name), name).toBe(false);
      expect(authenticatorName.safeParse(name).success, name).toBe(true);
    }
    expect(blockedCharactersList.split(' ').every((c) => hasBlockedCharacters(c))).toBe(true);
  });
});

describe('national-ID helper (widget spec §5)', () => {
  it('is 9 digits once the dashes are removed', () => {
    expect(nationalId.valid('123-45-6789')).toBe(true);
    expect(nationalId.valid('123456789')).toBe(true);
    expect(nationalId.valid('12-34-5678')).toBe(false);
    expect(nationalId.valid('1234567890')).toBe(false);
    expect(nationalId.valid('123 45 6789')).toBe(false);
    expect(nationalId.valid('12345678a')).toBe(false);
  });

  it('masks all but the last 3 characters', () => {
    expect(nationalId.mask('123-45-6789')).toBe('XXXXXX789');
    expect(nationalId.mask('123456789')).toBe('XXXXXX789');
    expect(nationalId.mask('12')).toBe('12');
  });
});
