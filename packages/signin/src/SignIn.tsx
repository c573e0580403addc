import { limits } from '@gatehouse/contract/client';
import { pickLanguage } from '@gatehouse/i18n';
import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Route, Switch } from 'wouter';
import { ApiClient } from './api/client.ts';
import { type FinishResult, resolveConfig, type SignInConfig } from './config.ts';
import { useWidget as useWidgetInternal, WidgetContext } from './context.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { loadScreenTexts, loadTexts, t, textsLanguage } from './messages/index.ts';
import { useLocationState, WidgetRouter } from './router.tsx';
import { routes } from './routes.ts';
import { ErrorScreen } from './screens/error/ErrorScreen.tsx';
import { LoginScreen } from './screens/login/LoginScreen.tsx';
import { Loading } from './shared/Loading.tsx';
import { onDemand } from './shared/onDemand.tsx';
import { alertChunk } from './shared/onDemandAlert.tsx';
import { answerTables } from './shared/useCall.ts';
import { useShownLanguage } from './shared/useShownLanguage.ts';
import './signin.css';

// Screens off the login route load on demand (issue 4: the login route stays within budget),
// fetched when the browser is idle so the next screen does not wait (issue 14), and their routes
// with them (screens/Routes.tsx): each factor's by its entry (screens/<key>/entry.ts). Their texts
// come with them, in the current language.
const screens = onDemand(() =>
  import('./screens/lazy.ts').then(async (module) => {
    await loadScreenTexts(module.screenTexts);
    return module;
  }),
);
const StatePage = screens.component((m) => m.StatePage);
/** Every route but the login screen's and the error page's, with the screens they show. */
const OffLoginRoutes = screens.component((m) => m.OffLoginRoutes);

/**
 * The error route: an ended session (HTTP 401) has its own page, '401 Unauthorized' with a way to
 * sign in again (widget spec §8); anything else is the generic error card.
 */
function ErrorRoute() {
  const state = useLocationState<{ reason?: string }>();
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
        <Switch>
          <Route path={routes.login}>
            <LoginScreen />
          </Route>
          <Route path={routes.error}>
            <ErrorRoute />
          </Route>
          <Route>
            <OffLoginRoutes />
          </Route>
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}

/** The sign-in widget for React hosts. `mount()` wraps it for any page. */
export function SignIn({ config }: { config: SignInConfig }) {
  const resolved = useMemo(() => resolveConfig(config), [config]);
  const language = pickLanguage([resolved.language, ...(globalThis.navigator?.languages ?? [])]);
  // The language's texts before the first screen (no flash of another language); a new language
  // re-renders every screen in it.
  const shown = useShownLanguage(language, loadTexts, textsLanguage);
  const idPrefix = `gh${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [finished, setFinished] = useState<FinishResult | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const finishedOnce = useRef(false);
  // The host page's own title, read once (after the host's effects) and put back on unmount.
  const hostTitle = useRef<string | null>(null);
  const ownTitle = useRef<string | null>(null);
  const widget = useMemo(() => {
    const client = new ApiClient({
      endpoint: resolved.endpoint,
      appId: resolved.appId,
      appName: resolved.appName,
      ...(resolved.sessionContext ? { sessionContext: resolved.sessionContext } : {}),
      language,
    });
    return {
      config: resolved,
      idPrefix,
      client,
      // The device-risk step (widget spec §7), in the login journey only.
      // On demand: it is off by default (decision 045), so its code is not in the login route.
      risk:
        resolved.deviceRisk && resolved.journey === 'LOGIN'
          ? import('./shared/deviceRisk.ts').then((m) => new m.DeviceRisk(resolved.deviceRisk!, client))
          : null,
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
          // The host's title is whatever the page shows that the widget did not set: a host that
          // renames its page (a new language) is followed, never the first name kept.
          if (hostTitle.current === null || document.title !== ownTitle.current) {
            hostTitle.current = document.title;
          }
          const host = hostTitle.current;
          // A host page already named after the screen ('Verify your identity – Prime Portal')
          // is not named twice.
          const named = !host ? screen : host.startsWith(screen) ? host : `${screen} – ${host}`;
          document.title = invalid ? `${t('page.errorPrefix')} ${named}` : named;
          ownTitle.current = document.title;
        });
      },
    };
  }, [resolved, idPrefix, language]);
  useEffect(() => {
    widget.risk?.then((step) => step.start());
    return () => void widget.risk?.then((step) => step.stop());
  }, [widget]);
  useEffect(
    () => () => {
      // The host's title back, unless the host has named its page since.
      if (hostTitle.current !== null && document.title === ownTitle.current)
        document.title = hostTitle.current;
    },
    [],
  );
  // Once the login route is up: the other screens and the status tables, while the browser is idle.
  useEffect(() => {
    screens.prefetch();
    answerTables.prefetch();
    alertChunk.prefetch();
  }, []);
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
  // Nothing until the language's texts are in (a host that loads them first, loadSignInTexts,
  // renders the first screen at once and nothing shifts).
  // Nothing before the first language's texts; on a switch the screen stays, in the last language
  // until the next one's texts arrive: the journey (step, typed code, sent code) is kept.
  if (shown === undefined) return null;
  return (
    <WidgetContext.Provider value={widget}>
      <div className="gh-signin" data-screen-size={resolved.appScreenSize} lang={shown} ref={rootRef}>
        {finished ? (
          <p className="gh-signin__done" role="status" tabIndex={-1} ref={doneRef}>
            {t(finished.journey === 'STEPUP' ? 'page.doneStepUp' : 'page.doneLogin')}
          </p>
        ) : (
          // Step-up starts at the factor part: the user is already signed in (widget spec §1). It
          // first extends the session (the extend-session path), which also finds an ended one.
          // A signed-in customer's change of username opens on its screen (config `start`).
          <WidgetRouter
            root={rootRef}
            start={
              resolved.start === 'changeUsername'
                ? routes.createUsername
                : resolved.start === 'ssoError'
                  ? routes.ssoError
                  : resolved.journey === 'STEPUP'
                    ? routes.extendSession
                    : routes.login
            }
          >
            <Screens />
          </WidgetRouter>
        )}
      </div>
    </WidgetContext.Provider>
  );
}
