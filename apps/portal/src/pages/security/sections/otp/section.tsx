import {
  type ContactAddData,
  type ContactConfirmationData,
  type ContactKind,
  limits,
  type SecurityEmailItem,
  type SecurityPhoneItem,
} from '@gatehouse/contract/client';
import {
  Button,
  Checkbox,
  CodeInput,
  ErrorSummary,
  MaskedText,
  spokenMasks,
  TextInput,
  useAnnounce,
} from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { t } from '../../../../texts.ts';
import { useFormErrors, useSecurity } from '../../context.tsx';
import { formatTime } from '../../format.ts';
import { ConfirmAction, Details, Failure, Marker, SectionCard, useFailure } from '../../shared.tsx';

/** A name for a contact in texts and in its buttons' accessible names ('phone (XXX) XXX-0143'). */
const contactName = (kind: ContactKind, masked: string) =>
  kind === 'phone' ? t('security.phoneName', masked) : t('security.emailName', masked);

/** Phones and e-mail addresses (the one-time-code factor's contacts): after the devices. */
export const order = 30;

/** Phones and e-mail addresses: each with Remove; Add sends a code to the new one to confirm it. */
export function Section() {
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
    announce(spokenMasks(t('security.removed', name)));
    await reload();
    heading.current?.focus();
  }

  const list = (kind: ContactKind, items: Array<SecurityPhoneItem | SecurityEmailItem>) =>
    items.length === 0 ? (
      <p>{kind === 'phone' ? t('security.phonesNone') : t('security.emailsNone')}</p>
    ) : (
      <ul className="security__list">
        {items.map((item) => {
          const name = contactName(kind, item.masked);
          return (
            <li key={item.id} className="security__item">
              <h4 className="security__item-name">
                <MaskedText>{item.masked}</MaskedText>{' '}
                {item.recentlyAdded ? <Marker>{t('security.recentlyAdded')}</Marker> : null}
              </h4>
              {item.recentlyAdded ? <p>{t('security.usableFrom', formatTime(item.usableFrom))}</p> : null}
              <Details
                rows={[
                  ...('voice' in item
                    ? ([
                        [t('security.channels'), item.voice ? t('security.voice') : t('security.textOnly')],
                      ] as Array<[string, string]>)
                    : []),
                  [t('security.added'), formatTime(item.createdAt)],
                ]}
              />
              <ConfirmAction
                label={t('security.remove')}
                name={t('security.removeName', name)}
                title={t('security.removeTitle', name)}
                description={t('security.removeDescription', name)}
                confirm={t('security.removeYes')}
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
        {kind === 'phone' ? t('security.addPhone') : t('security.addEmail')}
      </Button>
    </div>
  );

  const form = (kind: ContactKind) => (
    <AddContact
      kind={kind}
      onDone={async (added) => {
        setAdding(null);
        announce(
          spokenMasks(
            t('security.contactAdded', contactName(kind, added.masked), formatTime(added.usableFrom)),
          ),
        );
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
    <SectionCard id="security-contacts" title={t('security.contactsHeading')} ref={heading}>
      <Failure failure={failure} />
      <h3>{t('security.phonesHeading')}</h3>
      {list('phone', overview.phones)}
      {adding === 'phone' ? form('phone') : addButton('phone')}
      <h3>{t('security.emailsHeading')}</h3>
      {list('email', overview.emails)}
      {adding === 'email' ? form('email') : addButton('email')}
    </SectionCard>
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
  // The code field takes focus once the render that shows it is committed. A frame callback set
  // when the answer came could run before React rendered the field (a busy page, a slow machine),
  // and focus stayed where it was.
  useEffect(() => {
    if (sent) codeRef.current?.focus();
  }, [sent]);
  const invalid = (message: string) => {
    setError(message);
    setAttempt((n) => n + 1);
  };

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    clear();
    const trimmed = value.trim();
    if (!trimmed)
      return invalid(kind === 'phone' ? t('security.phoneRequired') : t('security.emailRequired'));
    if (kind === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed))
      return invalid(t('security.emailInvalid'));
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
    } else if (answer.kind === 'refused' && (answer.code === 1400 || answer.code === 1409)) {
      // The number or address itself: its field says why.
      invalid(answer.message);
    } else fail(answer.message);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !sent) return;
    clear();
    if (code === '') return invalid(t('security.contactCodeRequired'));
    if (code.length !== limits.codeLength) return invalid(t('security.codeShort'));
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
        {kind === 'phone' ? t('security.addPhoneHeading') : t('security.addEmailHeading')}
      </h4>
      <ErrorSummary headingLevel={4} errors={error ? [{ fieldId, message: error }] : []} attempt={attempt} />
      <Failure failure={failure} />
      {sent ? (
        <>
          <p>
            <MaskedText>{t('security.codeSentTo', sent.masked)}</MaskedText>
          </p>
          <CodeInput
            id={codeId}
            ref={codeRef}
            label={t('security.contactCodeLabel')}
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
            label={kind === 'phone' ? t('security.phoneLabel') : t('security.emailLabel')}
            {...(kind === 'phone' ? { hint: t('security.phoneHint') } : {})}
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
              label={t('security.voiceLabel')}
              checked={voice}
              onChange={({ checked }) => setVoice(checked)}
            />
          ) : null}
        </>
      )}
      <div className="security__actions">
        <Button type="submit" loading={busy} loadingText={t('security.working')}>
          {sent ? t('security.confirm') : t('security.sendCode')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('security.cancel')}
        </Button>
      </div>
    </form>
  );
}
