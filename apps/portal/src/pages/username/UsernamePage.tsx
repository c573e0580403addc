import {
  type CoreCallName,
  clientAction,
  limits,
  customerPaths as paths,
  Status,
} from '@gatehouse/contract/client';
import { TransportError } from '@gatehouse/signin';
import {
  Alert,
  Button,
  Card,
  CodeInput,
  Dialog,
  DialogClose,
  ErrorSummary,
  MaskedText,
  Popover,
  RadioGroup,
  TextInput,
  Tooltip,
} from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, serviceData } from '../../api.ts';
import { useNavigate } from '../../router.ts';

import { settings } from '../../settings.ts';
import { Shell } from '../../shell/Shell.tsx';
import { usePageTitle } from '../../usePageTitle.ts';
import './UsernamePage.css';
import { t } from '../../texts.ts';

/** Portal spec §4 steps: 0 channel, 1 delivery (e-mail or phone), 2-4 and 6 the code, 5 the help line. */
type Step = 'username' | 'channel' | 'email' | 'phone' | 'code' | 'rep';
type Delivery = 'EMAIL' | 'TEXT' | 'CALL' | 'REP';
type Phone = { type: string; value: string };
type Notice = { kind: 'info' | 'critical'; text: string } | null;
type CallResult = Awaited<ReturnType<typeof api.request>>;

/** Portal spec §7: the send and check bodies carry requestBaseInfo. */
const requestBaseInfo = { sessionTokens: {} };
const support = () => t('recovery.contactSupport', settings.supportEmail);
const generic = () => t('recovery.genericError', settings.supportEmail);

/** What the call's outcome table tells the client to do with the answer's code. */
const actionOf = (call: CoreCallName, result: CallResult) => clientAction(call, result.status.code);
const succeeded = (call: CoreCallName, result: CallResult) => actionOf(call, result)?.kind === 'SUCCESS';

/** HTTP 429: say to wait (the server's text gives the time), never 'invalid'. */
const waitText = (result: CallResult): string | null =>
  result.http === 429 || result.status.code === Status.RATE_LIMITED
    ? result.status.message || t('recovery.rateLimited')
    : null;

/** A transport failure: no answer, or the service itself failed. */
async function request<T>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query?: Record<string, string>,
) {
  const result = await api.request<T>(method, path, {
    ...(body !== undefined ? { body } : {}),
    ...(query ? { query } : {}),
  });
  if (result.http >= 500) throw new TransportError(`HTTP ${result.http}`);
  return result;
}

/**
 * Portal spec §2 "Username / one-time code screen" and §4: username, the e-mail step, the code
 * step; or straight to the e-mail step when the stored login result says so.
 */
export function UsernamePage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('username');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  /** The delivery options this account may recover by (server: RECOVERY_CHANNELS, established contacts). */
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [phones, setPhones] = useState<Phone[]>([]);
  const [delivery, setDelivery] = useState<Delivery>('EMAIL');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [notice, setNotice] = useState<Notice>(null);
  /** One more on every failed submit: the error summary and alert are announced again. */
  const [attempt, setAttempt] = useState(0);
  const failed = () => setAttempt((n) => n + 1);
  const [skipInfo, setSkipInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [resendBlocked, setResendBlocked] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const resendRef = useRef<HTMLButtonElement>(null);
  /** Closing the resend dialog puts focus back on Resend Code, or on the code field. */
  const closeConfirm = (open: boolean) => {
    setConfirmOpen(open);
    if (!open) requestAnimationFrame(() => (resendRef.current ?? codeRef.current)?.focus());
  };
  const heading = useRef<HTMLHeadingElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const earlierStatus = useRef<number>(0);
  const started = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each step moves focus to its heading when it opens
  useEffect(() => {
    heading.current?.focus();
  }, [step]);
  const hasErrors = Boolean(fieldError) || notice?.kind === 'critical';
  const titles: Record<Step, string> = {
    username: t('recovery.confirmIdentity'),
    channel: t('recovery.channelHeading'),
    email: t('recovery.extraStep'),
    phone: t('recovery.phoneHeading'),
    code: delivery === 'REP' ? t('recovery.repCodeHeading') : t('recovery.confirmIdentity'),
    rep: t('recovery.repHeading'),
  };
  usePageTitle(titles[step], hasErrors);
  const phonesFor = (d: Delivery) => phones.filter((p) => p.type === (d === 'CALL' ? 'VOICE' : 'TEXT'));
  /** Where the code goes, masked, as the resend dialog names it. */
  const destination = delivery === 'EMAIL' ? email : phone;

  /** After identify: fetch the address on file and show the e-mail step. */
  async function toEmailStep(): Promise<boolean> {
    try {
      const result = await request<{
        email?: Array<{ value: string }>;
        phone?: Phone[];
        deliveries?: Delivery[];
      }>('GET', paths.identityAttributes, undefined, { attributes: 'email,phone,deliveries' });
      const data = result.envelope?.successData;
      const value = data?.email?.[0]?.value ?? '';
      const offered = data?.deliveries ?? (value ? ['EMAIL' as const] : []);
      if (!succeeded('attributes', result) || !offered.length) {
        setNotice({ kind: 'critical', text: waitText(result) ?? generic() });
        failed();
        return false;
      }
      setEmail(value);
      setPhones(data?.phone ?? []);
      setDeliveries(offered);
      // Spec §2: the e-mail step follows the username; the other ways are a choice away (step 0).
      const byEmail = offered.includes('EMAIL') && !!value;
      setDelivery(byEmail ? 'EMAIL' : offered[0]!);
      setStep(byEmail ? 'email' : 'channel');
      return true;
    } catch {
      setNotice({ kind: 'critical', text: generic() });
      failed();
      return false;
    }
  }

  // On entry: skip the username step when the login result says a new password is due.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on entry (started guards a second run)
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const stored = serviceData.loginResult();
    if (!stored?.username) return;
    const { sessionStatusCode, pwdAuthStatusCode } = stored;
    const expired = pwdAuthStatusCode === Status.PASSWORD_EXPIRED;
    const due =
      sessionStatusCode === Status.CALLBACKS_REQUIRED ||
      sessionStatusCode === Status.AUTH_NOT_COMPLETED ||
      expired;
    if (!due) return;
    earlierStatus.current = sessionStatusCode;
    void (async () => {
      setBusy(true);
      try {
        const identified = await request('POST', paths.identifyUsername, { username: stored.username });
        if (succeeded('identifyUsername', identified) && (await toEmailStep())) {
          setUsername(stored.username);
          // 1201 (authentication not completed) is neither temporary nor expired: no info text.
          setSkipInfo(
            expired
              ? t('recovery.skipExpired')
              : sessionStatusCode === Status.CALLBACKS_REQUIRED
                ? t('recovery.skipTemporary')
                : null,
          );
        }
      } catch {
        // The username step stays; the person can start from there.
      }
      setBusy(false);
    })();
  }, []);

  const cancel = () => {
    serviceData.clear();
    navigate('/login');
  };

  async function submitUsername(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setNotice(null);
    if (!username.trim()) {
      setFieldError(t('recovery.usernameRequired'));
      failed();
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      const result = await request('POST', paths.identifyUsername, { username: username.trim() });
      const wait = waitText(result);
      if (wait) {
        // Too many attempts: the username was not wrong, so it stays.
        setNotice({ kind: 'critical', text: wait });
        failed();
      } else if (!succeeded('identifyUsername', result)) {
        setUsername('');
        setFieldError(t('recovery.invalidInformation'));
        failed();
      } else {
        await toEmailStep();
      }
    } catch {
      setNotice({ kind: 'critical', text: support() });
      failed();
    }
    setBusy(false);
  }

  async function send(): Promise<void> {
    setBusy(true);
    setNotice(null);
    try {
      const result =
        delivery === 'EMAIL'
          ? await request('POST', paths.otpEmail, { requestBaseInfo, email })
          : await request('POST', paths.recoveryCode, { requestBaseInfo, delivery, contact: phone });
      if (result.status.code !== Status.SUCCESS) {
        setNotice({ kind: 'critical', text: waitText(result) ?? support() });
        failed();
      } else {
        setCodeSent(true);
        setCode('');
        setStep('code');
        // E-mail: the spec's words; a text or a call: the server's, naming the number.
        setNotice({
          kind: 'info',
          text: delivery === 'EMAIL' ? t('recovery.codeSent') : result.status.message,
        });
      }
    } catch {
      setNotice({ kind: 'critical', text: generic() });
      failed();
    }
    setBusy(false);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!code) {
      setFieldError(t('recovery.codeRequired'));
      failed();
      return;
    }
    if (code.length !== limits.codeLength) {
      setFieldError(t('recovery.codeShort'));
      failed();
      return;
    }
    setFieldError(undefined);
    setNotice(null);
    setBusy(true);
    try {
      const byEmail = delivery === 'EMAIL';
      const result = byEmail
        ? await request('PUT', paths.otpEmail, { requestBaseInfo, securityCode: code })
        : await request('PUT', paths.recoveryCode, { requestBaseInfo, delivery, securityCode: code });
      const wait = waitText(result);
      const action = actionOf(byEmail ? 'otpCheckEmail' : 'recoveryCheck', result);
      if (action?.kind === 'SUCCESS') {
        // Portal spec §4 step 4: a correct code stores the new session status.
        serviceData.updateLoginResult({ username, sessionStatusCode: result.status.code });
        serviceData.markOtpConfirmed(username);
        setCode('');
        setUsername('');
        navigate(earlierStatus.current === Status.AUTH_NOT_COMPLETED ? '/login' : '/resetPassword');
        return;
      }
      if (wait) {
        setNotice({ kind: 'critical', text: wait });
      } else if (action?.kind === 'ERROR' && action.error === 'incorrectCode') {
        setCode('');
        setFieldError(t('recovery.incorrectCode'));
      } else {
        setCode('');
        setNotice({ kind: 'critical', text: result.status.message || support() });
      }
      failed();
    } catch {
      // Portal spec §4: after a transport error on the check, resend is blocked.
      setResendBlocked(true);
      setCodeSent(false);
      setNotice({ kind: 'critical', text: support() });
      failed();
    }
    setBusy(false);
  }

  const resend = () => {
    closeConfirm(false);
    if (resendBlocked) {
      setNotice({ kind: 'critical', text: support() });
      failed();
      return;
    }
    void send();
  };

  // Keyed by the attempt: a repeated failure inserts a new alert, which is announced again.
  const alert = notice ? (
    <Alert
      key={notice.kind === 'critical' ? attempt : 'info'}
      variant={notice.kind === 'info' ? 'info' : 'critical'}
    >
      <MaskedText>{notice.text}</MaskedText>
    </Alert>
  ) : null;
  /** GOV.UK: every failed submit puts the field's error in a summary that takes focus. */
  const summary = (fieldId: string) => (
    <ErrorSummary errors={fieldError ? [{ fieldId, message: fieldError }] : []} attempt={attempt} />
  );

  return (
    <Shell supportLine="login">
      {/* The step (portal spec §4's 0-6) names the screen state for the end-to-end axe inventory. */}
      <Card width={step === 'code' ? 400 : 448} data-step={step}>
        {step === 'channel' ? (
          <form
            className="portal-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setNotice(null);
              if (delivery === 'EMAIL') setStep('email');
              else if (delivery === 'REP') setStep('rep');
              else {
                setPhone(phonesFor(delivery)[0]?.value ?? '');
                setStep('phone');
              }
            }}
          >
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('recovery.channelHeading')}
            </h1>
            {alert}
            <RadioGroup
              id="recovery-channel"
              name="recovery-channel"
              legend={t('recovery.channelLegend')}
              value={delivery}
              onChange={(value) => setDelivery(value as Delivery)}
              options={deliveries.map((d) => ({
                value: d,
                label: (
                  <MaskedText>
                    {d === 'EMAIL'
                      ? t('recovery.channelEmail', email)
                      : d === 'TEXT'
                        ? t('recovery.channelText', phonesFor('TEXT')[0]?.value ?? '')
                        : d === 'CALL'
                          ? t('recovery.channelCall', phonesFor('CALL')[0]?.value ?? '')
                          : t('recovery.channelRep')}
                  </MaskedText>
                ),
              }))}
            />
            <div className="portal-form__actions">
              <Button type="submit" variant="primary">
                {t('recovery.continue')}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {t('recovery.cancel')}
              </Button>
            </div>
          </form>
        ) : null}

        {step === 'phone' ? (
          <form
            className="portal-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (!busy) void send();
            }}
          >
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('recovery.phoneHeading')}
            </h1>
            {alert}
            <RadioGroup
              id="recovery-phone"
              name="recovery-phone"
              legend={delivery === 'CALL' ? t('recovery.phoneLegendCall') : t('recovery.phoneLegendText')}
              value={phone}
              onChange={setPhone}
              options={[...new Set(phonesFor(delivery).map((p) => p.value))].map((value) => ({
                value,
                label: <MaskedText>{value}</MaskedText>,
              }))}
            />
            <div className="portal-form__actions">
              <Button type="submit" variant="primary" loading={busy}>
                {t('recovery.continue')}
              </Button>
              <Button variant="secondary" onClick={() => setStep('channel')}>
                {t('recovery.otherWay')}
              </Button>
            </div>
          </form>
        ) : null}

        {step === 'rep' ? (
          <div className="portal-form">
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('recovery.repHeading')}
            </h1>
            <p>{t('recovery.repBody', settings.repPhone)}</p>
            <div className="portal-form__actions">
              <Button
                variant="primary"
                onClick={() => {
                  setCode('');
                  setCodeSent(false);
                  setNotice(null);
                  setStep('code');
                }}
              >
                {t('recovery.continue')}
              </Button>
              <Button variant="secondary" onClick={() => setStep('channel')}>
                {t('recovery.otherWay')}
              </Button>
            </div>
          </div>
        ) : null}

        {step === 'username' ? (
          <form className="portal-form" noValidate onSubmit={submitUsername}>
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('recovery.confirmIdentity')}
            </h1>
            {summary('recovery-username')}
            <p>{t('recovery.usernamePrompt')}</p>
            {alert}
            <TextInput
              id="recovery-username"
              ref={usernameRef}
              label={t('recovery.usernameLabel')}
              required
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={50}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              error={fieldError}
            />
            <ul className="portal-form__notes">
              <li>{t('recovery.emailDelayNote')}</li>
              <li>{t('recovery.blockNote')}</li>
            </ul>
            <div className="portal-form__actions">
              <Button type="submit" variant="primary" loading={busy}>
                {t('recovery.continue')}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {t('recovery.cancel')}
              </Button>
            </div>
          </form>
        ) : null}

        {step === 'email' ? (
          <div className="portal-form">
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {t('recovery.extraStep')}
            </h1>
            {skipInfo ? <Alert variant="info">{skipInfo}</Alert> : null}
            {alert}
            <p>{t('recovery.emailOnFile', email)}</p>
            <p>{t('recovery.codeWillBeSent')}</p>
            <div className="portal-form__actions">
              <Button variant="primary" loading={busy} onClick={() => void send()}>
                {t('recovery.continue')}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {t('recovery.cancel')}
              </Button>
            </div>
            {deliveries.length > 1 ? (
              <div className="portal-form__links">
                <Button
                  variant="link"
                  onClick={() => {
                    setNotice(null);
                    setStep('channel');
                  }}
                >
                  {t('recovery.otherWay')}
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}

        {step === 'code' ? (
          <form className="portal-form" noValidate onSubmit={submitCode}>
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {titles.code}
            </h1>
            {summary('recovery-code')}
            {alert}
            <CodeInput
              id="recovery-code"
              ref={codeRef}
              label={delivery === 'REP' ? t('recovery.repCodeLabel') : t('recovery.codeLabel')}
              required
              value={code}
              onValueChange={setCode}
              error={fieldError}
            />
            <div className="portal-form__actions">
              <Button type="submit" variant="primary" loading={busy}>
                {t('recovery.confirm')}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {t('recovery.cancel')}
              </Button>
            </div>
            <div className="portal-form__links">
              {codeSent || resendBlocked ? (
                <Tooltip content={t('recovery.resendTooltip')}>
                  <Button variant="link" ref={resendRef} onClick={() => setConfirmOpen(true)}>
                    {t('recovery.resendCode')}
                  </Button>
                </Tooltip>
              ) : null}
              <Popover
                title={t('recovery.forgotUsername')}
                trigger={<Button variant="link">{t('recovery.forgotUsername')}</Button>}
              >
                <p>{t('recovery.forgotUsernameBody', settings.supportEmail)}</p>
              </Popover>
            </div>
            <Dialog
              open={confirmOpen}
              onOpenChange={closeConfirm}
              title={t('recovery.resendConfirmTitle')}
              description={<MaskedText>{t('recovery.resendConfirm', destination)}</MaskedText>}
              footer={
                <>
                  <Button variant="primary" onClick={resend}>
                    {t('recovery.resendYes')}
                  </Button>
                  <DialogClose asChild>
                    <Button variant="secondary">{t('recovery.resendNo')}</Button>
                  </DialogClose>
                </>
              }
            />
          </form>
        ) : null}
      </Card>
    </Shell>
  );
}
