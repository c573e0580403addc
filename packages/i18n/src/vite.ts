import { dirname, join } from 'node:path';
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
 *
 * `&include=<folder>:<groups>` (a folder relative to the catalog's) adds another catalog's groups
 * in the same language, their keys prefixed with the group (`ui.loading`, `recovery.codeSent`): the
 * components' texts, or the service's texts a page shows for a status code, arrive in the screen's
 * own chunk, not one more request, and are written once. A key the catalog has itself fails the
 * build.
 */
export function catalogs(): Plugin {
  const compiled = new Map<string, { file: string; groups: string; include: string | null }>();
  return {
    name: 'gatehouse:catalogs',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source.startsWith(GROUP)) return source;
      const [path = '', query = ''] = source.split('?');
      const params = new URLSearchParams(query);
      const groups = params.get('groups');
      const include = params.get('include');
      if (!path.endsWith('.json') || (query && groups === null)) return null;
      const resolved = await this.resolve(path, importer, { skipSelf: true });
      if (!resolved || !catalogLanguage(resolved.id)) return null;
      // Not ending in .json, so Vite's JSON plugin leaves these modules alone.
      const stem = resolved.id.slice(0, -'.json'.length);
      if (groups === null) return `${TEXTS}${stem}`;
      // Named for its language and groups (`en_login`): a chunk's file then says what it holds,
      // which the bundle budgets read (bench/bundle-size.ts).
      const named = [...groups.split(','), ...(include ? (include.split(':')[1] ?? '').split(',') : [])];
      const id = `${PREFIX}${stem}_${named.join('_')}`;
      compiled.set(id, { file: `${stem}.json`, groups, include });
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
      const { file, groups, include } = catalog;
      this.addWatchFile(file);
      const language = catalogLanguage(file) as string;
      const texts = pickGroups(readCatalog(file), groups ? groups.split(',') : undefined);
      if (include) {
        const [folder = '', names = ''] = include.split(':');
        const other = join(dirname(file), folder, `${language}.json`);
        this.addWatchFile(other);
        const source = readCatalog(other);
        for (const group of names.split(',')) {
          for (const [key, text] of Object.entries(pickGroups(source, [group]))) {
            const named = `${group}.${key}`;
            if (named in texts) throw new Error(`${file}: ${named} is the catalog's own and ${other}'s`);
            texts[named] = text;
          }
        }
      }
      return compileModule(new MessageFormat(language), texts);
    },
  };
}
