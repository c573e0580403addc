import { Alert, Button, CodeInput, ErrorSummary, type ErrorSummaryItem, TextInput } from '@gatehouse/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { consoleApi } from '../api.ts';
import { t } from '../messages.ts';
import { routes } from '../routes.ts';
import { useSession } from '../session.tsx';
import { usePage } from '../usePage.ts';

/**
 * Staff sign-in: name and password, then the 6-digit code of the authenticator app. There is no
 * sign-up and no password reset here: staff are created by `npm run staff` (docs/operations.md).
 */
export function SignInPage() {
  const { signedIn, notice } = useSession();
  const [, navigate] = useLocation();
  const [step, setStep] = useState<'password' | 'factor'>('password');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [failure, setFailure] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const hasErrors = errors.length > 0 || !!failure;
  const heading = usePage(step === 'password' ? t('signIn.title') : t('signIn.factorTitle'), hasErrors);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the second step takes focus to its heading
  useEffect(() => {
    if (step === 'factor') heading.current?.focus();
  }, [step]);

  const fail = (items: ErrorSummaryItem[], text?: string) => {
    setErrors(items);
    setFailure(text);
    setAttempt((n) => n + 1);
  };

  async function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const items: ErrorSummaryItem[] = [];
    if (!name.trim()) items.push({ fieldId: 'staff-name', message: t('signIn.nameRequired') });
    if (!password) items.push({ fieldId: 'staff-password', message: t('signIn.passwordRequired') });
    if (items.length) return fail(items);
    setBusy(true);
    const answer = await consoleApi.signIn(name.trim(), password);
    setBusy(false);
    setPassword('');
    if (!answer.ok) return fail([], answer.message);
    setErrors([]);
    setFailure(undefined);
    setStep('factor');
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (code.length !== 6) return fail([{ fieldId: 'staff-code', message: t('signIn.factorCodeRequired') }]);
    setBusy(true);
    const answer = await consoleApi.factor(code);
    setBusy(false);
    setCode('');
    if (!answer.ok) {
      // The password step ran out or was locked: start again from it.
      if (answer.signedOut || answer.code === 1491) setStep('password');
      return fail([], answer.message);
    }
    signedIn(answer.data);
    navigate(routes.customer, { replace: true });
  }

  const fieldError = (id: string) => errors.find((e) => e.fieldId === id)?.message;
  return (
    <div className="gh-shell__page">
      <h1 ref={heading} tabIndex={-1}>
        {step === 'password' ? t('signIn.title') : t('signIn.factorTitle')}
      </h1>
      <ErrorSummary errors={errors} attempt={attempt} />
      {failure ? (
        <Alert variant="critical" key={attempt}>
          {failure}
        </Alert>
      ) : notice && step === 'password' ? (
        <Alert variant="info">{notice}</Alert>
      ) : null}
      {step === 'password' ? (
        <form className="console__form gh-shell__section" onSubmit={submitPassword} noValidate>
          <p>{t('signIn.intro')}</p>
          <TextInput
            id="staff-name"
            label={t('signIn.staffName')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={name}
            error={fieldError('staff-name')}
            onChange={(e) => setName(e.target.value)}
          />
          <TextInput
            id="staff-password"
            label={t('signIn.password')}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            error={fieldError('staff-password')}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="gh-shell__actions">
            <Button type="submit" loading={busy}>
              {t('signIn.submit')}
            </Button>
          </div>
        </form>
      ) : (
        <form className="console__form gh-shell__section" onSubmit={submitCode} noValidate>
          <p>{t('signIn.factorIntro')}</p>
          <CodeInput
            id="staff-code"
            label={t('signIn.factorCode')}
            autoComplete="one-time-code"
            required
            value={code}
            error={fieldError('staff-code')}
            onValueChange={setCode}
          />
          <div className="gh-shell__actions">
            <Button type="submit" loading={busy}>
              {t('signIn.verify')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setErrors([]);
                setFailure(undefined);
                setStep('password');
              }}
            >
              {t('signIn.startAgain')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
