import {
  type CatalogLoaders,
  type Compiled,
  defaultLanguage,
  type Language,
  loadCatalog,
  pickLanguage,
} from '@gatehouse/i18n';
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

const loaders: Record<Group, CatalogLoaders> = {
  // The components' texts (packages/ui) come with the start page's (English is in their bundle).
  device: import.meta.glob('../../messages/*.json', {
    query: { groups: 'device', include: '../../../packages/ui/messages:ui' },
    import: 'default',
  }),
  add: import.meta.glob('../../messages/*.json', { query: { groups: 'add' }, import: 'default' }),
  codes: import.meta.glob('../../messages/*.json', { query: { groups: 'codes' }, import: 'default' }),
};
const pageGroups = Object.keys(loaders).filter((g): g is PageGroup => g !== 'device');

let current: Language | undefined;
/** Each loaded group's texts and their language. */
const loaded = new Map<Group, { language: Language; texts: Partial<Compiled<AnyKey>> }>();
/** The latest loadTexts() wins when two overlap. */
let generation = 0;

const text = (key: AnyKey, args: Args): string => {
  for (const { texts } of loaded.values()) {
    const message = texts[key];
    if (message) return message(args);
  }
  return key;
};

/** A text of the shell or the start page, its `{0}` placeholders filled; the key itself when missing. */
export function t(key: MessageKey, ...args: Args): string {
  return text(key, args);
}

/** An on-demand page's own keys (its group of the catalog), the same filling. */
export function translator<K extends AnyKey>() {
  return (key: K, ...args: Args): string => text(key, args);
}

/** Whether the loaded texts have this key (a message key from the service's outcome tables). */
export const hasText = (key: string): boolean => [...loaded.values()].some(({ texts }) => key in texts);

/** The language whose texts are current (none before the first load). */
export const textsLanguage = (): Language | undefined => current;

/** The browser's preferred languages choose the app's language; English when none is shipped. */
export const browserLanguage = (): Language => pickLanguage(globalThis.navigator?.languages ?? []);

/**
 * The locale for dates and times: the browser's own tag for the page's language (`es-MX`, `en-GB`:
 * the region's date order), else the language itself.
 */
export function textsLocale(): string {
  const language = current ?? defaultLanguage;
  const own = (globalThis.navigator?.languages ?? []).find(
    (tag) => tag.split(/[-_]/)[0]?.toLowerCase() === language,
  );
  return own ?? language;
}

const fetchGroup = async (group: Group, language: Language) =>
  [group, await loadCatalog<AnyKey>(loaders[group], language)] as const;

/**
 * Makes `language` current: the start page's texts, and the texts of every page already loaded in
 * another language. Resolves once `t()` reads them; they all change together.
 */
export async function loadTexts(language: Language): Promise<void> {
  const mine = ++generation;
  if (language === current) return;
  const stale = (have: readonly Group[] = []) =>
    pageGroups.filter((g) => !have.includes(g) && loaded.has(g) && loaded.get(g)?.language !== language);
  let fetched = await Promise.all(['device' as Group, ...stale()].map((g) => fetchGroup(g, language)));
  // A page's texts of another language may have landed meanwhile: this language's, then.
  const late = stale(fetched.map(([g]) => g));
  if (late.length) fetched = [...fetched, ...(await Promise.all(late.map((g) => fetchGroup(g, language))))];
  if (mine !== generation) return;
  for (const [group, texts] of fetched) loaded.set(group, { language, texts });
  current = language;
  setUiTexts((key) => loaded.get('device')?.texts[`ui.${key}` as AnyKey]?.());
}

/** An on-demand page's texts in the current language, loaded with the page's chunk. */
export async function loadPageTexts(group: PageGroup): Promise<void> {
  const language = current ?? defaultLanguage;
  if (loaded.get(group)?.language === language) return;
  const [, texts] = await fetchGroup(group, language);
  // The language changed meanwhile: the new one's.
  if (language !== (current ?? defaultLanguage)) return loadPageTexts(group);
  loaded.set(group, { language, texts });
}
