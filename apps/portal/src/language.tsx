import { browserLanguage, isLanguage, type Language } from '@gatehouse/i18n';
import { loadSignInTexts } from '@gatehouse/signin';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { texts } from './texts.ts';

/** Where the customer's choice is kept for this browser (a language is not a secret). */
const storageKey = 'gatehouse.language';

/** The customer's choice on this browser, else the first of the browser's languages shipped. */
export function chosenLanguage(): Language {
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(storageKey);
  } catch {
    // Storage blocked (a private window, a policy): the browser's languages decide.
  }
  return isLanguage(kept) ? kept : browserLanguage();
}

/**
 * Makes `language` the page's: its texts, the widget's first texts with the components' (so the
 * login page's widget renders at once) and the document's `lang`.
 */
export async function showLanguage(language: Language): Promise<boolean> {
  await Promise.all([texts.use(language), loadSignInTexts(language)]);
  // A later choice may have won meanwhile.
  if (texts.language() !== language) return false;
  document.documentElement.lang = language;
  return true;
}

type LanguageChoice = { language: Language; choose: (language: Language) => void };
const LanguageContext = createContext<LanguageChoice>({ language: 'en', choose: () => undefined });

/**
 * The portal's language (issue 15): shown in the shell's switch, passed to the widget, kept for
 * the browser. A choice re-renders every page in the new language once its texts are in.
 */
export function LanguageProvider({ initial, children }: { initial: Language; children: ReactNode }) {
  const [language, setLanguage] = useState(initial);
  const choose = useCallback((next: Language) => {
    try {
      localStorage.setItem(storageKey, next);
    } catch {
      // Not kept: the choice holds for this page only.
    }
    void showLanguage(next).then((shown) => {
      if (shown) setLanguage(next);
    });
  }, []);
  const value = useMemo(() => ({ language, choose }), [language, choose]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export const useLanguage = (): LanguageChoice => useContext(LanguageContext);
