import { customerPaths as paths, type SessionData } from '@gatehouse/contract/client';
import { Card, Spinner } from '@gatehouse/ui';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { Redirect } from 'wouter';
import { api } from '../api.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';

const SessionContext = createContext<SessionData | null>(null);

export function useSession(): SessionData {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside RequireAuth');
  return session;
}

/**
 * Portal spec §2 "Route guard": lets the route through only for an authenticated user, asked
 * of the server (the session cookie is HttpOnly), and sends anyone else to login.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const [state, setState] = useState<'checking' | 'denied' | SessionData>('checking');
  useEffect(() => {
    let live = true;
    api
      .request<SessionData>('GET', paths.sessionLogin)
      .then((result) => {
        const data = result.envelope?.successData;
        if (live) setState(result.http === 200 && data?.authenticated ? data : 'denied');
      })
      .catch(() => live && setState('denied'));
    return () => {
      live = false;
    };
  }, []);
  if (state === 'checking') return <CheckingSession />;
  if (state === 'denied') return <Redirect to="/login" replace />;
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

/** While the guard asks: the shell (a main landmark), a heading and the spinner. */
function CheckingSession() {
  usePageTitle(t('page.checkingSession'));
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading">{t('page.checkingSession')}</h1>
        <Spinner announce size="small" primaryText={t('page.checkingSession')} />
      </Card>
    </Shell>
  );
}
