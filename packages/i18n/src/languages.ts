/**
 * The languages Gatehouse ships (design.md, policies: English and Spanish). Adding one is a catalog
 * file per app and one for the service (docs/decisions/029-languages.md), plus its code here.
 * English is the fallback: the specs quote their texts in English.
 */
export const languages = ['en', 'es'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

/** Each language's name in itself, for a language switch. */
export const languageNames: Record<Language, string> = { en: 'English', es: 'Español' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * The first shipped language among the candidates, in order (a host's configured language, then
 * the browser's preferred ones; `es-MX` picks `es`), or English. A BCP 47 tag's primary subtag
 * is all that is compared: the catalogs are per language, not per region.
 */
export function pickLanguage(candidates: ReadonlyArray<string | null | undefined>): Language {
  for (const candidate of candidates) {
    const primary = candidate?.trim().split(/[-_]/)[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return defaultLanguage;
}

/**
 * An Accept-Language header's languages, highest quality first (RFC 9110 §12.5.4); `q=0` and
 * malformed entries are left out. Stable for equal qualities, so the header's order decides.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$|^\*$/.test(entry.tag))
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The first of the browser's preferred languages that is shipped, English when none is. */
export const browserLanguage = (
  preferred: ReadonlyArray<string> = globalThis.navigator?.languages ?? [],
): Language => pickLanguage(preferred);

/**
 * The locale for dates, times and numbers in `language` (Intl): the browser's own variant of it
 * when the browser prefers one (en-GB dates for a British browser showing English), else the
 * language itself. A tag Intl does not take is passed over.
 */
export function localeOf(
  language: Language,
  preferred: ReadonlyArray<string> = globalThis.navigator?.languages ?? [],
): string {
  for (const tag of preferred) {
    if (tag.split(/[-_]/)[0]?.toLowerCase() !== language) continue;
    try {
      return Intl.DateTimeFormat.supportedLocalesOf(tag)[0] ?? language;
    } catch {
      // A malformed tag: the next one.
    }
  }
  return language;
}
