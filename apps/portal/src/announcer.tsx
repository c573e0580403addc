import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';

const AnnounceContext = createContext<(text: string) => void>(() => {});

/**
 * The portal's screen-reader live region (portal spec §2, login screen). It lives outside the
 * routes, so an announcement made just before a navigation is still heard.
 */
export function Announcer({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const announce = useCallback((next: string) => setText(next), []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div aria-live="polite" className="gh-visually-hidden">
        {text}
      </div>
    </AnnounceContext.Provider>
  );
}

export const useAnnounce = () => useContext(AnnounceContext);
