import type { CatalogLoaders } from '@gatehouse/i18n';
import { factorEntries } from '../factors.ts';
import { factorModules } from './Routes.tsx';

/**
 * The widget's own screens off the login route (the authenticator entry, states, username,
 * session), behind one dynamic import: one on-demand chunk instead of many small ones, which keeps
 * the login route's own files few and small. The factors' screens are in it too: each factor
 * folder's `screens.ts`, found by the glob in Routes.tsx, its entry (entry.ts) naming which route
 * shows which. `OffLoginRoutes` routes to all of them.
 */
export { factorScreen, OffLoginRoutes } from './Routes.tsx';
export { StatePage } from './states/StatePage.tsx';

const ownTexts = import.meta.glob('../../messages/*.json', {
  query: { groups: 'states,username' },
  import: 'default',
});

const languageFile = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The screens' texts, fetched by language on demand: these screens' catalog groups and each
 * factor's (its screens.ts `texts`), one loader a language that loads them all together.
 */
export const screenTexts: CatalogLoaders = (() => {
  const parts = new Map<string, CatalogLoaders>([['states,username', ownTexts]]);
  for (const entry of factorEntries) {
    const texts = factorModules[`./${entry.key}/screens.ts`]?.texts;
    if (texts) parts.set(entry.textGroups.join(','), texts);
  }
  const byFile = new Map<string, Array<() => Promise<unknown>>>();
  for (const loaders of parts.values()) {
    for (const [path, load] of Object.entries(loaders)) {
      const file = languageFile(path);
      byFile.set(file, [...(byFile.get(file) ?? []), load]);
    }
  }
  return Object.fromEntries(
    [...byFile].map(([file, loads]) => [
      `messages/${file}`,
      async () => Object.assign({}, ...(await Promise.all(loads.map((load) => load())))),
    ]),
  );
})();
