import type { Language } from '@gatehouse/i18n';
import { useEffect, useState } from 'react';

/**
 * The language whose texts are in, for a component that renders nothing until they are: `load`
 * brings `language`'s texts (a text store's `use`), `current` says which are in now. A new
 * language keeps the old one shown until its texts land, so nothing is ever in two languages.
 */
export function useShownLanguage(
  language: Language,
  load: (language: Language) => Promise<void>,
  current: () => Language | undefined,
): Language | undefined {
  const [shown, setShown] = useState(() => (current() === language ? language : undefined));
  useEffect(() => {
    let live = true;
    void load(language).then(() => {
      if (live) setShown(language);
    });
    return () => {
      live = false;
    };
  }, [language, load]);
  return shown;
}
