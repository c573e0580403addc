import type { CatalogLoaders } from '@gatehouse/i18n';
import { factorEntries } from '../factors.ts';

/**
 * The widget's own screens off the login route (the authenticator entry, states, username,
 * session), behind one dynamic import: one on-demand chunk instead of many small ones, which keeps
 * the login route's own files few and small. The factors' screens load through their entries
 * (screens/<key>/entry.ts), each with this chunk.
 */
export { AuthenticatorEntry } from './authenticator/AuthenticatorEntry.tsx';
export { ExtendSession } from './session/ExtendSession.tsx';
export { BlockedRoute, RejectRoute } from './states/routes.tsx';
export { StatePage } from './states/StatePage.tsx';
export { ChangeUsernameScreen } from './username/ChangeUsernameScreen.tsx';
export { UsernameConfirmationScreen } from './username/UsernameConfirmationScreen.tsx';

const ownTexts = import.meta.glob('../../messages/*.json', {
  query: { groups: 'states,username' },
  import: 'default',
});

const languageFile = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The screens' texts, fetched by language on demand: these screens' catalog groups and each
 * factor's (its entry's `texts`), one loader a language that loads them all together.
 */
export const screenTexts: CatalogLoaders = (() => {
  const parts = new Map<string, CatalogLoaders>([['states,username', ownTexts]]);
  for (const entry of factorEntries) parts.set(entry.textGroups.join(','), entry.texts);
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
