import { Announcer } from '@gatehouse/ui';
import { Suspense, useEffect } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { useLanguage } from './language.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { pages } from './pages/onDemand.ts';
import { useHashLocation } from './router.ts';

// The signed-in page and its route guard load together, on demand.
const GuardedHomePage = pages.component((m) => m.GuardedHomePage);
const LogoutPage = pages.component((m) => m.LogoutPage);
const NoAccessPage = pages.component((m) => m.NoAccessPage);
const OidcPage = pages.component((m) => m.OidcPage);
const UsernamePage = pages.component((m) => m.UsernamePage);
const ResetPasswordPage = pages.component((m) => m.ResetPasswordPage);
const InfoPage = pages.component((m) => m.InfoPage);
const SecurityPage = pages.component((m) => m.GuardedSecurityPage);
const ChangeUsernamePage = pages.component((m) => m.GuardedChangeUsernamePage);

/** Portal spec §2: hash routes; an empty or unknown path goes to login. */
export function App() {
  // A new language re-renders every page where it is (its state stays), in the new texts.
  useLanguage();
  useEffect(() => pages.prefetch(), []);
  return (
    <Announcer>
      <Router hook={useHashLocation}>
        <Suspense fallback={null}>
          <Switch>
            <Route path="/login">
              <LoginPage />
            </Route>
            <Route path="/logout">
              <LogoutPage />
            </Route>
            <Route path="/oidc/:journey/:uid?">
              <OidcPage />
            </Route>
            <Route path="/noaccess">
              <NoAccessPage />
            </Route>
            <Route path="/username">
              <UsernamePage />
            </Route>
            <Route path="/resetPassword">
              <ResetPasswordPage />
            </Route>
            <Route path="/info/:page">
              <InfoPage />
            </Route>
            <Route path="/home">
              <GuardedHomePage />
            </Route>
            <Route path="/security">
              <SecurityPage />
            </Route>
            <Route path="/changeUsername">
              <ChangeUsernamePage />
            </Route>
            <Route>
              <Redirect to="/login" replace />
            </Route>
          </Switch>
        </Suspense>
      </Router>
    </Announcer>
  );
}
