import { lazy, Suspense, useEffect, useId, useMemo } from 'react';
import { Route, Routes } from 'react-router';
import { ApiClient } from './api/client.ts';
import { resolveConfig, type SignInConfig } from './config.ts';
import { WidgetContext } from './context.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { IsolatedRouter } from './IsolatedRouter.tsx';
import { routes } from './routes.ts';
import { ErrorScreen } from './screens/error/ErrorScreen.tsx';
import { FactorPlaceholder } from './screens/FactorPlaceholder.tsx';
import { LoginScreen } from './screens/login/LoginScreen.tsx';
import './signin.css';

// Screens off the login route load on demand, all in one chunk (issue 4: the login route stays within budget).
const screens = () => import('./screens/lazy.ts');
const StatePage = lazy(() => screens().then((m) => ({ default: m.StatePage })));
const BlockedRoute = lazy(() => screens().then((m) => ({ default: m.BlockedRoute })));
const RejectRoute = lazy(() => screens().then((m) => ({ default: m.RejectRoute })));
const ChangeUsernameScreen = lazy(() => screens().then((m) => ({ default: m.ChangeUsernameScreen })));
const AuthenticatorEntry = lazy(() => screens().then((m) => ({ default: m.AuthenticatorEntry })));
const OtpContactScreen = lazy(() => screens().then((m) => ({ default: m.OtpContactScreen })));
const OtpCodeScreen = lazy(() => screens().then((m) => ({ default: m.OtpCodeScreen })));
const RepScreen = lazy(() => screens().then((m) => ({ default: m.RepScreen })));
const UsernameConfirmationScreen = lazy(() =>
  screens().then((m) => ({ default: m.UsernameConfirmationScreen })),
);

/** The factor routes of widget spec §2, top-level and under /authenticator. */
const factorRoutes = [
  routes.totp,
  routes.totpSync,
  routes.push,
  routes.pushDenied,
  routes.extendSession,
  routes.authenticatorSvip,
  routes.authenticatorSvipSync,
  routes.authenticatorPush,
  routes.authenticatorPushDenied,
  routes.authenticatorTotp,
];

function Screens() {
  return (
    <ErrorBoundary fallback={(reset) => <ErrorScreen onBack={reset} />}>
      <Suspense fallback={null}>
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
          <Route path={routes.authenticator} element={<AuthenticatorEntry />} />
          <Route path={routes.authenticatorOtp} element={<OtpContactScreen />} />
          <Route path={routes.otp} element={<OtpContactScreen />} />
          <Route path={routes.authenticatorOtpCode} element={<OtpCodeScreen />} />
          <Route path={routes.securityCode} element={<OtpCodeScreen />} />
          <Route path={routes.authenticatorRep} element={<RepScreen />} />
          <Route path={routes.rep} element={<RepScreen />} />
          {factorRoutes.map((path) => (
            // The second-factor screens plug in here (next issue).
            <Route key={path} path={path} element={<FactorPlaceholder />} />
          ))}
          <Route path={routes.error} element={<ErrorScreen />} />
          <Route path="*" element={<ErrorScreen />} />
        </Routes>
      </Suspense>
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
        ...(resolved.sessionContext ? { sessionContext: resolved.sessionContext } : {}),
      }),
    }),
    [resolved, idPrefix],
  );
  // Unmounting leaves nothing behind: the widget's own session-storage entries go with it.
  useEffect(
    () => () => {
      for (const key of Object.keys(sessionStorage)) {
        if (key.startsWith(`gh.signin.${idPrefix}.`)) sessionStorage.removeItem(key);
      }
    },
    [idPrefix],
  );
  return (
    <WidgetContext.Provider value={widget}>
      <div className="gh-signin">
        {/* Step-up starts at the factor part: the user is already signed in (widget spec §1). */}
        <IsolatedRouter start={resolved.journey === 'STEPUP' ? routes.authenticator : routes.login}>
          <Screens />
        </IsolatedRouter>
      </div>
    </WidgetContext.Provider>
  );
}
