import {
  type ConsoleCustomer,
  type LiftAction,
  liftActions,
  type RepCodePurpose,
  type VerificationMethod,
  verificationMethods,
} from '@gatehouse/contract/client';
import {
  Alert,
  Button,
  ErrorSummary,
  type ErrorSummaryItem,
  MaskedText,
  RadioGroup,
  TextInput,
  useAnnounce,
} from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type Answer, consoleApi } from '../api.ts';
import { t, dateTime as when } from '../messages.ts';
import { useSession } from '../session.tsx';
import { usePage } from '../usePage.ts';

/** A call's answer; a refused session goes back to sign-in with the reason. */
function useGuarded() {
  const { timedOut } = useSession();
  return async <T,>(pending: Promise<Answer<T>>): Promise<Answer<T>> => {
    const answer = await pending;
    if (!answer.ok && answer.signedOut) timedOut();
    return answer;
  };
}

/**
 * Find a customer by exact username, see their state, and act: issue the temporary security code
 * after recording how the caller was verified, or lift what blocks them, each with a reason.
 */
export function CustomerPage() {
  const guarded = useGuarded();
  const [username, setUsername] = useState('');
  const [customer, setCustomer] = useState<ConsoleCustomer | null>(null);
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [failure, setFailure] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const heading = usePage(t('customer.title'), errors.length > 0 || !!failure);
  const resultRef = useRef<HTMLHeadingElement>(null);

  async function find(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(undefined);
    if (!username.trim()) {
      setErrors([{ fieldId: 'customer-username', message: t('customer.usernameRequired') }]);
      setAttempt((n) => n + 1);
      return;
    }
    setErrors([]);
    setBusy(true);
    const answer = await guarded(consoleApi.customer(username.trim()));
    setBusy(false);
    if (!answer.ok) {
      setCustomer(null);
      setFailure(answer.message);
      setAttempt((n) => n + 1);
      return;
    }
    setCustomer(answer.data);
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new customer takes focus to its heading
  useEffect(() => {
    if (customer) resultRef.current?.focus();
  }, [customer?.username]);

  return (
    <div className="gh-shell__page">
      <h1 ref={heading} tabIndex={-1}>
        {t('customer.title')}
      </h1>
      <ErrorSummary errors={errors} attempt={attempt} />
      {failure ? (
        <Alert variant="critical" key={attempt}>
          {failure}
        </Alert>
      ) : null}
      <form className="console__form gh-shell__section" onSubmit={find} noValidate>
        <p>{t('customer.intro')}</p>
        <TextInput
          id="customer-username"
          label={t('customer.username')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          error={errors[0]?.message}
          onChange={(e) => setUsername(e.target.value)}
        />
        <div className="gh-shell__actions">
          <Button type="submit" loading={busy}>
            {t('customer.find')}
          </Button>
        </div>
      </form>
      {customer ? (
        <Customer customer={customer} headingRef={resultRef} onChange={setCustomer} guarded={guarded} />
      ) : null}
    </div>
  );
}

type Guarded = ReturnType<typeof useGuarded>;

function Customer({
  customer,
  headingRef,
  onChange,
  guarded,
}: {
  customer: ConsoleCustomer;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onChange: (c: ConsoleCustomer) => void;
  guarded: Guarded;
}) {
  const mayAct = !customer.ownAccount;
  return (
    <>
      <section className="gh-shell__section" aria-labelledby="customer-heading">
        <h2 id="customer-heading" ref={headingRef} tabIndex={-1}>
          {t('customer.heading', customer.username)}
        </h2>
        {customer.ownAccount ? (
          <Alert variant="warning">{t('customer.ownAccountNotice')}</Alert>
        ) : customer.staffAccount ? (
          <Alert variant="info">{t('customer.staffAccountNotice')}</Alert>
        ) : null}
        <h3>{t('customer.stateHeading')}</h3>
        <dl className="gh-shell__details">
          <dt>{t('customer.status')}</dt>
          <dd>{t('customer.statusValue', customer.status)}</dd>
          <dt>{t('customer.failedLogins')}</dt>
          <dd>{customer.failedLogins}</dd>
          <dt>{t('customer.recovery')}</dt>
          <dd>
            {customer.recoveryLockedUntil
              ? t('customer.recoveryLocked', when(customer.recoveryLockedUntil))
              : t('customer.recoveryOpen')}
          </dd>
          <dt>{t('customer.forced')}</dt>
          <dd>
            {customer.forced.length
              ? customer.forced.map((f) => t('customer.forcedValue', f)).join(', ')
              : t('customer.forcedNone')}
          </dd>
          <dt>{t('customer.liveCode')}</dt>
          <dd>
            {customer.liveCodeExpiresAt
              ? t('customer.liveCodeUntil', when(customer.liveCodeExpiresAt))
              : t('customer.liveCodeNone')}
          </dd>
        </dl>
        <h3>{t('customer.contactsHeading')}</h3>
        {customer.contacts.length ? (
          <ul>
            {customer.contacts.map((c) => (
              <li key={`${c.kind}${c.label}`}>
                <MaskedText>{c.label}</MaskedText>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('customer.noContacts')}</p>
        )}
        <h3>{t('customer.factorsHeading')}</h3>
        {customer.factors.length ? (
          <ul>
            {customer.factors.map((f) => (
              <li key={`${f.kind}${f.name}`}>
                {f.lockedUntil
                  ? t('customer.factorLocked', f.name, f.kind, when(f.lockedUntil))
                  : t('customer.factor', f.name, f.kind)}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('customer.noFactors')}</p>
        )}
        <h3>{t('customer.eventsHeading')}</h3>
        {customer.events.length ? (
          <div className="console__table-wrap">
            <table className="console__table">
              <thead>
                <tr>
                  <th scope="col">{t('common.eventTime')}</th>
                  <th scope="col">{t('common.eventName')}</th>
                  <th scope="col">{t('common.eventOutcome')}</th>
                </tr>
              </thead>
              <tbody>
                {customer.events.map((e) => (
                  <tr key={`${e.at}${e.event}`}>
                    <td>{when(e.at)}</td>
                    <td>{e.event}</td>
                    <td>{t('common.outcome', e.outcome)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t('customer.noEvents')}</p>
        )}
      </section>
      {mayAct ? (
        <>
          <IssueCode customer={customer} guarded={guarded} onIssued={onChange} />
          <Lift customer={customer} guarded={guarded} onLifted={onChange} />
        </>
      ) : null}
    </>
  );
}

function IssueCode({
  customer,
  guarded,
  onIssued,
}: {
  customer: ConsoleCustomer;
  guarded: Guarded;
  onIssued: (c: ConsoleCustomer) => void;
}) {
  const announce = useAnnounce();
  const { staff } = useSession();
  const [verification, setVerification] = useState<VerificationMethod | ''>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [failure, setFailure] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const [issued, setIssued] = useState<{ code: string; expiresAt: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const issuedRef = useRef<HTMLDivElement>(null);
  /** Which button sent the form: a sign-in code, or a recovery code (portal spec §4 step 6). */
  const purpose = useRef<RepCodePurpose>('factor');
  useEffect(() => {
    if (issued) issuedRef.current?.focus();
  }, [issued]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(undefined);
    const items: ErrorSummaryItem[] = [];
    if (!verification)
      items.push({
        fieldId: `verification-${verificationMethods[0]}`,
        message: t('issue.verificationRequired'),
      });
    if (note.trim().length < 3)
      items.push({ fieldId: 'verification-note', message: t('issue.noteRequired') });
    setErrors(items);
    if (items.length) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    const answer = await guarded(
      consoleApi.issueCode(customer.username, verification, note.trim(), purpose.current),
    );
    setBusy(false);
    if (!answer.ok) {
      setFailure(answer.message);
      setAttempt((n) => n + 1);
      return;
    }
    setIssued({ ...answer.data, message: answer.message });
    setNote('');
    setVerification('');
    announce(answer.message);
    onIssued({ ...customer, liveCodeExpiresAt: answer.data.expiresAt });
  }

  const error = (id: string) => errors.find((e) => e.fieldId === id)?.message;
  // The code is an element of its own inside the sentence, wherever the language puts it.
  const [codeBefore, codeAfter] = t('issue.issuedCode', '\0').split('\0');
  return (
    <section className="gh-shell__section" aria-labelledby="issue-heading">
      <h2 id="issue-heading">{t('issue.heading')}</h2>
      <ErrorSummary errors={errors} attempt={attempt} headingLevel={3} />
      {failure ? (
        <Alert variant="critical" key={attempt}>
          {failure}
        </Alert>
      ) : null}
      {issued ? (
        <Alert variant="confirm" title={t('issue.issuedHeading')} ref={issuedRef} tabIndex={-1}>
          <p>{issued.message}</p>
          <p>
            {codeBefore}
            <span className="console__code" data-testid="issued-code">
              {issued.code}
            </span>
            {codeAfter}
          </p>
          <p>{t('issue.issuedExpires', when(issued.expiresAt))}</p>
        </Alert>
      ) : null}
      <form className="console__form" onSubmit={submit} noValidate>
        <p>{t('issue.intro', staff?.codeMinutes ?? 10)}</p>
        <RadioGroup
          id="verification"
          name="verification"
          legend={t('issue.verification')}
          required
          value={verification}
          error={error(`verification-${verificationMethods[0]}`)}
          onChange={(value) => setVerification(value as VerificationMethod)}
          options={verificationMethods.map((m) => ({ value: m, label: t(`issue.method.${m}`) }))}
        />
        <TextInput
          id="verification-note"
          label={t('issue.note')}
          hint={t('issue.noteHint')}
          required
          maxLength={500}
          value={note}
          error={error('verification-note')}
          onChange={(e) => setNote(e.target.value)}
        />
        <div className="gh-shell__actions">
          <Button type="submit" loading={busy} onClick={() => (purpose.current = 'factor')}>
            {t('issue.submit')}
          </Button>
          <Button
            type="submit"
            variant="secondary"
            loading={busy}
            onClick={() => (purpose.current = 'recovery')}
          >
            {t('issue.submitRecovery')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function Lift({
  customer,
  guarded,
  onLifted,
}: {
  customer: ConsoleCustomer;
  guarded: Guarded;
  onLifted: (c: ConsoleCustomer) => void;
}) {
  const announce = useAnnounce();
  const [action, setAction] = useState<LiftAction | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<ErrorSummaryItem[]>([]);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each result is focused when it appears
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result, attempt]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setResult(null);
    const items: ErrorSummaryItem[] = [];
    if (!action) items.push({ fieldId: `lift-${liftActions[0]}`, message: t('lift.whatRequired') });
    if (reason.trim().length < 3) items.push({ fieldId: 'lift-reason', message: t('lift.reasonRequired') });
    setErrors(items);
    if (items.length) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    const answer = await guarded(consoleApi.lift(customer.username, action, reason.trim()));
    setBusy(false);
    setAttempt((n) => n + 1);
    if (!answer.ok) {
      setResult({ ok: false, text: answer.message });
      return;
    }
    setResult({ ok: true, text: answer.message });
    setReason('');
    setAction('');
    announce(answer.message);
    onLifted(answer.data);
  }

  const error = (id: string) => errors.find((e) => e.fieldId === id)?.message;
  return (
    <section className="gh-shell__section" aria-labelledby="lift-heading">
      <h2 id="lift-heading">{t('lift.heading')}</h2>
      <ErrorSummary errors={errors} attempt={attempt} headingLevel={3} />
      {result ? (
        <Alert variant={result.ok ? 'confirm' : 'critical'} ref={resultRef} tabIndex={-1} key={attempt}>
          {result.text}
        </Alert>
      ) : null}
      <form className="console__form" onSubmit={submit} noValidate>
        <RadioGroup
          id="lift"
          name="lift"
          legend={t('lift.what')}
          required
          value={action}
          error={error(`lift-${liftActions[0]}`)}
          onChange={(value) => setAction(value as LiftAction)}
          options={liftActions.map((a) => ({ value: a, label: t(`lift.action.${a}`) }))}
        />
        <TextInput
          id="lift-reason"
          label={t('lift.reason')}
          hint={t('lift.reasonHint')}
          required
          maxLength={500}
          value={reason}
          error={error('lift-reason')}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="gh-shell__actions">
          <Button type="submit" loading={busy}>
            {t('lift.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
