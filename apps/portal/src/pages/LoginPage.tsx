import { SignIn, type SignInConfig } from '@gatehouse/signin';
import { Card } from '@gatehouse/ui';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { serviceData } from '../api.ts';
import { messages } from '../messages.ts';
import { settings } from '../settings.ts';
import { Shell } from '../shell/Shell.tsx';

/** Portal spec §2 "Login screen": the widget in a fixed-width container with a live region. */
const SuccessToast = lazy(() => import('./SuccessToast.tsx').then((m) => ({ default: m.SuccessToast })));

export function LoginPage() {
  const toast = (useLocation().state as { toast?: { title: string; message: string } } | null)?.toast;
  const navigate = useNavigate();
  const [announcement, setAnnouncement] = useState('');
  const config = useMemo<SignInConfig>(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
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
        if (result.context === settings.context) {
          setAnnouncement(messages.signedInAnnouncement);
          navigate(settings.homeRoute);
        }
      },
    }),
    [navigate],
  );
  return (
    <Shell supportLine="login">
      <Card width={448}>
        <section className="portal__widget" aria-label={messages.signInRegion}>
          <SignIn config={config} />
          <div aria-live="polite" className="gh-visually-hidden">
            {announcement}
          </div>
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
