import { SignIn, type SignInConfig } from '@gatehouse/signin';
import { Alert, Card } from '@gatehouse/ui';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAnnounce } from '../announcer.tsx';
import { serviceData } from '../api.ts';
import { currentEnvironment } from '../environment.ts';
import { messages } from '../messages.ts';
import { settings } from '../settings.ts';
import { Shell } from '../shell/Shell.tsx';
import { usePageTitle } from '../usePageTitle.ts';

/** Portal spec §2 "Login screen": the widget in a fixed-width container with a live region. */
const SuccessToast = lazy(() => import('./lazy.ts').then((m) => ({ default: m.SuccessToast })));

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { toast?: { title: string; message: string }; notice?: string } | null;
  // Shown once: the state is cleared so a reload or Back does not bring the toast back.
  const [toast] = useState(state?.toast);
  const [notice] = useState(state?.notice);
  usePageTitle(messages.signInTitle);
  useEffect(() => {
    if (state?.toast || state?.notice) navigate('.', { replace: true, state: null });
  }, [state, navigate]);
  const announce = useAnnounce();
  const config = useMemo<SignInConfig>(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
      endpoint: currentEnvironment().serviceHost,
      journey: 'LOGIN',
      subEvent: settings.subEvent,
      sessionContext: settings.context,
      repPhone: settings.repPhone,
      businessSMSText: settings.smsSender,
      // Portal spec §2: both the identity and the reset-password endpoints lead to #/username.
      identityEndpoint: settings.usernameRoute,
      resetUrl: settings.usernameRoute,
      // Portal spec §3: the login result (username and the two status codes) is kept between
      // screens; it comes from the widget's page events, never with a password.
      onEvent: (event) => {
        if (event.type !== 'status' || !event.detail) return;
        const { call, code, username } = event.detail as { call: string; code: number; username?: string };
        if (call === 'passwordAuthentication') {
          serviceData.saveLoginResult({
            username: username ?? '',
            pwdAuthStatusCode: code,
            sessionStatusCode: 0,
          });
        } else if (call === 'sessionLogin') {
          serviceData.updateLoginResult({ sessionStatusCode: code });
        }
      },
      onFinish: (result) => {
        // Signed in: the login result has served its purpose (portal spec §3).
        serviceData.clearLoginResult();
        if (result.context === settings.context) {
          announce(messages.signedInAnnouncement);
          navigate(settings.homeRoute);
        }
      },
    }),
    [navigate, announce],
  );
  return (
    <Shell supportLine="login">
      {notice ? (
        <Card width={448}>
          <Alert variant="critical">{notice}</Alert>
        </Card>
      ) : null}
      <Card width={448}>
        <section className="portal__widget" aria-label={messages.signInRegion}>
          <SignIn config={config} />
        </section>
      </Card>
      {toast ? (
        <Suspense fallback={null}>
          <SuccessToast title={toast.title} message={toast.message} />
        </Suspense>
      ) : null}
    </Shell>
  );
}
