import { format, limits, paths, Status } from '@gatehouse/contract/client';
import { TransportError } from '@gatehouse/signin';
import {
  Alert,
  Button,
  Card,
  CodeInput,
  Dialog,
  DialogClose,
  Popover,
  TextInput,
  Tooltip,
} from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, serviceData } from '../../api.ts';
import { messages as shellMessages } from '../../messages.ts';
import { recoveryTexts } from '../recovery-messages.ts';

const messages = { ...shellMessages, ...recoveryTexts };

import { settings } from '../../settings.ts';
import { Shell } from '../../shell/Shell.tsx';
import { usePageTitle } from '../../usePageTitle.ts';
import './UsernamePage.css';

type Step = 'username' | 'email' | 'code';
type Notice = { kind: 'info' | 'critical'; text: string } | null;

/** Portal spec §7: the send and check bodies carry requestBaseInfo. */
const requestBaseInfo = { sessionTokens: {} };
const support = () => format(messages.supportWithCode, settings.supportEmail);
const generic = () => format(messages.genericError, settings.supportEmail);

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
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [notice, setNotice] = useState<Notice>(null);
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

  useEffect(() => {
    heading.current?.focus();
  }, [step]);
  usePageTitle(step === 'email' ? messages.extraStep : messages.confirmIdentity);

  /** After identify: fetch the address on file and show the e-mail step. */
  async function toEmailStep(): Promise<boolean> {
    try {
      const result = await request<{ email?: Array<{ value: string }> }>(
        'GET',
        paths.identityAttributes,
        undefined,
        {
          attributes: 'email',
        },
      );
      const value = result.envelope?.successData?.email?.[0]?.value;
      if (result.status.code !== Status.SUCCESS || !value) {
        setNotice({ kind: 'critical', text: generic() });
        return false;
      }
      setEmail(value);
      setStep('email');
      return true;
    } catch {
      setNotice({ kind: 'critical', text: generic() });
      return false;
    }
  }

  // On entry: skip the username step when the login result says a new password is due.
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
        if (identified.status.code === Status.SUCCESS && (await toEmailStep())) {
          setUsername(stored.username);
          // 1201 (authentication not completed) is neither temporary nor expired: no info text.
          setSkipInfo(
            expired
              ? messages.skipExpired
              : sessionStatusCode === Status.CALLBACKS_REQUIRED
                ? messages.skipTemporary
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
    serviceData.clearLoginResult();
    navigate('/login');
  };

  async function submitUsername(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setNotice(null);
    if (!username.trim()) {
      setFieldError(messages.usernameRequired);
      usernameRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      const result = await request('POST', paths.identifyUsername, { username: username.trim() });
      if (result.status.code !== Status.SUCCESS) {
        setUsername('');
        setNotice({ kind: 'critical', text: messages.invalidInformation });
        usernameRef.current?.focus();
      } else {
        await toEmailStep();
      }
    } catch {
      setNotice({ kind: 'critical', text: support() });
    }
    setBusy(false);
  }

  async function send(): Promise<void> {
    setBusy(true);
    setNotice(null);
    try {
      const result = await request('POST', paths.otpEmail, { requestBaseInfo, email });
      if (result.status.code !== Status.SUCCESS) {
        setNotice({ kind: 'critical', text: support() });
      } else {
        setCodeSent(true);
        setCode('');
        setStep('code');
        setNotice({ kind: 'info', text: messages.codeSent });
      }
    } catch {
      setNotice({ kind: 'critical', text: generic() });
    }
    setBusy(false);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!code) {
      setFieldError(messages.codeRequired);
      codeRef.current?.focus();
      return;
    }
    if (code.length !== limits.codeLength) {
      setFieldError(messages.codeShort);
      codeRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    setNotice(null);
    setBusy(true);
    try {
      const result = await request('PUT', paths.otpEmail, { requestBaseInfo, securityCode: code });
      if (result.status.code === Status.SUCCESS) {
        // The new session status is what the next screen needs; the stored login result is done.
        serviceData.clearLoginResult();
        serviceData.markOtpConfirmed(username);
        setCode('');
        setUsername('');
        navigate(earlierStatus.current === Status.AUTH_NOT_COMPLETED ? '/login' : '/resetPassword');
      } else if (
        result.status.code === Status.INCORRECT_CODE ||
        result.status.code === Status.PASSWORD_EXPIRED
      ) {
        setCode('');
        setFieldError(messages.invalidCode);
        codeRef.current?.focus();
      } else {
        setCode('');
        setNotice({ kind: 'critical', text: result.status.message || support() });
      }
    } catch {
      // Portal spec §4: after a transport error on the check, resend is blocked.
      setResendBlocked(true);
      setCodeSent(false);
      setNotice({ kind: 'critical', text: support() });
    }
    setBusy(false);
  }

  const resend = () => {
    closeConfirm(false);
    if (resendBlocked) {
      setNotice({ kind: 'critical', text: support() });
      return;
    }
    void send();
  };

  const alert = notice ? (
    <Alert variant={notice.kind === 'info' ? 'info' : 'critical'}>{notice.text}</Alert>
  ) : null;

  return (
    <Shell supportLine="login">
      <Card width={step === 'code' ? 400 : 448}>
        {step === 'username' ? (
          <form className="portal-form" noValidate onSubmit={submitUsername}>
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {messages.confirmIdentity}
            </h1>
            <p>{messages.usernamePrompt}</p>
            {alert}
            <TextInput
              id="recovery-username"
              ref={usernameRef}
              label={messages.usernameLabel}
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
              <li>{messages.emailDelayNote}</li>
              <li>{messages.blockNote}</li>
            </ul>
            <div className="portal-form__actions">
              <Button type="submit" variant="primary" loading={busy}>
                {messages.continue}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {messages.cancel}
              </Button>
            </div>
          </form>
        ) : null}

        {step === 'email' ? (
          <div className="portal-form">
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {messages.extraStep}
            </h1>
            {skipInfo ? <Alert variant="info">{skipInfo}</Alert> : null}
            {alert}
            <p>{format(messages.emailOnFile, email)}</p>
            <p>{messages.codeWillBeSent}</p>
            <div className="portal-form__actions">
              <Button variant="primary" loading={busy} onClick={() => void send()}>
                {messages.continue}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {messages.cancel}
              </Button>
            </div>
          </div>
        ) : null}

        {step === 'code' ? (
          <form className="portal-form" noValidate onSubmit={submitCode}>
            <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
              {messages.confirmIdentity}
            </h1>
            {alert}
            <CodeInput
              id="recovery-code"
              ref={codeRef}
              label={messages.codeLabel}
              required
              value={code}
              onValueChange={setCode}
              error={fieldError}
            />
            <div className="portal-form__actions">
              <Button type="submit" variant="primary" loading={busy}>
                {messages.confirm}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                {messages.cancel}
              </Button>
            </div>
            <div className="portal-form__links">
              {codeSent || resendBlocked ? (
                <Tooltip content={messages.resendTooltip}>
                  <Button variant="link" ref={resendRef} onClick={() => setConfirmOpen(true)}>
                    {messages.resendCode}
                  </Button>
                </Tooltip>
              ) : null}
              <Popover
                title={messages.forgotUsername}
                trigger={<Button variant="link">{messages.forgotUsername}</Button>}
              >
                <p>{format(messages.forgotUsernameBody, settings.supportEmail)}</p>
              </Popover>
            </div>
            <Dialog
              open={confirmOpen}
              onOpenChange={closeConfirm}
              title={messages.resendConfirmTitle}
              description={format(messages.resendConfirm, email)}
              footer={
                <>
                  <Button variant="primary" onClick={resend}>
                    {messages.resendYes}
                  </Button>
                  <DialogClose asChild>
                    <Button variant="secondary">{messages.resendNo}</Button>
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
