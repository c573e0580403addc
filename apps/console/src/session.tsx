import type { ConsoleStaff } from '@gatehouse/contract/client';
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useState,
} from 'react';
import { consoleApi } from './api.ts';
import { t } from './messages.ts';

type SessionState = {
  /** undefined: still asking the server; null: not signed in. */
  staff: ConsoleStaff | null | undefined;
  signedIn: (staff: ConsoleStaff) => void;
  /** The server refused the session (idle timeout, signed out elsewhere): back to sign-in, saying why. */
  ended: (notice?: string) => void;
  /** The server refused the session of the staff member signed in: back to sign-in, saying it timed out. */
  timedOut: () => void;
  notice: string | undefined;
};

/**
 * The idle warning (IdleWarning.tsx; decision 049) loads once someone has signed in: its dialog stays
 * off the sign-in page's bundle (bench/bundle-size.ts).
 */
const IdleWarning = lazy(() => import('./IdleWarning.tsx'));

const SessionContext = createContext<SessionState>({
  staff: null,
  signedIn: () => {},
  ended: () => {},
  timedOut: () => {},
  notice: undefined,
});

/** The signed-in staff member, from GET /api/console/session at start and from sign-in. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [staff, setStaff] = useState<ConsoleStaff | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void consoleApi.session().then((answer) => live && setStaff(answer.ok ? answer.data : null));
    return () => {
      live = false;
    };
  }, []);
  const signedIn = useCallback((next: ConsoleStaff) => {
    setNotice(undefined);
    setStaff(next);
  }, []);
  const ended = useCallback((text?: string) => {
    setNotice(text);
    setStaff(null);
  }, []);
  const timedOut = useCallback(
    () => ended(staff ? t('common.sessionEnded', staff.idleMinutes) : undefined),
    [ended, staff],
  );
  return (
    <SessionContext.Provider value={{ staff, signedIn, ended, timedOut, notice }}>
      {children}
      {staff ? (
        <Suspense fallback={null}>
          <IdleWarning staff={staff} ended={ended} />
        </Suspense>
      ) : null}
    </SessionContext.Provider>
  );
}

export const useSession = () => useContext(SessionContext);
