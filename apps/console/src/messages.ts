import { defaultLanguage, type Language, localeOf, textStore } from '@gatehouse/i18n';
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

const store = textStore<MessageKey>(
  // The components' texts (packages/ui) come with the console's (English is in their bundle).
  import.meta.glob('../messages/*.json', {
    query: { groups: 'common,signIn,customer,issue,lift,audit', include: '../../../packages/ui/messages:ui' },
    import: 'default',
  }),
);

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
export const t: (key: MessageKey, ...args: Array<string | number>) => string = store.t;

/** Whether the catalog has a text for a key the service names (an audit event, say). */
export const hasText: (key: string) => key is MessageKey = store.has;

/** The keys under a prefix, in the catalog's order (`audit.event.` lists the audit events it names). */
export const keysWith: (prefix: string) => MessageKey[] = store.keys;

/** The language whose texts are current (none before the first load). */
export const textsLanguage = store.language;

/** The browser's preferred languages pick the console's (`es-MX` picks `es`); English when none is shipped. */
export { browserLanguage } from '@gatehouse/i18n';

/** An instant of the service (ISO 8601) as a date and time in the console's language. */
export function dateTime(iso: string): string {
  dates ??= new Intl.DateTimeFormat(store.language() ?? defaultLanguage, dateFields);
  return dates.format(new Date(iso));
}

/**
 * Makes `language` current once its texts are in; the last language asked for wins a race.
 * `candidates` are the browser's languages, for the date format's region (`en-GB` keeps its
 * day-month order in English).
 */
export async function loadTexts(
  language: Language,
  candidates: readonly string[] = globalThis.navigator?.languages ?? [],
): Promise<void> {
  await store.use(language);
  if (store.language() !== language) return;
  setUiTexts((key, ...args) => store.find(`ui.${key}`, ...args));
  dates = new Intl.DateTimeFormat(localeOf(language, candidates), dateFields);
}
