import { useId, useMemo } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { ApiClient } from './api/client.ts';
import { resolveConfig, type SignInConfig } from './config.ts';
import { WidgetContext } from './context.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { IsolatedRouter } from './IsolatedRouter.tsx';
import { routes } from './routes.ts';
import { ErrorScreen } from './screens/error/ErrorScreen.tsx';
import { LoginScreen } from './screens/login/LoginScreen.tsx';
import './signin.css';

function Screens() {
  const navigate = useNavigate();
  return (
    <ErrorBoundary fallback={(reset) => <ErrorScreen onBack={reset} />}>
      <Routes>
        <Route path={routes.login} element={<LoginScreen />} />
        <Route path="*" element={<ErrorScreen onBack={() => navigate(routes.login)} />} />
      </Routes>
    </ErrorBoundary>
  );
}

/** The sign-in widget for React hosts. `mount()` wraps it for any page. */
export function SignIn({ config }: { config: SignInConfig }) {
  const resolved = useMemo(() => resolveConfig(config), [config]);
  const idPrefix = `gh${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const widget = useMemo(
    () => ({
      config: resolved,
      idPrefix,
      client: new ApiClient({
        endpoint: resolved.endpoint,
        appId: resolved.appId,
        appName: resolved.appName,
      }),
    }),
    [resolved, idPrefix],
  );
  return (
    <WidgetContext.Provider value={widget}>
      <div className="gh-signin">
        <IsolatedRouter>
          <Screens />
        </IsolatedRouter>
      </div>
    </WidgetContext.Provider>
  );
}
