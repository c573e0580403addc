import { type Compiled, defaultLanguage, type Language, loadCatalog } from '@gatehouse/i18n';
import type catalog from '../../messages/en.json';

/**
 * The widget's texts (packages/signin/messages/<language>.json, docs/decisions/029-languages.md):
 * the login route's group loads before the first screen renders, the other screens' groups with
 * their chunk. Only the chosen language's file is fetched. `t()` reads the texts of the current
 * language: one language per page (two widgets on a page share it).
 */
type Groups = typeof catalog;
export type MessageKey = keyof Groups['login'];
type AnyKey = { [G in keyof Groups]: keyof Groups[G] & string }[keyof Groups];
type Args = Array<string | number>;

const loginGroups = import.meta.glob('../../messages/*.json', {
  query: { groups: 'login' },
  import: 'default',
});
const screenGroups = import.meta.glob('../../messages/*.json', {
  query: { groups: 'otp,push,appCodes,states,username' },
  import: 'default',
});

let current: Language | undefined;
let loginTexts: Partial<Compiled<AnyKey>> = {};
let screensTexts: Partial<Compiled<AnyKey>> = {};
let screensLanguage: Language | undefined;

const text = (key: AnyKey, args: Args): string => {
  const message = loginTexts[key] ?? screensTexts[key];
  return message ? message(args) : key;
};

/** A text of the login route or of any screen, its `{0}` placeholders filled. */
export function t(key: MessageKey, ...args: Args): string {
  return text(key, args);
}

/** A screen folder's own keys (its group of the catalog), the same filling. */
export function translator<K extends AnyKey>() {
  return (key: K, ...args: Args): string => text(key, args);
}

/** The language whose texts are current (none before the first load). */
export const textsLanguage = (): Language | undefined => current;

/**
 * Makes `language` current: its login route's texts, and its screens' when those were loaded for
 * another language. Resolves once `t()` reads them; both change together.
 */
export async function loadTexts(language: Language): Promise<void> {
  if (language === current) return;
  const screensNeeded = () => screensLanguage !== undefined && screensLanguage !== language;
  const [login, first] = await Promise.all([
    loadCatalog<AnyKey>(loginGroups, language),
    screensNeeded() ? loadCatalog<AnyKey>(screenGroups, language) : undefined,
  ]);
  // The screens' texts of another language may have landed meanwhile: this language's, then.
  const screens = first ?? (screensNeeded() ? await loadCatalog<AnyKey>(screenGroups, language) : undefined);
  loginTexts = login;
  if (screens) {
    screensTexts = screens;
    screensLanguage = language;
  }
  current = language;
}

/** The screens' texts of the current language, loaded with the screens' chunk. */
export async function loadScreenTexts(): Promise<void> {
  const language = current ?? defaultLanguage;
  if (screensLanguage === language) return;
  const screens = await loadCatalog<AnyKey>(screenGroups, language);
  // The language changed meanwhile: the new one's.
  if (language !== (current ?? defaultLanguage)) return loadScreenTexts();
  screensTexts = screens;
  screensLanguage = language;
}
