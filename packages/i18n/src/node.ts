import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import MessageFormat from '@messageformat/core';
import type { Compiled } from './catalog.ts';
import { defaultLanguage, isLanguage, type Language } from './languages.ts';
import { catalogLanguage, pickGroups, readCatalog } from './source.ts';

/**
 * The service's catalogs, compiled once at start (Node may compile at run time; the browsers get
 * them compiled at build time): every `<language>.json` of a `messages` folder, by language.
 */
export function compileCatalogs<K extends string = string>(folder: string): Map<Language, Compiled<K>> {
  const catalogs = new Map<Language, Compiled<K>>();
  for (const name of readdirSync(folder)) {
    const file = join(folder, name);
    const language = catalogLanguage(file);
    if (!isLanguage(language)) continue;
    const mf = new MessageFormat(language);
    const compiled: Record<string, (args?: unknown) => string> = {};
    for (const [key, text] of Object.entries(pickGroups(readCatalog(file)))) {
      compiled[key] = mf.compile(text) as (args?: unknown) => string;
    }
    catalogs.set(language, compiled as Compiled<K>);
  }
  if (!catalogs.has(defaultLanguage)) throw new Error(`${folder} has no ${defaultLanguage}.json`);
  return catalogs;
}
