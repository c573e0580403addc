/** Digit groups of the masked types: ssn 123-45-6789, zip 12345 or 12345-6789. */
export const maskGroups = { ssn: [3, 2, 4], zip: [5, 4] } as const;
export type MaskedType = keyof typeof maskGroups;

/** Keeps the digits of `value`, at most the total of `groups`, joined by hyphens per group. */
export function maskDigits(value: string, groups: readonly number[]): string {
  const max = groups.reduce((a, b) => a + b, 0);
  const digits = value.replace(/\D/g, '').slice(0, max);
  const parts: string[] = [];
  let at = 0;
  for (const length of groups) {
    const part = digits.slice(at, at + length);
    if (part === '') break;
    parts.push(part);
    at += length;
  }
  return parts.join('-');
}

/** HTML pattern attributes for the masked types. */
export const maskPatterns: Record<MaskedType, string> = {
  ssn: '[0-9]{3}-[0-9]{2}-[0-9]{4}',
  zip: '[0-9]{5}(-[0-9]{4})?',
};
