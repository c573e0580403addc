import { limits, passwordError, customerPaths as paths } from '@gatehouse/contract/client';
import { Alert, Button, Card, ErrorSummary, TextInput, useAnnounce } from '@gatehouse/ui';
import { type FocusEvent, type FormEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import { api, journeyMemory, serviceData } from '../../api.ts';
import { useNavigate } from '../../router.ts';

import { settings } from '../../settings.ts';
import { Shell } from '../../shell/Shell.tsx';
import { usePageTitle } from '../../usePageTitle.ts';
import { enrollmentRequest, passwordUpdate400, updateBlocked, updateSuccess } from './statusTable.ts';
import '../username/UsernamePage.css';
import { t } from '../../texts.ts';

type Errors = { newPassword?: string; confirmation?: string };

/** Portal spec §2 "Reset Password", §4 "Password reset", §5 rules, §8 messages. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  // Read once: clearing the stored data after success must not look like a missing confirmation.
  const [username] = useState(() => serviceData.otpConfirmedFor());
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [touched, setTouched] = useState({ newPassword: false, confirmation: false });
  const [summary, setSummary] = useState<Array<{ fieldId: string; message: string }>>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** One more on every failed submit: the summary and the alert are announced again. */
  const [attempt, setAttempt] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const announce = useAnnounce();

  usePageTitle(t('recovery.resetHeading'), summary.length > 0 || serverError !== null);
  useEffect(() => {
    // Portal spec §2: without a confirmed code, the message, and back to login (where it shows).
    if (!username)
      navigate('/login', { replace: true, state: { notice: t('recovery.otpConfirmationRequired') } });
    else heading.current?.focus();
  }, [username, navigate]);

  if (!username) return null;

  /** The first message for each field, in the spec's rule order, then the match check. */
  const validate = (password: string, confirm: string): Errors => {
    const next: Errors = {};
    if (!password) next.newPassword = t('recovery.newPasswordRequired');
    else {
      const ruleError = passwordError(password);
      if (ruleError) next.newPassword = ruleError;
    }
    if (!confirm) next.confirmation = t('recovery.confirmPasswordRequired');
    else if (!next.newPassword) {
      const mismatch = passwordError(password, confirm);
      if (mismatch) next.confirmation = mismatch;
    }
    return next;
  };
  const valid = Object.keys(validate(newPassword, confirmation)).length === 0;

  /** Every message at once, inline and in the summary; true when there is none. */
  const showAll = (): boolean => {
    const next = validate(newPassword, confirmation);
    setTouched({ newPassword: true, confirmation: true });
    setErrors(next);
    setSummary([
      ...(next.newPassword ? [{ fieldId: 'reset-new', message: next.newPassword }] : []),
      ...(next.confirmation ? [{ fieldId: 'reset-confirm', message: next.confirmation }] : []),
    ]);
    const ok = Object.keys(next).length === 0;
    if (!ok) setAttempt((n) => n + 1);
    return ok;
  };
  /**
   * Leaving a field checks it: its message shows from then on, and is said (politely) with the
   * field's name, since focus has moved on and a message in the field's description alone is heard
   * by no one. Not when focus went to Submit or Cancel: Submit's summary says every error itself,
   * and Cancel leaves the page.
   */
  const touch = (field: keyof Errors, event: FocusEvent<HTMLInputElement>) => {
    const seen = { ...touched, [field]: true };
    setTouched(seen);
    const shown = live(newPassword, confirmation, seen);
    const next = event.relatedTarget as HTMLElement | null;
    const message = shown[field];
    if (message && !next?.closest('.portal-form__actions')) {
      const name = field === 'newPassword' ? t('recovery.newPassword') : t('recovery.confirmPassword');
      announce(t('recovery.fieldErrorSaid', name, message));
    }
  };
  // Submit stays disabled while the form is invalid, so the messages show as the person types
  // (after leaving a field once), not only on submit.
  const live = (password: string, confirm: string, seen = touched): Errors => {
    const all = validate(password, confirm);
    const shown = {
      ...(seen.newPassword && all.newPassword ? { newPassword: all.newPassword } : {}),
      ...(seen.confirmation && all.confirmation ? { confirmation: all.confirmation } : {}),
    };
    setErrors(shown);
    return shown;
  };

  /** A press on the disabled Submit (or Enter in a field) runs the checks and shows the summary. */
  const showWhyDisabled = (event: MouseEvent) => {
    const target = event.target as HTMLElement;
    if (valid || busy || !target.closest('button[type="submit"]')) return;
    showAll();
  };

  /** A refused update: the server's reason in an alert, announced again on every attempt. */
  const fail = (message: string) => {
    setServerError(message);
    setAttempt((n) => n + 1);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setServerError(null);
    if (!showAll()) return;

    setBusy(true);
    try {
      const state = await api.request('POST', paths.passwordStatus, {
        body: { requestBaseInfo: { sessionTokens: {} }, username },
      });
      if (state.http === 401) {
        // The confirmed code is no longer valid on the server (the flow ended or expired).
        serviceData.clear();
        navigate('/login', { replace: true, state: { notice: t('recovery.otpConfirmationRequired') } });
        return;
      }
      const initialPassword = journeyMemory.initialPassword();
      const request = enrollmentRequest(state.status.code, {
        username: username ?? '',
        newPassword,
        ...(initialPassword ? { initialPassword } : {}),
      });
      if (!request) {
        fail(state.status.message || t('recovery.genericError', settings.supportEmail));
        setBusy(false);
        return;
      }
      const { method, body } = request;
      const result = await api.request(method, paths.passwordEnrollment, { body });
      const code = result.status.code;
      if (result.http === 400) {
        fail(
          code in passwordUpdate400
            ? t(passwordUpdate400[code]!)
            : t('recovery.genericError', settings.supportEmail),
        );
      } else if (result.http >= 300) {
        fail(t('recovery.genericError', settings.supportEmail));
      } else if (updateSuccess.has(code)) {
        serviceData.clear();
        setNewPassword('');
        setConfirmation('');
        // Portal spec §4: the toast 'Password changed successfully', titled Success, on login.
        navigate('/login', {
          state: { toast: { title: t('recovery.successTitle'), message: t('recovery.passwordChanged') } },
        });
        return;
      } else if (updateBlocked.has(code)) {
        fail(t('recovery.contactSupport', settings.supportEmail));
      } else {
        fail(result.status.message || t('recovery.genericError', settings.supportEmail));
      }
    } catch {
      fail(t('recovery.genericError', settings.supportEmail));
    }
    setBusy(false);
  }

  return (
    <Shell>
      <Card width={448}>
        <form className="portal-form" noValidate onSubmit={submit}>
          <h1 className="portal__page-heading" tabIndex={-1} ref={heading}>
            {t('recovery.resetHeading')}
          </h1>
          <ErrorSummary errors={summary} attempt={attempt} />
          {serverError ? (
            <Alert key={attempt} variant="critical">
              {serverError}
            </Alert>
          ) : null}
          <div>
            <p id="reset-hints-title">{t('recovery.passwordRules')}</p>
            <ul className="portal-form__notes" id="reset-hints" aria-labelledby="reset-hints-title">
              <li>{t('recovery.hintLength')}</li>
              <li>{t('recovery.hintClasses')}</li>
              <li>{t('recovery.hintForbidden')}</li>
              <li>{t('recovery.hintUserId')}</li>
              <li>{t('recovery.hintHistory')}</li>
            </ul>
          </div>
          <TextInput
            id="reset-new"
            type="password"
            label={t('recovery.newPassword')}
            required
            autoComplete="new-password"
            maxLength={limits.passwordInputMax}
            value={newPassword}
            onChange={(e) => {
              setNewPassword(e.target.value);
              live(e.target.value, confirmation);
            }}
            onBlur={(event) => touch('newPassword', event)}
            error={errors.newPassword}
            aria-describedby="reset-hints"
          />
          <TextInput
            id="reset-confirm"
            type="password"
            label={t('recovery.confirmPassword')}
            required
            autoComplete="new-password"
            maxLength={limits.passwordInputMax}
            value={confirmation}
            onChange={(e) => {
              setConfirmation(e.target.value);
              live(newPassword, e.target.value);
            }}
            onBlur={(event) => touch('confirmation', event)}
            error={errors.confirmation}
          />
          {/* Submit is disabled while the form is invalid; pressing it anyway shows what is wrong. */}
          <div className="portal-form__actions" onClickCapture={showWhyDisabled}>
            <Button
              type="submit"
              variant="primary"
              loading={busy}
              loadingText={t('recovery.changing')}
              aria-disabled={!valid || busy}
            >
              {t('recovery.submit')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                journeyMemory.forget();
                navigate('/login');
              }}
            >
              {t('recovery.cancel')}
            </Button>
          </div>
        </form>
      </Card>
    </Shell>
  );
}
