import { Alert, Button, Card } from '@gatehouse/ui';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, usePageState } from '../router.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';
import { RequireAuth, useSession } from './RequireAuth.tsx';

/** The signed-in page: who is signed in, and Sign out. */
export function HomePage() {
  const session = useSession();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  // A notice left by the page before (a changed username), shown once: a reload does not repeat it.
  const state = usePageState<{ notice?: string }>();
  const [notice] = useState(state?.notice);
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state?.notice) navigate('/home', { replace: true, state: null });
  }, [state, navigate]);
  useEffect(() => (notice ? noticeRef.current : heading.current)?.focus(), [notice]);
  usePageTitle(t('page.homeTitle'));
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {t('page.signedInHeading', session.displayName)}
        </h1>
        {notice ? (
          <Alert variant="confirm" ref={noticeRef} tabIndex={-1}>
            {notice}
          </Alert>
        ) : null}
        <p>{t('page.signedInAs', session.username)}</p>
        <p>{t('page.sessionTimes')}</p>
        <p>
          <a href="#/security">{t('page.securitySettings')}</a>
        </p>
        <p>
          <a href="#/changeUsername">{t('page.changeUsername')}</a>
        </p>
        <Button variant="secondary" onClick={() => navigate('/logout')}>
          {t('page.signOut')}
        </Button>
      </Card>
    </Shell>
  );
}

/** The route's element: the guard asks the server first (portal spec §2 "Route guard"). */
export function GuardedHomePage() {
  return (
    <RequireAuth>
      <HomePage />
    </RequireAuth>
  );
}
