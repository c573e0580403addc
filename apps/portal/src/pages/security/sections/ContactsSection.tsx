import {
  type ContactAddData,
  type ContactConfirmationData,
  type ContactKind,
  format,
  limits,
  type SecurityEmailItem,
  type SecurityPhoneItem,
} from '@gatehouse/contract/client';
import { Button, Checkbox, CodeInput, ErrorSummary, TextInput } from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useAnnounce } from '../../../announcer.tsx';
import { useFormErrors, useSecurity } from '../context.tsx';
import { formatTime } from '../format.ts';
import { securityPageMessages as t } from '../security-page-messages.ts';
import { ConfirmAction, Details, Failure, Marker, Section, useFailure } from '../shared.tsx';

/** A name for a contact in texts and in its buttons' accessible names ('phone (XXX) XXX-0143'). */
const contactName = (kind: ContactKind, masked: string) =>
  format(kind === 'phone' ? t.phoneName : t.emailName, masked);

/** Phones and e-mail addresses: each with Remove; Add sends a code to the new one to confirm it. */
export function ContactsSection() {
  const { overview, run, reload } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const addButtons = { phone: useRef<HTMLButtonElement>(null), email: useRef<HTMLButtonElement>(null) };
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState<ContactKind | null>(null);

  async function remove(id: string, name: string) {
    clear();
    setBusy(id);
    const answer = await run('securityContactRemove', { id });
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

  const list = (kind: ContactKind, items: Array<SecurityPhoneItem | SecurityEmailItem>) =>
    items.length === 0 ? (
      <p>{kind === 'phone' ? t.phonesNone : t.emailsNone}</p>
    ) : (
      <ul className="security__list">
        {items.map((item) => {
          const name = contactName(kind, item.masked);
          return (
            <li key={item.id} className="security__item">
              <h4 className="security__item-name">
                {item.masked} {item.recentlyAdded ? <Marker>{t.recentlyAdded}</Marker> : null}
              </h4>
              {item.recentlyAdded ? <p>{format(t.usableFrom, formatTime(item.usableFrom))}</p> : null}
              <Details
                rows={[
                  ...('voice' in item
                    ? ([[t.channels, item.voice ? t.voice : t.textOnly]] as Array<[string, string]>)
                    : []),
                  [t.added, formatTime(item.createdAt)],
                ]}
              />
              <ConfirmAction
                label={t.remove}
                name={format(t.removeName, name)}
                title={format(t.removeTitle, name)}
                description={format(t.removeDescription, name)}
                confirm={t.removeYes}
                busy={busy === item.id}
                onConfirm={() => void remove(item.id, name)}
              />
            </li>
          );
        })}
      </ul>
    );

  const addButton = (kind: ContactKind) => (
    <div className="security__actions">
      <Button
        variant="secondary"
        ref={addButtons[kind]}
        onClick={() => {
          clear();
          setAdding(kind);
        }}
      >
        {kind === 'phone' ? t.addPhone : t.addEmail}
      </Button>
    </div>
  );

  const form = (kind: ContactKind) => (
    <AddContact
      kind={kind}
      onDone={async (added) => {
        setAdding(null);
        announce(format(t.contactAdded, contactName(kind, added.masked), formatTime(added.usableFrom)));
        await reload();
        heading.current?.focus();
      }}
      onCancel={() => {
        setAdding(null);
        requestAnimationFrame(() => addButtons[kind].current?.focus());
      }}
    />
  );

  return (
    <Section id="security-contacts" title={t.contactsHeading} ref={heading}>
      <Failure failure={failure} />
      <h3>{t.phonesHeading}</h3>
      {list('phone', overview.phones)}
      {adding === 'phone' ? form('phone') : addButton('phone')}
      <h3>{t.emailsHeading}</h3>
      {list('email', overview.emails)}
      {adding === 'email' ? form('email') : addButton('email')}
    </Section>
  );
}

/** Adding a phone or an e-mail address: the value (and voice, for a phone), then the code sent to it. */
function AddContact({
  kind,
  onDone,
  onCancel,
}: {
  kind: ContactKind;
  onDone: (added: SecurityPhoneItem | SecurityEmailItem) => Promise<void>;
  onCancel: () => void;
}) {
  const { run } = useSecurity();
  const heading = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [voice, setVoice] = useState(false);
  const [sent, setSent] = useState<ContactAddData | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const { failure, fail, clear } = useFailure();
  const valueId = `security-${kind}-value`;
  const codeId = `security-${kind}-code`;
  const fieldId = sent ? codeId : valueId;
  useFormErrors(Boolean(error));
  useEffect(() => heading.current?.focus(), []);
  const invalid = (message: string) => {
    setError(message);
    setAttempt((n) => n + 1);
  };

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    clear();
    const trimmed = value.trim();
    if (!trimmed) return invalid(kind === 'phone' ? t.phoneRequired : t.emailRequired);
    if (kind === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) return invalid(t.emailInvalid);
    setError(undefined);
    setBusy(true);
    const answer = await run<ContactAddData>('securityContactAdd', {
      kind,
      value: trimmed,
      ...(kind === 'phone' ? { voice } : {}),
    });
    setBusy(false);
    if (!answer) return;
    if (answer.kind === 'done') {
      setSent(answer.data);
      requestAnimationFrame(() => codeRef.current?.focus());
    } else if (answer.kind === 'refused' && (answer.code === 1400 || answer.code === 1409)) {
      // The number or address itself: its field says why.
      invalid(answer.message);
    } else fail(answer.message);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !sent) return;
    clear();
    if (code === '') return invalid(t.contactCodeRequired);
    if (code.length !== limits.codeLength) return invalid(t.codeShort);
    setError(undefined);
    setBusy(true);
    const answer = await run<ContactConfirmationData>('securityContactConfirmation', {
      confirmationId: sent.confirmationId,
      securityCode: code,
    });
    setBusy(false);
    if (!answer) return;
    if (answer.kind === 'done') {
      const added = answer.data.phone ?? answer.data.email;
      if (added) await onDone(added);
    } else if (answer.kind === 'incorrectCode') {
      setCode('');
      invalid(answer.message);
    } else {
      // The request ended (expired, too many codes): start again from the value.
      setSent(null);
      setCode('');
      fail(answer.message);
    }
  }

  return (
    <form
      className="security__add"
      noValidate
      onSubmit={(event) => void (sent ? confirm(event) : send(event))}
    >
      <h4 tabIndex={-1} ref={heading}>
        {kind === 'phone' ? t.addPhoneHeading : t.addEmailHeading}
      </h4>
      <ErrorSummary headingLevel={4} errors={error ? [{ fieldId, message: error }] : []} attempt={attempt} />
      <Failure failure={failure} />
      {sent ? (
        <>
          <p>{format(t.codeSentTo, sent.masked)}</p>
          <CodeInput
            id={codeId}
            ref={codeRef}
            label={t.contactCodeLabel}
            required
            value={code}
            onValueChange={setCode}
            error={error}
          />
        </>
      ) : (
        <>
          <TextInput
            id={valueId}
            type={kind === 'phone' ? 'tel' : 'email'}
            label={kind === 'phone' ? t.phoneLabel : t.emailLabel}
            {...(kind === 'phone' ? { hint: t.phoneHint } : {})}
            required
            autoComplete={kind === 'phone' ? 'tel' : 'email'}
            spellCheck={false}
            maxLength={254}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={error}
          />
          {kind === 'phone' ? (
            <Checkbox
              id="security-phone-voice"
              label={t.voiceLabel}
              checked={voice}
              onChange={({ checked }) => setVoice(checked)}
            />
          ) : null}
        </>
      )}
      <div className="security__actions">
        <Button type="submit" loading={busy} loadingText={t.working}>
          {sent ? t.confirm : t.sendCode}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}
