import { createHashRouter, Navigate, RouterProvider } from 'react-router';
import { HomePage } from './pages/HomePage.tsx';
import { InfoPage } from './pages/InfoPage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { LogoutPage } from './pages/LogoutPage.tsx';
import { NoAccessPage } from './pages/NoAccessPage.tsx';
import { RequireAuth } from './pages/RequireAuth.tsx';

/** Portal spec §2: hash routes; an empty or unknown path goes to login. */
export const router = createHashRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/logout', element: <LogoutPage /> },
  { path: '/noaccess', element: <NoAccessPage /> },
  { path: '/info/:page', element: <InfoPage /> },
  {
    path: '/home',
    element: (
      <RequireAuth>
        <HomePage />
      </RequireAuth>
    ),
  },
  { path: '*', element: <Navigate to="/login" replace /> },
]);

export function App() {
  return <RouterProvider router={router} />;
}
