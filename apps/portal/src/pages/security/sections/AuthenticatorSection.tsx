import {
  type AuthenticatorConfirmationData,
  type AuthenticatorEnrollmentData,
  format,
  limits,
} from '@gatehouse/contract/client';
import {
  Button,
  CodeInput,
  ErrorSummary,
  type ErrorSummaryItem,
  TextInput,
  VisuallyHidden,
} from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useAnnounce } from '../../../announcer.tsx';
import { useFormErrors, useSecurity } from '../context.tsx';
import { groupKey } from '../format.ts';
import { QrCode } from '../QrCode.tsx';
import { securityPageMessages as t } from '../security-page-messages.ts';
import { ConfirmAction, Details, Failure, Section, usedRows, useFailure } from '../shared.tsx';

const NAME_MAX = 60;

/** Authenticator apps: each with Remove; Add shows a QR code and the key, confirmed by a code. */
export function AuthenticatorSection() {
  const { overview, run, reload } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState<string | null>(null);
  const [enrollment, setEnrollment] = useState<AuthenticatorEnrollmentData | null>(null);

  async function start() {
    clear();
    setBusy('add');
    const answer = await run<AuthenticatorEnrollmentData>('securityAuthenticatorEnrollment', {});
    setBusy(null);
    if (!answer) return;
    if (answer.kind === 'done') {
      setEnrollment(answer.data);
      announce(t.enrollmentStarted);
    } else fail(answer.message);
  }

  async function remove(id: string, name: string) {
    clear();
    setBusy(id);
    const answer = await run('securityCredentialRemove', { id });
    setBusy(null);
    if (!answer) return;
    if (answer.kind !== 'done') {
      fail(answer.message);
      return;
    }
    announce(format(t.removed, name));
    await reload();
    heading.current?.focus();
  }

  return (
    <Section id="security-authenticators" title={t.authenticatorsHeading} ref={heading}>
      <Failure failure={failure} />
      {overview.authenticators.length === 0 ? (
        <p>{t.authenticatorsNone}</p>
      ) : (
        <ul className="security__list">
          {overview.authenticators.map((app) => (
            <li key={app.id} className="security__item">
              <h3 className="security__item-name">{app.name}</h3>
              <Details rows={usedRows(app.createdAt, app.lastUsedAt)} />
              <ConfirmAction
                label={t.remove}
                name={format(t.removeName, app.name)}
                title={format(t.removeTitle, app.name)}
                description={format(t.removeDescription, app.name)}
                confirm={t.removeYes}
                busy={busy === app.id}
                onConfirm={() => void remove(app.id, app.name)}
              />
            </li>
          ))}
        </ul>
      )}
      {enrollment ? (
        <AddAuthenticator
          enrollment={enrollment}
          onDone={async (name) => {
            setEnrollment(null);
            announce(format(t.authenticatorAdded, name));
            await reload();
            heading.current?.focus();
          }}
          onAbandon={(text) => {
            setEnrollment(null);
            if (text) fail(text);
            requestAnimationFrame(() => addButton.current?.focus());
          }}
        />
      ) : (
        <div className="security__actions">
          <Button
            variant="secondary"
            ref={addButton}
            loading={busy === 'add'}
            loadingText={t.working}
            onClick={() => void start()}
          >
            {t.addAuthenticator}
          </Button>
        </div>
      )}
    </Section>
  );
}

/** The pending authenticator app: QR code, the key for typing, then the code and a name. */
function AddAuthenticator({
  enrollment,
  onDone,
  onAbandon,
}: {
  enrollment: AuthenticatorEnrollmentData;
  onDone: (name: string) => Promise<void>;
  /** Cancel (no text), or the server ended the request (its text). */
  onAbandon: (text?: string) => void;
}) {
  const { run } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ code?: string; name?: string }>({});
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const codeId = 'security-authenticator-code';
  const nameId = 'security-authenticator-name';
  useEffect(() => heading.current?.focus(), []);
  const summary: ErrorSummaryItem[] = [
    ...(errors.code ? [{ fieldId: codeId, message: errors.code }] : []),
    ...(errors.name ? [{ fieldId: nameId, message: errors.name }] : []),
  ];
  useFormErrors(summary.length > 0);

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(enrollment.secret);
      announce(t.keyCopied);
    } catch {
      announce(t.keyNotCopied);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found: { code?: string; name?: string } = {
      ...(code === ''
        ? { code: t.codeRequired }
        : code.length !== limits.codeLength
          ? { code: t.codeShort }
          : {}),
      ...(name.trim().length > NAME_MAX ? { name: t.nameTooLong } : {}),
    };
    setErrors(found);
    setAttempt((n) => n + 1);
    if (found.code || found.name) return;
    setBusy(true);
    const chosen = name.trim();
    const answer = await run<AuthenticatorConfirmationData>('securityAuthenticatorConfirmation', {
      enrollmentId: enrollment.enrollmentId,
      securityCode: code,
      ...(chosen ? { name: chosen } : {}),
    });
    setBusy(false);
    if (!answer) return;
    if (answer.kind === 'done') {
      await onDone(answer.data?.authenticator?.name ?? (chosen || t.defaultAuthenticatorName));
    } else if (answer.kind === 'incorrectCode') {
      setCode('');
      setErrors({ code: answer.message });
      setAttempt((n) => n + 1);
    } else onAbandon(answer.message);
  }

  return (
    <form className="security__add" noValidate onSubmit={(event) => void submit(event)}>
      <h3 tabIndex={-1} ref={heading}>
        {t.addAuthenticatorHeading}
      </h3>
      <ErrorSummary headingLevel={4} errors={summary} attempt={attempt} />
      <p>{t.scanQr}</p>
      <QrCode value={enrollment.otpauthUri} label={t.qrAlt} />
      <p>{t.manualKey}</p>
      <p className="security__key">
        <VisuallyHidden>{t.keyLabel} </VisuallyHidden>
        <code>{groupKey(enrollment.secret)}</code>
      </p>
      <div className="security__actions">
        <Button variant="secondary" size="small" onClick={() => void copyKey()}>
          {t.copyKey}
        </Button>
      </div>
      <CodeInput
        id={codeId}
        label={t.codeLabel}
        hint={t.codeHint}
        required
        value={code}
        onValueChange={setCode}
        error={errors.code}
      />
      <TextInput
        id={nameId}
        label={t.nameLabel}
        hint={t.nameHint}
        optional
        autoComplete="off"
        maxLength={NAME_MAX + 20}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name}
      />
      <div className="security__actions">
        <Button type="submit" loading={busy} loadingText={t.working}>
          {t.confirm}
        </Button>
        <Button variant="secondary" onClick={() => onAbandon()}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}
