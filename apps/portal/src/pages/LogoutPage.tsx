import { headers, customerPaths as paths, Status } from '@gatehouse/contract/client';
import { Button, Card, Spinner } from '@gatehouse/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, clearSessionCookies, serviceData } from '../api.ts';
import { useNavigate } from '../router.ts';
import { settings } from '../settings.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';

/** Portal spec §8, session statuses: '204 logout' (the status code of a signed-out answer). */
const LOGOUT_STATUS = 204;

type State = { kind: 'loading' } | { kind: 'done' } | { kind: 'failed'; message: string };

/** Portal spec §2 "Logout screen" and §4: loading, then signed out or failed with retry. */
export function LogoutPage() {
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const heading = useRef<HTMLHeadingElement>(null);
  // WCAG 2.4.2: the title says what the page shows, not 'Session Ended' before or after a failure.
  usePageTitle(
    state.kind === 'done'
      ? t('page.sessionEnded')
      : state.kind === 'failed'
        ? t('page.logoutProblem')
        : t('page.loggingOut'),
  );

  const logout = useCallback(async () => {
    setState({ kind: 'loading' });
    serviceData.clear();
    clearSessionCookies();
    try {
      // Portal spec §7: logout is a DELETE with token type FAC.
      const result = await api.request('DELETE', paths.sessionLogout, {
        body: { requestBaseInfo: { sessionTokens: {} } },
        headers: { [headers.acceptTokenType]: 'FAC' },
      });
      // Signed out: 204, or 200 whose status says so; a 200 carrying a failure code is a failure.
      const signedOut =
        result.http === 204 ||
        (result.http === 200 &&
          (result.status.code === Status.SUCCESS || result.status.code === LOGOUT_STATUS));
      if (signedOut) setState({ kind: 'done' });
      else setState({ kind: 'failed', message: result.status.message });
    } catch {
      // No answer at all: say so in the portal's words, not the browser's.
      setState({ kind: 'failed', message: t('recovery.genericError', settings.supportEmail) });
    }
  }, []);

  useEffect(() => {
    void logout();
  }, [logout]);
  useEffect(() => {
    if (state.kind !== 'loading') heading.current?.focus();
  }, [state.kind]);

  return (
    <Shell supportLine="logout">
      <Card width={448}>
        {state.kind === 'loading' ? (
          <>
            <h1 className="portal__page-heading">{t('page.loggingOut')}</h1>
            <Spinner announce size="small" primaryText={t('page.loggingOut')} />
          </>
        ) : null}
        {state.kind === 'done' ? (
          <>
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('page.sessionEnded')}
            </h1>
            <p>{t('page.signedOut')}</p>
            <Button
              variant="primary"
              onClick={() => {
                clearSessionCookies();
                navigate('/login');
              }}
            >
              {t('page.backToSignIn')}
            </Button>
          </>
        ) : null}
        {state.kind === 'failed' ? (
          <>
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('page.logoutProblem')}
            </h1>
            <p role="alert">
              {state.message}
              {t('page.logoutRetrySuffix')}
            </p>
            <Button variant="primary" onClick={() => void logout()}>
              {t('page.logoutRetry')}
            </Button>
          </>
        ) : null}
      </Card>
    </Shell>
  );
}
