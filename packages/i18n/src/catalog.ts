import { defaultLanguage, type Language } from './languages.ts';

/**
 * A compiled catalog: each key a function of the message's arguments (ICU MessageFormat compiled
 * at build time by @messageformat/core, docs/decisions/029-languages.md), so the browser carries
 * no parser. Arguments are `{0}`-style positions (craft.md) or names.
 */
export type Args = ReadonlyArray<string | number> | Readonly<Record<string, string | number>>;
export type Compiled<K extends string = string> = Record<K, (args?: Args) => string>;

/**
 * `import.meta.glob('…/messages/*.json', { query: { groups: '…' }, import: 'default' })`: one
 * loader per language file. New language files are picked up without a code change.
 */
export type CatalogLoaders = Record<string, () => Promise<unknown>>;

/** The language a glob's path names (`…/messages/es.json?groups=x` -> `es`). */
function languageOf(path: string): string | undefined {
  return /\/([a-z]{2,3}(?:-[A-Za-z0-9]+)*)\.json(?:\?.*)?$/.exec(path)?.[1];
}

/** Loads the catalog of `language` from a glob's loaders, English when it has none. */
export async function loadCatalog<K extends string>(
  loaders: CatalogLoaders,
  language: Language,
): Promise<Compiled<K>> {
  const byLanguage = new Map(Object.entries(loaders).map(([path, load]) => [languageOf(path), load]));
  const load = byLanguage.get(language) ?? byLanguage.get(defaultLanguage);
  if (!load) throw new Error(`no catalog for ${language}`);
  return (await load()) as Compiled<K>;
}

/** A translator over a compiled catalog: `t('key', 'first', 2)` fills `{0}` and `{1}`. */
export function translator<K extends string>(catalog: Compiled<K>) {
  return (key: K, ...args: Array<string | number>): string => {
    const message = catalog[key];
    return message ? message(args) : key;
  };
}
