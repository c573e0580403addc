import { type Compiled, defaultLanguage, type Language, loadCatalog, pickLanguage } from '@gatehouse/i18n';
import { setUiTexts } from '@gatehouse/ui';
import type catalog from '../messages/en.json';

/**
 * The console's texts (apps/console/messages/<language>.json, docs/decisions/029-languages.md):
 * one small catalog, all of its groups loaded before the console renders, so nothing shows in
 * another language first. Only the chosen language's file is fetched. `t()` reads the texts of the
 * current language; the service's messages come in it too (api.ts sends it as Accept-Language).
 */
type Groups = typeof catalog;
export type MessageKey = { [G in keyof Groups]: keyof Groups[G] & string }[keyof Groups];

// The components' texts (packages/ui) come with the console's (English is in their bundle).
const loaders = import.meta.glob('../messages/*.json', {
  query: { groups: 'common,signIn,customer,issue,lift,audit', include: '../../../packages/ui/messages:ui' },
  import: 'default',
});

let current: Language | undefined;
/** The language asked for last: a load that lands after a later one's is dropped. */
let latest: Language | undefined;
let texts: Partial<Compiled<MessageKey>> = {};
let dates: Intl.DateTimeFormat | undefined;
/** As `toLocaleString()` shows an instant: numeric date, time with seconds, in the browser's zone. */
const dateFields: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

/** A text, its `{0}` placeholders filled; its key until the texts are in. */
export function t(key: MessageKey, ...args: Array<string | number>): string {
  const message = texts[key];
  return message ? message(args) : key;
}

/** Whether the catalog has a text for a key the service names (an audit event, say). */
export const hasText = (key: string): key is MessageKey => key in texts;

/** The keys under a prefix, in the catalog's order (`audit.event.` lists the audit events it names). */
export const keysWith = (prefix: string): MessageKey[] =>
  (Object.keys(texts) as MessageKey[]).filter((key) => key.startsWith(prefix));

/** The language whose texts are current (none before the first load). */
export const textsLanguage = (): Language | undefined => current;

/** The browser's preferred languages pick the console's (`es-MX` picks `es`); English when none is shipped. */
export const browserLanguage = (candidates: readonly string[] = globalThis.navigator?.languages ?? []) =>
  pickLanguage(candidates);

/**
 * The locale for dates and times: the browser's first tag of the chosen language (`en-GB` keeps
 * its day-month order in English), else the language itself.
 */
function dateLocale(language: Language, candidates: readonly string[]): string {
  for (const candidate of candidates) {
    if (candidate.split(/[-_]/)[0]?.toLowerCase() !== language) continue;
    try {
      return Intl.DateTimeFormat.supportedLocalesOf(candidate)[0] ?? language;
    } catch {
      // A malformed tag: the next one.
    }
  }
  return language;
}

/** An instant of the service (ISO 8601) as a date and time in the console's language. */
export function dateTime(iso: string): string {
  dates ??= new Intl.DateTimeFormat(current ?? defaultLanguage, dateFields);
  return dates.format(new Date(iso));
}

/**
 * Makes `language` current once its texts are in; the last language asked for wins a race.
 * `candidates` are the browser's languages, for the date format's region.
 */
export async function loadTexts(
  language: Language,
  candidates: readonly string[] = globalThis.navigator?.languages ?? [],
): Promise<void> {
  latest = language;
  const loaded = await loadCatalog<MessageKey>(loaders, language);
  if (latest !== language) return;
  texts = loaded;
  current = language;
  setUiTexts((key) => texts[`ui.${key}` as MessageKey]?.());
  dates = new Intl.DateTimeFormat(dateLocale(language, candidates), dateFields);
}
