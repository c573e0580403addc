import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';

/** How long an announcement stays in the live region after it is made. */
const CLEAR_AFTER_MS = 5000;

const AnnounceContext = createContext<(text: string) => void>(() => {});

/**
 * The app's polite screen-reader live region (the portal, the device app and the console; portal
 * spec §2). It lives outside the routes, so an announcement made just before a navigation is
 * still heard.
 */
export function Announcer({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const timer = useRef<number | undefined>(undefined);
  // Said, then gone: a message left in the region would be found again, out of date, by anyone
  // reading the page later (after signing out, for example).
  const announce = useCallback((next: string) => {
    setText(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setText(''), CLEAR_AFTER_MS);
  }, []);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div aria-live="polite" className="gh-visually-hidden" data-testid="announcer">
        {text}
      </div>
    </AnnounceContext.Provider>
  );
}

/** Says a text in the nearest Announcer's live region (a no-op outside one). */
export const useAnnounce = () => useContext(AnnounceContext);
