import { format } from '@gatehouse/contract/client';
import { Button, Card } from '@gatehouse/ui';
import { useEffect, useRef } from 'react';
import { useNavigate } from '../router.ts';
import { Shell } from '../shell/Shell.tsx';
import { usePageTitle } from '../usePageTitle.ts';
import { pageMessages } from './page-messages.ts';
import { RequireAuth, useSession } from './RequireAuth.tsx';

/** The signed-in page: who is signed in, and Sign out. */
export function HomePage() {
  const session = useSession();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  usePageTitle(pageMessages.homeTitle);
  return (
    <Shell>
      <Card width={448}>
        <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
          {format(pageMessages.signedInHeading, session.displayName)}
        </h1>
        <p>{format(pageMessages.signedInAs, session.username)}</p>
        <p>{pageMessages.sessionTimes}</p>
        <p>
          <a href="#/security">{pageMessages.securitySettings}</a>
        </p>
        <Button variant="secondary" onClick={() => navigate('/logout')}>
          {pageMessages.signOut}
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
