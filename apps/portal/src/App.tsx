import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router';
import { Announcer } from './announcer.tsx';
import { LoginPage } from './pages/LoginPage.tsx';

// Pages off the login route load on demand, so the login route stays within its budget.
// The signed-in page and its route guard load together, on demand.
const GuardedHomePage = lazy(() =>
  import('./pages/HomePage.tsx').then((m) => ({ default: m.GuardedHomePage })),
);
const LogoutPage = lazy(() => import('./pages/LogoutPage.tsx').then((m) => ({ default: m.LogoutPage })));
const NoAccessPage = lazy(() =>
  import('./pages/NoAccessPage.tsx').then((m) => ({ default: m.NoAccessPage })),
);
const UsernamePage = lazy(() =>
  import('./pages/username/UsernamePage.tsx').then((m) => ({ default: m.UsernamePage })),
);
const ResetPasswordPage = lazy(() =>
  import('./pages/reset/ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);
const InfoPage = lazy(() => import('./pages/InfoPage.tsx').then((m) => ({ default: m.InfoPage })));

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
