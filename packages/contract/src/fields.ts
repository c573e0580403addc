import { z } from 'zod';
import { limits } from './limits.ts';

/**
 * The text fields every request schema builds on, in a module that reads no other schema: a
 * factor's contract file (factors/<key>.ts) builds its call schemas with them while schemas.ts
 * reads the factors' authenticator types.
 */

/** The problem named when a text field holds U+0000, which no field accepts and PostgreSQL cannot store. */
export const nulCharacterMessage = 'must not contain the NUL character (U+0000)';
/**
 * The problem named when a text field holds a lone surrogate (`\ud800` with no partner): no
 * character at all, which UTF-8 cannot encode and PostgreSQL's JSON refuses (issue 22 finding 8).
 */
export const loneSurrogateMessage = 'must not contain a lone surrogate (U+D800-U+DFFF without its pair)';
/** A UTF-16 surrogate with no partner: in a `u` regular expression a pair is one code point. */
const loneSurrogate = /[\uD800-\uDFFF]/u;
/**
 * Every text field of a request: a string without U+0000 and without a lone surrogate. The
 * refinements come first, so they are reported before a length problem:
 * `The request is not valid: username: must not contain…`.
 */
export const text = () =>
  z
    .string()
    .refine((value) => !value.includes('\u0000'), nulCharacterMessage)
    .refine((value) => !loneSurrogate.test(value), loneSurrogateMessage);

export const securityCode = text().regex(
  new RegExp(`^\\d{${limits.codeLength}}$`),
  `securityCode must be ${limits.codeLength} digits`,
);
