import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';

const CLEAR_AFTER_MS = 5000;
const AnnounceContext = createContext<(text: string) => void>(() => {});

/**
 * The app's polite live region, outside the routes so that an announcement made just before a
 * navigation is still heard. Said, then cleared, so no stale text is found later.
 */
export function Announcer({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const timer = useRef<number | undefined>(undefined);
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

export const useAnnounce = () => useContext(AnnounceContext);
