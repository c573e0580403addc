import { lazy, Suspense } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { Announcer } from './announcer.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { useHashLocation } from './router.ts';

// Pages off the login route load on demand, in one chunk, so the login route stays within its budget.
const pages = () => import('./pages/lazy.ts');
// The signed-in page and its route guard load together, on demand.
const GuardedHomePage = lazy(() => pages().then((m) => ({ default: m.GuardedHomePage })));
const LogoutPage = lazy(() => pages().then((m) => ({ default: m.LogoutPage })));
const NoAccessPage = lazy(() => pages().then((m) => ({ default: m.NoAccessPage })));
const UsernamePage = lazy(() => pages().then((m) => ({ default: m.UsernamePage })));
const ResetPasswordPage = lazy(() => pages().then((m) => ({ default: m.ResetPasswordPage })));
const InfoPage = lazy(() => pages().then((m) => ({ default: m.InfoPage })));

/** Portal spec §2: hash routes; an empty or unknown path goes to login. */
export function App() {
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
            <Route>
              <Redirect to="/login" replace />
            </Route>
          </Switch>
        </Suspense>
      </Router>
    </Announcer>
  );
}
