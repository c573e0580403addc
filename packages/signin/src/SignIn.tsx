import { useId, useMemo } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { ApiClient } from './api/client.ts';
import { resolveConfig, type SignInConfig } from './config.ts';
import { useWidget, WidgetContext } from './context.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { IsolatedRouter } from './IsolatedRouter.tsx';
import { routes } from './routes.ts';
import { ErrorScreen } from './screens/error/ErrorScreen.tsx';
import { LoginScreen } from './screens/login/LoginScreen.tsx';
import { StatePage } from './screens/states/StatePage.tsx';
import { ChangeUsernameScreen } from './screens/username/ChangeUsernameScreen.tsx';
import { UsernameConfirmationScreen } from './screens/username/UsernameConfirmationScreen.tsx';

/** Blocked, or blocked for reset when the state says so (password authentication 1203). */
function BlockedRoute() {
  const state = useLocation().state as { reason?: string } | null;
  return <StatePage name={state?.reason === 'reset' ? 'blockedReset' : 'blocked'} />;
}

/** Reject: the message comes from the host's config. */
function RejectRoute() {
  const { config } = useWidget();
  return <StatePage name="reject">{config.rejectMessage ? <p>{config.rejectMessage}</p> : null}</StatePage>;
}

import './signin.css';

function Screens() {
  const navigate = useNavigate();
  return (
    <ErrorBoundary fallback={(reset) => <ErrorScreen onBack={reset} />}>
      <Routes>
        <Route path={routes.login} element={<LoginScreen />} />
        <Route path={routes.blocked} element={<BlockedRoute />} />
        <Route path={routes.expired} element={<StatePage name="expired" />} />
        <Route path={routes.reject} element={<RejectRoute />} />
        <Route path={routes.prohibited} element={<StatePage name="prohibited" />} />
        <Route path={routes.forcedUpdate} element={<StatePage name="forced" />} />
        <Route path={routes.totpBlock} element={<StatePage name="totpBlock" />} />
        <Route path={routes.authenticatorTotpBlock} element={<StatePage name="totpBlock" />} />
        <Route path={routes.ssoError} element={<StatePage name="ssoError" />} />
        <Route path={routes.logout} element={<StatePage name="logout" />} />
        <Route path={routes.createUsername} element={<ChangeUsernameScreen />} />
        <Route path={routes.usernameConfirmation} element={<UsernameConfirmationScreen />} />
        <Route path={routes.error} element={<ErrorScreen />} />
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
