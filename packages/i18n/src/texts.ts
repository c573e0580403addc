import { type CatalogLoaders, type Compiled, loadCatalog } from './catalog.ts';
import { defaultLanguage, type Language } from './languages.ts';

type Part = { loaders: CatalogLoaders; language?: Language; texts: Partial<Compiled> };

/**
 * An app's texts in one language at a time (docs/decisions/029-languages.md): the part its first
 * screen needs, loaded before that screen renders (`use`), and parts loaded by their on-demand
 * chunks (`load`, with the chunk's own glob, so the login route does not carry it). Each part is a
 * glob of the app's catalogs with its `?groups=`; only the chosen language's file is fetched.
 * Switching language reloads every part loaded so far, and the texts change together when all are
 * in, so a page never mixes two languages.
 */
export function textStore<Key extends string, Name extends string = never>(first: CatalogLoaders) {
  const initial: Part = { loaders: first, texts: {} };
  const parts = new Map<Name | '', Part>([['', initial]]);
  let current: Language | undefined;
  let requested: Language | undefined;

  const find = (key: string, args: Array<string | number> = []): string | undefined => {
    for (const part of parts.values()) {
      const message = part.texts[key];
      if (message) return message(args);
    }
    return undefined;
  };

  return {
    /** A text of any part loaded, its `{0}` placeholders filled; the key itself when none has it. */
    t: (key: Key, ...args: Array<string | number>): string => find(key, args) ?? key,
    /** A text of any part loaded, or undefined (a package's texts included in a part: `ui.…`). */
    find: (key: string, ...args: Array<string | number>): string | undefined => find(key, args),
    /** Whether a loaded part has a text for `key` (a key the service names, say). */
    has: (key: string): key is Key => [...parts.values()].some((part) => key in part.texts),
    /** The loaded keys under a prefix, in the catalog's order. */
    keys: (prefix: string): Key[] =>
      [...parts.values()].flatMap((part) =>
        Object.keys(part.texts).filter((key) => key.startsWith(prefix)),
      ) as Key[],
    /** The language whose texts are current (none before the first `use`). */
    language: (): Language | undefined => current,
    /**
     * Makes `language` current: the first part, and every part loaded so far in another language.
     * Resolves once `t()` reads them; a later call wins over an earlier one still loading.
     */
    async use(language: Language): Promise<void> {
      requested = language;
      if (language === current) return;
      const loaded = new Map<Part, Partial<Compiled>>();
      // Parts loaded meanwhile in another language are loaded again, until none is left.
      for (;;) {
        const stale = [...parts.values()].filter(
          (part) => !loaded.has(part) && (part === initial || (part.language && part.language !== language)),
        );
        if (!stale.length) break;
        const texts = await Promise.all(stale.map((part) => loadCatalog(part.loaders, language)));
        for (const [index, part] of stale.entries()) loaded.set(part, texts[index] as Partial<Compiled>);
      }
      if (requested !== language) return;
      for (const [part, texts] of loaded) {
        part.texts = texts;
        part.language = language;
      }
      current = language;
    },
    /** Loads an on-demand part in the current language (English before any `use`). */
    async load(name: Name, loaders: CatalogLoaders): Promise<void> {
      let part = parts.get(name);
      if (!part) {
        part = { loaders, texts: {} };
        parts.set(name, part);
      }
      for (;;) {
        const language = current ?? defaultLanguage;
        if (part.language === language) return;
        const texts = await loadCatalog(part.loaders, language);
        // The language changed meanwhile: the new one's, then.
        if (language !== (current ?? defaultLanguage)) continue;
        part.texts = texts;
        part.language = language;
        return;
      }
    },
  };
}

export type TextStore<Key extends string, Name extends string = never> = ReturnType<
  typeof textStore<Key, Name>
>;
