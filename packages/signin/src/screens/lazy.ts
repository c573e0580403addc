import type { CatalogLoaders } from '@gatehouse/i18n';
import type { ComponentType } from 'react';
import { type FactorScreens, factorEntries } from '../factors.ts';

/**
 * The widget's own screens off the login route (the authenticator entry, states, username,
 * session), behind one dynamic import: one on-demand chunk instead of many small ones, which keeps
 * the login route's own files few and small. The factors' screens are in it too: each factor
 * folder's `screens.ts`, found by the glob below, its entry (entry.ts) naming which route shows which.
 */
export { AuthenticatorEntry } from './authenticator/AuthenticatorEntry.tsx';
export { ExtendSession } from './session/ExtendSession.tsx';
export { BlockedRoute, RejectRoute } from './states/routes.tsx';
export { StatePage } from './states/StatePage.tsx';
export { ChangeUsernameScreen } from './username/ChangeUsernameScreen.tsx';
export { UsernameConfirmationScreen } from './username/UsernameConfirmationScreen.tsx';

const factorModules = import.meta.glob<FactorScreens>('./*/screens.ts', { eager: true });

/** A factor's screen: the export `name` of its folder's screens.ts. */
export function factorScreen(key: string, name: string): ComponentType {
  const module = factorModules[`./${key}/screens.ts`];
  const screen = module && Object.hasOwn(module, name) ? module[name] : undefined;
  if (typeof screen !== 'function') throw new Error(`screens/${key}/screens.ts exports no screen ${name}`);
  return screen as ComponentType;
}

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
