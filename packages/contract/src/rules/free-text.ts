/**
 * Portal spec §5: 'A blocked-characters pattern exists for input (characters # & * { } [ ]).
 * Where it applies: not shown.' It applies where a customer types free text that we keep and show
 * again: the name of an authenticator app (docs/decisions/045b-declared-spec-points.md). Usernames,
 * passwords and codes have rules of their own that already refuse these characters.
 */
export const blockedCharacters = /[#&*{}[\]]/;

/** The characters, as the messages list them. */
export const blockedCharactersList = '# & * { } [ ]';

/** Does the text hold one of the blocked characters? */
export const hasBlockedCharacters = (text: string): boolean => blockedCharacters.test(text);

/**
 * Widget spec §5: 'A national-ID helper exists: 9 digits after removing dashes; masking shows only
 * the last 3 characters. Its use: not shown.' No screen of ours asks for a national id, so nothing
 * calls it yet; it is here, once, for the first that does (decision 045b).
 */
export const nationalId = {
  /** Nine digits once the dashes are removed ('123-45-6789', '123456789'). */
  valid(value: string): boolean {
    return /^\d{9}$/.test(value.replace(/-/g, ''));
  },
  /** Every character but the last 3 masked: '123-45-6789' -> 'XXXXXX789' (dashes removed first). */
  mask(value: string): string {
    const digits = value.replace(/-/g, '');
    return 'X'.repeat(Math.max(0, digits.length - 3)) + digits.slice(-3);
  },
};
