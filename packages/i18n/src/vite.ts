import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module.js';
import type { Plugin } from 'vite';
import { catalogLanguage, pickGroups, readCatalog } from './source.ts';

const PREFIX = '\0gatehouse-catalog:';

/**
 * Compiles catalog files at build time (docs/decisions/029-languages.md): an import of
 * `…/messages/<language>.json?groups=a,b` becomes a module whose default export maps each key of
 * those groups to a function (ICU MessageFormat compiled by @messageformat/core, plurals by the
 * language's rules from @messageformat/runtime). The browser carries no parser, and a screen's
 * chunk only its own groups. A message that does not parse fails the build.
 */
export function catalogs(): Plugin {
  return {
    name: 'gatehouse:catalogs',
    enforce: 'pre',
    async resolveId(source, importer) {
      const [path = '', query = ''] = source.split('?');
      const groups = new URLSearchParams(query).get('groups');
      if (groups === null || !path.endsWith('.json')) return null;
      const resolved = await this.resolve(path, importer, { skipSelf: true });
      if (!resolved || !catalogLanguage(resolved.id)) return null;
      // Not ending in .json, so Vite's JSON plugin leaves the compiled module alone.
      return `${PREFIX}${groups}:${resolved.id.slice(0, -'.json'.length)}`;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const rest = id.slice(PREFIX.length);
      const colon = rest.indexOf(':');
      const groups = rest.slice(0, colon);
      const file = `${rest.slice(colon + 1)}.json`;
      this.addWatchFile(file);
      const language = catalogLanguage(file) as string;
      const texts = pickGroups(readCatalog(file), groups ? groups.split(',') : undefined);
      return compileModule(new MessageFormat(language), texts);
    },
  };
}
