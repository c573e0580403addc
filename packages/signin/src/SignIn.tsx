import { limits } from '@gatehouse/contract/client';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { ApiClient } from './api/client.ts';
import { type FinishResult, resolveConfig, type SignInConfig } from './config.ts';
import { useWidget as useWidgetInternal, WidgetContext } from './context.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { IsolatedRouter } from './IsolatedRouter.tsx';
import { t } from './messages/index.ts';
import { routes } from './routes.ts';
import { ErrorScreen } from './screens/error/ErrorScreen.tsx';
import { LoginScreen } from './screens/login/LoginScreen.tsx';
import { Loading } from './shared/Loading.tsx';
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
const ExtendSession = lazy(() => screens().then((m) => ({ default: m.ExtendSession })));

/**
 * The error route: an ended session (HTTP 401) has its own page, '401 Unauthorized' with a way to
 * sign in again (widget spec §8); anything else is the generic error card.
 */
function ErrorRoute() {
  const state = useLocation().state as { reason?: string } | null;
  return state?.reason === 'unauthorized' ? <StatePage name="unauthorized" /> : <ErrorScreen />;
}

/** Uncaught failures go to the client log collector (widget spec §7); its own failure is ignored. */
function useReportError() {
  const { client } = useWidgetInternal();
  return useCallback(
    (error: unknown) => {
      const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(
        0,
        limits.clientLogMessageMax,
      );
      void client
        .call('clientLogs', {
          body: { logs: [{ level: 'error', message, timestamp: new Date().toISOString() }] },
        })
        .catch(() => undefined);
    },
    [client],
  );
}

function Screens() {
  const report = useReportError();
  return (
    <ErrorBoundary fallback={(reset) => <ErrorScreen onBack={reset} />} onError={report}>
      <Suspense fallback={<Loading />}>
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
          <Route path={routes.extendSession} element={<ExtendSession />} />
          {/* Factor screens not built yet (routes.unbuiltRoutes) have no route: the error card. */}
          <Route path={routes.error} element={<ErrorRoute />} />
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
  const [finished, setFinished] = useState<FinishResult | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const finishedOnce = useRef(false);
  // The host page's own title, read once (after the host's effects) and put back on unmount.
  const hostTitle = useRef<string | null>(null);
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
      finish: (result: FinishResult) => {
        if (finishedOnce.current) return;
        finishedOnce.current = true;
        setFinished(result);
        resolved.onEvent?.({ type: 'finish', detail: { journey: result.journey } });
        resolved.onFinish(result);
      },
      setTitle: (screen: string, invalid: boolean) => {
        // A microtask: a host that names its page in an effect of its own has done so by then.
        queueMicrotask(() => {
          if (hostTitle.current === null) hostTitle.current = document.title;
          const named = hostTitle.current ? `${screen} – ${hostTitle.current}` : screen;
          document.title = invalid ? `${t('page.errorPrefix')} ${named}` : named;
        });
      },
    }),
    [resolved, idPrefix],
  );
  useEffect(
    () => () => {
      if (hostTitle.current !== null) document.title = hostTitle.current;
    },
    [],
  );
  useEffect(() => {
    if (!finished) return;
    doneRef.current?.focus();
    // The finished state is a screen of its own: its text names the window too.
    widget.setTitle(t(finished.journey === 'STEPUP' ? 'page.doneStepUp' : 'page.doneLogin'), false);
  }, [finished, widget]);
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
      <div className="gh-signin" data-screen-size={resolved.appScreenSize}>
        {finished ? (
          <p className="gh-signin__done" role="status" tabIndex={-1} ref={doneRef}>
            {t(finished.journey === 'STEPUP' ? 'page.doneStepUp' : 'page.doneLogin')}
          </p>
        ) : (
          // Step-up starts at the factor part: the user is already signed in (widget spec §1). It
          // first extends the session (the extend-session path), which also finds an ended one.
          <IsolatedRouter start={resolved.journey === 'STEPUP' ? routes.extendSession : routes.login}>
            <Screens />
          </IsolatedRouter>
        )}
      </div>
    </WidgetContext.Provider>
  );
}
