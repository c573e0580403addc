import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router';
import { Announcer } from './announcer.tsx';
import { LoginPage } from './pages/LoginPage.tsx';

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
      <HashRouter>
        <Suspense fallback={null}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/logout" element={<LogoutPage />} />
            <Route path="/noaccess" element={<NoAccessPage />} />
            <Route path="/username" element={<UsernamePage />} />
            <Route path="/resetPassword" element={<ResetPasswordPage />} />
            <Route path="/info/:page" element={<InfoPage />} />
            <Route path="/home" element={<GuardedHomePage />} />
            <Route path="*" element={<Navigate to="/login" replace />} />
          </Routes>
        </Suspense>
      </HashRouter>
    </Announcer>
  );
}
