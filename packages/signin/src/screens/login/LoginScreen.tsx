import { limits } from '@gatehouse/contract';
import { Alert, Button, TextInput } from '@gatehouse/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useWidget } from '../../context.tsx';
import { t } from '../../messages/index.ts';
import { ScreenHeading } from '../../shared/Heading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { useHeadingFocus } from '../../shared/useHeadingFocus.ts';

type FieldErrors = { username?: string; password?: string };

/** Widget spec §2 "Login": username, password with show/hide, Log in, server messages. */
export function LoginScreen() {
  const { config, idPrefix } = useWidget();
  const call = useCall();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useHeadingFocus(headingRef);

  const id = (name: string) => `${idPrefix}-${name}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const next: FieldErrors = {};
    if (!username.trim()) next.username = t('login.usernameRequired');
    if (!password) next.password = t('login.passwordRequired');
    setErrors(next);
    setAlert(null);
    if (next.username) return usernameRef.current?.focus();
    if (next.password) return passwordRef.current?.focus();

    setBusy(true);
    const outcome = await call('passwordAuthentication', {
      body: { username: username.trim(), password },
    });
    setBusy(false);
    if (outcome.kind === 'error') {
      setPassword('');
      setAlert(outcome.text);
      usernameRef.current?.focus();
    }
  }

  return (
    <section className="gh-signin__screen" aria-labelledby={id('login-heading')}>
      <ScreenHeading id={id('login-heading')} ref={headingRef}>
        {t('login.heading')}
      </ScreenHeading>
      {alert ? (
        <Alert variant="critical" id={id('login-alert')}>
          {alert}
        </Alert>
      ) : null}
      <form
        className="gh-signin__form"
        noValidate
        onSubmit={submit}
        aria-describedby={alert ? id('login-alert') : undefined}
      >
        <TextInput
          id={id('username')}
          ref={usernameRef}
          label={t('login.username')}
          required
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={limits.usernameInputMax}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={errors.username}
        />
        <TextInput
          id={id('password')}
          ref={passwordRef}
          type="password"
          label={t('login.password')}
          required
          autoComplete="current-password"
          maxLength={limits.passwordInputMax}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <Button type="submit" variant="primary" fullWidth loading={busy}>
          {t('login.submit')}
        </Button>
      </form>
      {config.identityEndpoint ? (
        <p className="gh-signin__links">
          <a href={config.identityEndpoint}>{t('login.forgotUsername')}</a>
        </p>
      ) : null}
    </section>
  );
}
