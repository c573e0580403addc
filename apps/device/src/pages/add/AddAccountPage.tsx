import { defaultLanguage } from '@gatehouse/i18n';
import { SignIn, type SignInConfig } from '@gatehouse/signin';
import { Alert, Button, TextInput } from '@gatehouse/ui';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { deviceApi } from '../../api.ts';
import { useDeviceKey } from '../../device/DeviceKeyContext.tsx';
import { t, textsLanguage } from '../../messages/index.ts';
import { routes, useNavigate } from '../../router.ts';
import { settings } from '../../settings.ts';
import { usePage } from '../../usePage.ts';
import { nameError } from '../device/Accounts.tsx';
import { defaultDeviceName } from './deviceName.ts';
import { ta } from './texts.ts';

const enrolmentFactors = (
  ['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL', 'OTP-REP', 'TOTPSVIP', 'TOTPAUTHN'] as const
).map((type) => ({ type }));

type Phase = { kind: 'signIn' } | { kind: 'registering' } | { kind: 'failed'; message: string };

/**
 * Adds an account: the customer signs in with the widget (LOGIN journey), then this device's key
 * is registered for that account (POST deviceRegister, proof 'register'), and the web session,
 * which the device app does not need, is ended. Registration needs a second factor other than
 * push (decision 022); the widget follows the factor the server offers, so the page says so.
 */
export function AddAccountPage() {
  const keyState = useDeviceKey();
  const navigate = useNavigate();
  const [name, setName] = useState(() => defaultDeviceName());
  const [phase, setPhase] = useState<Phase>({ kind: 'signIn' });
  const [attempt, setAttempt] = useState(0);
  const failed = phase.kind === 'failed';
  const heading = usePage(ta('addTitle'), { hasErrors: failed });
  const failure = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failed) failure.current?.focus();
  }, [failed]);

  // The latest name, for the finish callback of a widget that was configured once.
  const nameRef = useRef(name);
  nameRef.current = name;
  const key = keyState.status === 'ready' ? keyState.key : undefined;

  // The pages' language: the widget inside them speaks it too.
  const language = textsLanguage() ?? defaultLanguage;
  const config = useMemo<SignInConfig>(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
      language,
      endpoint: '',
      journey: 'LOGIN',
      subEvent: settings.subEvent,
      sessionContext: settings.context,
      businessSMSText: settings.smsSender,
      repPhone: settings.repPhone,
      headingLevel: 2,
      // Every factor but push: a device cannot vouch for its own enrolment (the server refuses it too).
      authenticators: enrolmentFactors,
      onFinish: () => {
        if (!key) return;
        const chosen = nameError(nameRef.current) ? defaultDeviceName() : nameRef.current.trim();
        setPhase({ kind: 'registering' });
        void (async () => {
          const answer = await deviceApi.register(key, chosen);
          // The session served only this call: ended whatever the answer.
          await deviceApi.signOut();
          if (answer.ok) {
            navigate(routes.device, {
              state: { notice: ta('addRegistered', answer.data.registration.username) },
            });
          } else {
            setPhase({ kind: 'failed', message: answer.message });
          }
        })();
      },
    }),
    [key, navigate, language],
  );

  return (
    <div className="device__page">
      <h1 ref={heading} tabIndex={-1}>
        {ta('addTitle')}
      </h1>
      <p>{ta('addIntro')}</p>
      {keyState.status === 'unavailable' ? <Alert variant="critical">{t('keyUnavailable')}</Alert> : null}
      {failed ? (
        <Alert variant="critical" ref={failure} tabIndex={-1}>
          {phase.message}
        </Alert>
      ) : null}
      {key ? (
        <>
          <TextInput
            id="device-name"
            label={ta('addNameLabel')}
            hint={ta('addNameHint')}
            value={name}
            maxLength={60}
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
            error={nameError(name)}
          />
          {phase.kind === 'registering' ? (
            <p role="status">{ta('addRegistering')}</p>
          ) : failed ? (
            <div className="device__actions">
              <Button
                onClick={() => {
                  setAttempt((n) => n + 1);
                  setPhase({ kind: 'signIn' });
                }}
              >
                {ta('addTryAgain')}
              </Button>
            </div>
          ) : (
            <section className="device__section" aria-label={ta('addSignIn')}>
              <Suspense fallback={<p>{t('loading')}</p>}>
                <SignIn key={attempt} config={config} />
              </Suspense>
            </section>
          )}
        </>
      ) : keyState.status === 'loading' ? (
        <p>{t('loading')}</p>
      ) : null}
      <p>
        <a className="device__link" href={`#${routes.device}`}>
          {ta('backToDevice')}
        </a>
      </p>
    </div>
  );
}
