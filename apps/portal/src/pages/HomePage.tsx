import { Button, Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { useNavigate } from '../router.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';
import { RequireAuth, useSession } from './RequireAuth.tsx';

/** The signed-in page: who is signed in, and Sign out. */
export function HomePage() {
  const session = useSession();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  usePageTitle(t('page.homeTitle'));
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {t('page.signedInHeading', session.displayName)}
        </h1>
        <p>{t('page.signedInAs', session.username)}</p>
        <p>{t('page.sessionTimes')}</p>
        <p>
          <a href="#/security">{t('page.securitySettings')}</a>
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
