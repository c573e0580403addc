import { type CatalogLoaders, defaultLanguage, type Language, localeOf, textStore } from '@gatehouse/i18n';
import { setUiTexts } from '@gatehouse/ui';
import type catalog from '../../messages/en.json';

/**
 * The device app's texts (apps/device/messages/<language>.json, docs/decisions/029-languages.md):
 * the group `device` (the shell, the start page and what every page shares) loads before the app
 * renders; the on-demand pages' groups (`add`, `codes`) load with their chunk. Only the chosen
 * language's file is fetched. `t()` reads the texts of the current language.
 */
type Groups = typeof catalog;
type Group = keyof Groups;
type KeyOf<G extends Group> = keyof Groups[G] & string;
export type MessageKey = KeyOf<'device'>;
export type PageGroup = Exclude<Group, 'device'>;
export type AddKey = KeyOf<'add'>;
export type CodesKey = KeyOf<'codes'>;
type AnyKey = { [G in Group]: KeyOf<G> }[Group];
type Args = Array<string | number>;

const store = textStore<AnyKey, PageGroup>(
  // The components' texts (packages/ui) come with the start page's (English is in their bundle).
  import.meta.glob('../../messages/*.json', {
    query: { groups: 'device', include: '../../../packages/ui/messages:ui' },
    import: 'default',
  }),
);
const pageLoaders: Record<PageGroup, CatalogLoaders> = {
  add: import.meta.glob('../../messages/*.json', { query: { groups: 'add' }, import: 'default' }),
  codes: import.meta.glob('../../messages/*.json', { query: { groups: 'codes' }, import: 'default' }),
};

/** A text of the shell or the start page, its `{0}` placeholders filled; the key itself when missing. */
export const t: (key: MessageKey, ...args: Args) => string = store.t;

/** An on-demand page's own keys (its group of the catalog), the same filling. */
export const translator = <K extends AnyKey>() => store.t as (key: K, ...args: Args) => string;

/** Whether the loaded texts have this key (a message key from the service's outcome tables). */
export const hasText = (key: string): boolean => store.has(key);

/** The language whose texts are current (none before the first load). */
export const textsLanguage = store.language;

/** The browser's preferred languages choose the app's language; English when none is shipped. */
export { browserLanguage } from '@gatehouse/i18n';

/**
 * The locale for dates and times: the browser's own tag for the page's language (`es-MX`, `en-GB`:
 * the region's date order), else the language itself.
 */
export const textsLocale = (): string => localeOf(store.language() ?? defaultLanguage);

/**
 * Makes `language` current: the start page's texts, and the texts of every page already loaded in
 * another language, with the components' texts. Resolves once `t()` reads them; they all change
 * together, and the later of two overlapping calls wins.
 */
export async function loadTexts(language: Language): Promise<void> {
  await store.use(language);
  if (store.language() !== language) return;
  setUiTexts((key, ...args) => store.find(`ui.${key}`, ...args));
}

/** An on-demand page's texts in the current language, loaded with the page's chunk. */
export const loadPageTexts = (group: PageGroup): Promise<void> => store.load(group, pageLoaders[group]);
