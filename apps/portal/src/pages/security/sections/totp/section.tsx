import {
  type AuthenticatorConfirmationData,
  type AuthenticatorEnrollmentData,
  blockedCharactersList,
  hasBlockedCharacters,
  limits,
} from '@gatehouse/contract/client';
import {
  Button,
  CodeInput,
  ErrorSummary,
  type ErrorSummaryItem,
  TextInput,
  useAnnounce,
  VisuallyHidden,
} from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { t } from '../../../../texts.ts';
import { useFormErrors, useSecurity } from '../../context.tsx';
import {
  ConfirmAction,
  Details,
  Failure,
  RecentNote,
  SectionCard,
  usedRows,
  useFailure,
} from '../../shared.tsx';
import { QrCode } from './QrCode.tsx';

const NAME_MAX = 60;

/** A base32 key in groups of four, as authenticator apps print it for typing by hand. */
function groupKey(secret: string): string {
  return secret.replace(/=+$/, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** Authenticator apps: the page's first factor section (the factor sections stand in their `order`). */
export const order = 10;

/** Authenticator apps: each with Remove; Add shows a QR code and the key, confirmed by a code. */
export function Section() {
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
      announce(t('security.enrollmentStarted'));
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
    announce(t('security.removed', name));
    await reload();
    heading.current?.focus();
  }

  return (
    <SectionCard id="security-authenticators" title={t('security.authenticatorsHeading')} ref={heading}>
      <Failure failure={failure} />
      {overview.authenticators.length === 0 ? (
        <p>{t('security.authenticatorsNone')}</p>
      ) : (
        <ul className="security__list">
          {overview.authenticators.map((app) => (
            <li key={app.id} className="security__item">
              <h3 className="security__item-name">{app.name}</h3>
              <Details rows={usedRows(app.createdAt, app.lastUsedAt)} />
              <RecentNote item={app} />
              <ConfirmAction
                label={t('security.remove')}
                name={t('security.removeName', app.name)}
                title={t('security.removeTitle', app.name)}
                description={t('security.removeDescription', app.name)}
                confirm={t('security.removeYes')}
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
            announce(t('security.authenticatorAdded', name));
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
            loadingText={t('security.working')}
            onClick={() => void start()}
          >
            {t('security.addAuthenticator')}
          </Button>
        </div>
      )}
    </SectionCard>
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
      announce(t('security.keyCopied'));
    } catch {
      announce(t('security.keyNotCopied'));
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found: { code?: string; name?: string } = {
      ...(code === ''
        ? { code: t('security.codeRequired') }
        : code.length !== limits.codeLength
          ? { code: t('security.codeShort') }
          : {}),
      ...(name.trim().length > NAME_MAX
        ? { name: t('security.nameTooLong') }
        : hasBlockedCharacters(name)
          ? { name: t('security.nameBlockedCharacters', blockedCharactersList) }
          : {}),
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
      await onDone(answer.data?.authenticator?.name ?? (chosen || t('security.defaultAuthenticatorName')));
    } else if (answer.kind === 'incorrectCode') {
      setCode('');
      setErrors({ code: answer.message });
      setAttempt((n) => n + 1);
    } else onAbandon(answer.message);
  }

  return (
    <form className="security__add" noValidate onSubmit={(event) => void submit(event)}>
      <h3 tabIndex={-1} ref={heading}>
        {t('security.addAuthenticatorHeading')}
      </h3>
      <ErrorSummary headingLevel={4} errors={summary} attempt={attempt} />
      <p>{t('security.scanQr')}</p>
      <QrCode value={enrollment.otpauthUri} label={t('security.qrAlt')} />
      <p>{t('security.manualKey')}</p>
      <p className="security__key">
        <VisuallyHidden>{t('security.keyLabel')} </VisuallyHidden>
        <code>{groupKey(enrollment.secret)}</code>
      </p>
      <div className="security__actions">
        <Button variant="secondary" size="small" onClick={() => void copyKey()}>
          {t('security.copyKey')}
        </Button>
      </div>
      <CodeInput
        id={codeId}
        label={t('security.codeLabel')}
        hint={t('security.codeHint')}
        required
        value={code}
        onValueChange={setCode}
        error={errors.code}
      />
      <TextInput
        id={nameId}
        label={t('security.nameLabel')}
        hint={t('security.nameHint')}
        optional
        autoComplete="off"
        maxLength={NAME_MAX + 20}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name}
      />
      <div className="security__actions">
        <Button type="submit" loading={busy} loadingText={t('security.working')}>
          {t('security.confirm')}
        </Button>
        <Button variant="secondary" onClick={() => onAbandon()}>
          {t('security.cancel')}
        </Button>
      </div>
    </form>
  );
}
