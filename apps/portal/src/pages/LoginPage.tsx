import { headers, customerPaths as paths } from '@gatehouse/contract/client';
import { OnDemandAlert, SignIn, type SignInConfig } from '@gatehouse/signin';
import { Card, useAnnounce } from '@gatehouse/ui';
import { type FormEvent, Suspense, useEffect, useMemo, useState } from 'react';
import { api, clearSessionCookies, journeyMemory, serviceData } from '../api.ts';
import { currentEnvironment } from '../environment.ts';
import { useLanguage } from '../language.tsx';
import { leaveTo } from '../navigation.ts';
import { useNavigate, usePageState } from '../router.ts';
import { settings } from '../settings.ts';
import { Shell } from '../shell/Shell.tsx';
import { t } from '../texts.ts';
import { usePageTitle } from '../usePageTitle.ts';
import { pages } from './onDemand.ts';

/** Portal spec §2 "Login screen": the widget in a fixed-width container with a live region. */
const SuccessToast = pages.component((m) => m.SuccessToast);

export function LoginPage() {
  const navigate = useNavigate();
  const state = usePageState<{ toast?: { title: string; message: string }; notice?: string }>();
  // Shown once: the state is cleared so a reload or Back does not bring the toast back.
  const [toast] = useState(state?.toast);
  const [notice, setNotice] = useState(state?.notice);
  usePageTitle(t('shell.signInTitle'));
  useEffect(() => {
    if (state?.toast || state?.notice) navigate('/login', { replace: true, state: null });
  }, [state, navigate]);
  const announce = useAnnounce();
  // The widget shows the portal's language (the shell's switch).
  const { language } = useLanguage();
  const config = useMemo<SignInConfig>(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
      language,
      endpoint: currentEnvironment().serviceHost,
      journey: 'LOGIN',
      deviceRisk: currentEnvironment().deviceRisk,
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
        serviceData.clear();
        if (result.context === settings.context) {
          // Portal spec §2: a callback sends the browser to the portal address.
          announce(t('shell.signedInAnnouncement'));
          leaveTo(currentEnvironment().portalAddress);
          return;
        }
        // A session for another product's context: not ours to open. End it, and say so.
        clearSessionCookies();
        void api
          .request('DELETE', paths.sessionLogout, {
            body: { requestBaseInfo: { sessionTokens: {} } },
            headers: { [headers.acceptTokenType]: 'FAC' },
          })
          .catch(() => undefined);
        setNotice(t('shell.otherContext'));
      },
    }),
    [announce, language],
  );
  // The notice takes focus once its alert is on the page (it may still be loading when the page
  // renders), after the widget's own effects, and again when its text changes.
  const [noticeElement, setNoticeElement] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    if (notice) noticeElement?.focus();
  }, [notice, noticeElement]);
  /**
   * The initial password of portal spec §3, for the enrollment call's third form: read from the
   * widget's form as it is submitted, kept in memory only (docs/decisions/007-portal-recovery.md).
   */
  const keepInitialPassword = (event: FormEvent<HTMLElement>) => {
    const field = (event.target as HTMLElement).querySelector?.<HTMLInputElement>(
      'input[autocomplete="current-password"]',
    );
    if (field?.value) journeyMemory.rememberInitialPassword(field.value);
  };
  return (
    <Shell supportLine="login">
      {/* Before the card: on a narrow screen the toast takes its place in the flow, above. */}
      {toast ? (
        <Suspense fallback={null}>
          <SuccessToast title={toast.title} message={toast.message} />
        </Suspense>
      ) : null}
      {notice ? (
        <Suspense fallback={null}>
          <Card width={448}>
            <OnDemandAlert variant="critical" ref={setNoticeElement} tabIndex={-1}>
              {notice}
            </OnDemandAlert>
          </Card>
        </Suspense>
      ) : null}
      <Card width={448}>
        <section
          className="portal__widget"
          aria-label={t('shell.signInRegion')}
          onSubmitCapture={keepInitialPassword}
        >
          <SignIn config={config} />
        </section>
      </Card>
    </Shell>
  );
}
