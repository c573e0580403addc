import type { passwordUpdateMessages, recoveryMessages } from '@gatehouse/contract/client';
import { textStore } from '@gatehouse/i18n';
import type catalog from '../messages/en.json';

/**
 * The portal's texts (apps/portal/messages/<language>.json, docs/decisions/029-languages.md): the
 * shell's and the login page's (`login`) load before the first render; the other pages' (`pages`)
 * and the security page's (`security`) by their on-demand chunks (pages/lazy.ts,
 * pages/security/SecurityPage.tsx). Only the chosen language's
 * file is fetched.
 */
type Groups = typeof catalog;
/** The service's texts the pages' group includes (pages/lazy.ts), keyed by their group. */
type ServiceKey =
  | `recovery.${keyof typeof recoveryMessages}`
  | `passwordUpdate.${keyof typeof passwordUpdateMessages}`;
export type PortalTextKey = { [G in keyof Groups]: keyof Groups[G] & string }[keyof Groups] | ServiceKey;

export const texts = textStore<PortalTextKey, 'pages' | 'security'>(
  import.meta.glob('../messages/*.json', { query: { groups: 'login' }, import: 'default' }),
);

/** A portal text in the current language, its `{0}` placeholders filled. */
export const t = texts.t;
