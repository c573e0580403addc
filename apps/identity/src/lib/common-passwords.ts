import { readFileSync } from 'node:fs';

let list: Set<string> | undefined;

/**
 * The common-password list shipped in `src/data/common-passwords.txt` (lower-cased, one a line,
 * `#` lines are comments), read once. Compared case-insensitively: the caller lower-cases.
 */
export function isCommonPassword(lowercased: string): boolean {
  list ??= new Set(
    readFileSync(new URL('../data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line && !line.startsWith('#')),
  );
  return list.has(lowercased);
}

/** How many entries the list holds (documentation and tests). */
export function commonPasswordCount(): number {
  isCommonPassword('');
  return list!.size;
}
