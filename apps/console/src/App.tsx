import { Announcer } from '@gatehouse/ui';
import { Redirect, Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { t } from './messages.ts';
import { AuditPage } from './pages/AuditPage.tsx';
import { CustomerPage } from './pages/CustomerPage.tsx';
import { SignInPage } from './pages/SignInPage.tsx';
import { routes } from './routes.ts';
import { SessionProvider, useSession } from './session.tsx';
import { Shell } from './shell/Shell.tsx';

/** Hash routes: '#/sign-in', '#/' find a customer, '#/audit' the audit trail; staff only. */
export function App() {
  return (
    <Announcer>
      <SessionProvider>
        <Router hook={useHashLocation}>
          <Shell>
            <Screens />
          </Shell>
        </Router>
      </SessionProvider>
    </Announcer>
  );
}

function Screens() {
  const { staff } = useSession();
  if (staff === undefined) return <p>{t('common.productName')}</p>;
  if (staff === null) {
    return (
      <Switch>
        <Route path={routes.signIn}>
          <SignInPage />
        </Route>
        <Route>
          <Redirect to={routes.signIn} replace />
        </Route>
      </Switch>
    );
  }
  return (
    <Switch>
      <Route path={routes.customer}>
        <CustomerPage />
      </Route>
      <Route path={routes.audit}>
        <AuditPage />
      </Route>
      <Route>
        <Redirect to={routes.customer} replace />
      </Route>
    </Switch>
  );
}
