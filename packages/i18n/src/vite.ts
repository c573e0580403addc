import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module.js';
import type { Plugin } from 'vite';
import { catalogLanguage, pickGroups, readCatalog } from './source.ts';

const PREFIX = '\0gatehouse-catalog:';
const TEXTS = '\0gatehouse-catalog-texts:';
const GROUP = '\0gatehouse-catalog-group:';

/**
 * Compiles catalog files at build time (docs/decisions/029-languages.md): an import of
 * `…/messages/<language>.json?groups=a,b` becomes a module whose default export maps each key of
 * those groups to a function (ICU MessageFormat compiled by @messageformat/core, plurals by the
 * language's rules from @messageformat/runtime). The browser carries no parser, and a screen's
 * chunk only its own groups. A message that does not parse fails the build.
 */
export function catalogs(): Plugin {
  const compiled = new Map<string, { file: string; groups: string }>();
  return {
    name: 'gatehouse:catalogs',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source.startsWith(GROUP)) return source;
      const [path = '', query = ''] = source.split('?');
      const groups = new URLSearchParams(query).get('groups');
      if (!path.endsWith('.json') || (query && groups === null)) return null;
      const resolved = await this.resolve(path, importer, { skipSelf: true });
      if (!resolved || !catalogLanguage(resolved.id)) return null;
      // Not ending in .json, so Vite's JSON plugin leaves these modules alone.
      const stem = resolved.id.slice(0, -'.json'.length);
      if (groups === null) return `${TEXTS}${stem}`;
      // Named for its language and groups (`en_login`): a chunk's file then says what it holds,
      // which the bundle budgets read (bench/bundle-size.ts).
      const id = `${PREFIX}${stem}_${groups.split(',').join('_')}`;
      compiled.set(id, { file: `${stem}.json`, groups });
      return id;
    },
    load(id) {
      if (id.startsWith(TEXTS)) {
        // A plain import (`import { login }` of a `messages/en.json`: the service's English texts
        // that the contract's modules read): one module per group behind a facade, so a bundle keeps
        // only the groups it uses and each group lands in the chunk that needs it.
        const stem = id.slice(TEXTS.length);
        this.addWatchFile(`${stem}.json`);
        return Object.keys(readCatalog(`${stem}.json`))
          .map(
            (group) => `export { default as ${group} } from ${JSON.stringify(`${GROUP}${group}:${stem}`)};`,
          )
          .join('\n');
      }
      if (id.startsWith(GROUP)) {
        const rest = id.slice(GROUP.length);
        const colon = rest.indexOf(':');
        const source = readCatalog(`${rest.slice(colon + 1)}.json`);
        return `export default ${JSON.stringify(source[rest.slice(0, colon)])};`;
      }
      const catalog = compiled.get(id);
      if (!catalog) return null;
      const { file, groups } = catalog;
      this.addWatchFile(file);
      const language = catalogLanguage(file) as string;
      const texts = pickGroups(readCatalog(file), groups ? groups.split(',') : undefined);
      return compileModule(new MessageFormat(language), texts);
    },
  };
}
