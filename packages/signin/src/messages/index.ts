import { type CatalogLoaders, type Language, textStore } from '@gatehouse/i18n';
import { setUiTexts } from '@gatehouse/ui';
import type catalog from '../../messages/en.json';

/**
 * The widget's texts (packages/signin/messages/<language>.json, docs/decisions/029-languages.md):
 * the login route's group loads before the first screen renders, the other screens' groups with
 * their chunk. Only the chosen language's file is fetched. `t()` reads the texts of the current
 * language: one language per page (two widgets on a page share it), and the components' own
 * texts (packages/ui) follow it.
 */
type Groups = typeof catalog;
type AnyKey = { [G in keyof Groups]: keyof Groups[G] & string }[keyof Groups];
/**
 * A text `t()` reads: the login route's, or an error of any group (the status tables' ERROR
 * messages). An error of a screen off the login route (the username rules' refusals) is in its
 * screens' group: only that screen's calls answer with it, once its texts are loaded.
 */
export type MessageKey = keyof Groups['login'] | Extract<AnyKey, `error.${string}`>;
type Args = Array<string | number>;

const store = textStore<AnyKey, 'screens'>(
  // The components' texts come with the login route's (English is in their bundle).
  import.meta.glob('../../messages/*.json', {
    query: { groups: 'login', include: '../../ui/messages:ui' },
    import: 'default',
  }),
);

/** A text of the login route or of any screen, its `{0}` placeholders filled. */
export const t: (key: MessageKey, ...args: Args) => string = store.t;

/** A screen folder's own keys (its group of the catalog), the same filling. */
export const translator = <K extends AnyKey>() => store.t as (key: K, ...args: Args) => string;

/** The language whose texts are current (none before the first load). */
export const textsLanguage = store.language;

/**
 * Makes `language` current: its login route's texts, and its screens' when those were loaded for
 * another language, with the components' texts. Resolves once `t()` reads them.
 */
export async function loadTexts(language: Language): Promise<void> {
  await store.use(language);
  if (store.language() !== language) return;
  setUiTexts((key, ...args) => store.find(`ui.${key}`, ...args));
}

/** The screens' texts of the current language, loaded by the screens' chunk with its glob. */
export const loadScreenTexts = (loaders: CatalogLoaders): Promise<void> => store.load('screens', loaders);
