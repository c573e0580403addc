import { readFileSync } from 'node:fs';

/**
 * A catalog file: `messages/<language>.json`, one per app (and one for the service) and language,
 * its texts in groups (`{ "login": { "login.heading": "Log in to your account" } }`) so that a
 * screen loads only its own groups. Keys are unique across a file's groups: a translator reads
 * one flat catalog whatever groups it was built from.
 */
export type CatalogSource = Record<string, Record<string, string>>;

export function readCatalog(file: string): CatalogSource {
  return JSON.parse(readFileSync(file, 'utf8')) as CatalogSource;
}

/** The texts of the named groups (all of them when none is named), flattened. */
export function pickGroups(source: CatalogSource, groups?: readonly string[]): Record<string, string> {
  const names = groups?.length ? groups : Object.keys(source);
  const texts: Record<string, string> = {};
  for (const name of names) {
    const group = source[name];
    if (!group) throw new Error(`the catalog has no group "${name}"`);
    Object.assign(texts, group);
  }
  return texts;
}

/** `…/messages/es.json` -> `es`; anything else -> undefined. */
export function catalogLanguage(file: string): string | undefined {
  return /[\\/]messages[\\/]([a-z]{2,3}(?:-[A-Za-z0-9]+)*)\.json$/.exec(file)?.[1];
}
