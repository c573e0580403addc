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

/**
 * The factors the widget offers are the server's, less push: this device cannot answer a push
 * before it is added, and the demo accounts' seeded devices have no one to answer them
 * (docs/decisions/039b-portal-and-device-through-the-registry.md).
 */
const notHere = ['PUSH'];

type Phase =
  | { kind: 'signIn' }
  | { kind: 'stepUp' }
  | { kind: 'registering' }
  | { kind: 'failed'; message: string };

/**
 * Adds an account: the customer signs in with the widget (LOGIN journey), verifies their identity
 * again (the widget's STEPUP journey: the security page's step-up, which only an established
 * credential satisfies, docs/decisions/030-credential-lifecycle.md), then this device's key is
 * registered for that account (POST deviceRegister, proof 'register'), and the web session, which
 * the device app does not need, is ended. The sign-in alone never adds a device (a stolen session
 * cookie must not), so the page says why it asks twice.
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
  /** Registers this device's key once the step-up is done; the session is ended whatever the answer. */
  const registerDevice = () => {
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
  };
  const registerRef = useRef(registerDevice);
  registerRef.current = registerDevice;

  const base = useMemo(
    () => ({
      appId: settings.appId,
      appName: settings.appName,
      language,
      endpoint: '',
      subEvent: settings.subEvent,
      sessionContext: settings.context,
      businessSMSText: settings.smsSender,
      repPhone: settings.repPhone,
      headingLevel: 2 as const,
      excludeAuthenticators: notHere,
    }),
    [language],
  );
  const config = useMemo<SignInConfig>(
    () => ({ ...base, journey: 'LOGIN', onFinish: () => setPhase({ kind: 'stepUp' }) }),
    [base],
  );
  const stepUpConfig = useMemo<SignInConfig>(
    () => ({
      ...base,
      journey: 'STEPUP',
      onFinish: () => registerRef.current(),
      onCancel: () => {
        void deviceApi.signOut();
        setAttempt((n) => n + 1);
        setPhase({ kind: 'signIn' });
      },
    }),
    [base],
  );

  return (
    <div className="gh-shell__page">
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
          ) : phase.kind === 'stepUp' ? (
            <section className="gh-shell__section" aria-label={ta('addStepUpRegion')}>
              <p>{ta('addStepUpIntro')}</p>
              <Suspense fallback={<p>{t('loading')}</p>}>
                <SignIn key={`stepup-${attempt}`} config={stepUpConfig} />
              </Suspense>
            </section>
          ) : failed ? (
            <div className="gh-shell__actions">
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
            <section className="gh-shell__section" aria-label={ta('addSignIn')}>
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
        <a className="gh-shell__link" href={`#${routes.device}`}>
          {ta('backToDevice')}
        </a>
      </p>
    </div>
  );
}
