import { type SecurityAppItem, Status } from '@gatehouse/contract/client';
import { TransportError } from '@gatehouse/signin';
import {
  passkeySecurityCalls as calls,
  ceremonyProblem,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  startRegistration,
} from '@gatehouse/signin/factors/passkey';
import { Button, ErrorSummary, type ErrorSummaryItem, TextInput, useAnnounce } from '@gatehouse/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from '../../../../api.ts';
import { type PortalTextKey, t } from '../../../../texts.ts';
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

/** The contract's passkey name rule (passkey API: 1-40 characters). */
const NAME_MAX = 40;

/** The account's passkeys: the overview's generic per-module list `credentials.passkey`. */
const passkeysOf = (overview: { credentials: Record<string, SecurityAppItem[]> }): SecurityAppItem[] =>
  overview.credentials.passkey ?? [];

type Answer<T> = { kind: 'done'; data: T } | { kind: 'again' } | { kind: 'refused'; message: string };

/**
 * One passkey call of the page. An ended session (401) or a step-up run out (1412) is the page's
 * business: `again` reloads the overview, which signs in again or brings the step-up back.
 */
async function passkeyRequest<T>(path: string, body: unknown): Promise<Answer<T>> {
  try {
    const result = await api.request<T>('POST', path, { body });
    if (result.http === 401 || result.status.code === Status.STEP_UP_REQUIRED) return { kind: 'again' };
    if (result.status.code === Status.SUCCESS)
      return { kind: 'done', data: result.envelope?.successData as T };
    return { kind: 'refused', message: result.status.message || t('security.genericError') };
  } catch (error) {
    if (error instanceof TransportError) return { kind: 'refused', message: t('security.genericError') };
    throw error;
  }
}

/** Passkeys: the page's first factor section, above the authenticator apps (10): the strongest factor. */
export const order = 5;

/** Passkeys: each with Remove; Add asks for a name, then the browser creates the passkey. */
export function Section() {
  const { overview, run, reload } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const passkeys = passkeysOf(overview);

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
    <SectionCard id="security-passkeys" title={t('security.passkeysHeading')} ref={heading}>
      <Failure failure={failure} />
      <p>{t('security.passkeysIntro')}</p>
      {passkeys.length === 0 ? (
        <p>{t('security.passkeysNone')}</p>
      ) : (
        <ul className="security__list">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="security__item">
              <h3 className="security__item-name">{passkey.name}</h3>
              <Details rows={usedRows(passkey.createdAt, passkey.lastUsedAt)} />
              <RecentNote item={passkey} />
              <ConfirmAction
                label={t('security.remove')}
                name={t('security.removeName', passkey.name)}
                title={t('security.removeTitle', passkey.name)}
                description={t('security.removeDescription', passkey.name)}
                confirm={t('security.removeYes')}
                busy={busy === passkey.id}
                onConfirm={() => void remove(passkey.id, passkey.name)}
              />
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <AddPasskey
          onDone={async (name) => {
            setAdding(false);
            announce(t('security.passkeyAdded', name));
            await reload();
            heading.current?.focus();
          }}
          onAbandon={() => {
            setAdding(false);
            requestAnimationFrame(() => addButton.current?.focus());
          }}
        />
      ) : (
        <div className="security__actions">
          <Button
            variant="secondary"
            ref={addButton}
            onClick={() => {
              clear();
              setAdding(true);
            }}
          >
            {t('security.addPasskey')}
          </Button>
        </div>
      )}
    </SectionCard>
  );
}

/** What a failed ceremony says (the browser's prompt closed, this device has one, or it cannot). */
const ceremonyTexts: Record<'cancelled' | 'exists' | 'unavailable', PortalTextKey> = {
  cancelled: 'security.passkeyCancelled',
  exists: 'security.passkeyExists',
  unavailable: 'security.passkeyUnavailable',
};

/** The new passkey: its name, then the browser's ceremony, then the service keeps it. */
function AddPasskey({
  onDone,
  onAbandon,
}: {
  onDone: (name: string) => Promise<void>;
  onAbandon: () => void;
}) {
  const { reload } = useSecurity();
  const heading = useRef<HTMLHeadingElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const nameId = 'security-passkey-name';
  useEffect(() => heading.current?.focus(), []);
  const summary: ErrorSummaryItem[] = nameError ? [{ fieldId: nameId, message: nameError }] : [];
  useFormErrors(summary.length > 0 || failure !== null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    clear();
    const chosen = name.trim();
    const problem = !chosen
      ? t('security.passkeyNameRequired')
      : chosen.length > NAME_MAX
        ? t('security.passkeyNameTooLong')
        : undefined;
    setNameError(problem);
    setAttempt((n) => n + 1);
    if (problem) return;
    setBusy(true);
    const refused = (text: string) => {
      setBusy(false);
      fail(text);
      nameRef.current?.focus();
    };
    const options = await passkeyRequest<{ options: PublicKeyCredentialCreationOptionsJSON }>(
      calls.securityPasskeyOptions.path,
      {},
    );
    if (options.kind === 'again') return void (await reload());
    if (options.kind === 'refused') return refused(options.message);
    let response: RegistrationResponseJSON;
    try {
      response = await startRegistration({ optionsJSON: options.data.options });
    } catch (error) {
      const problem = ceremonyProblem(error);
      if (problem === 'aborted') return void setBusy(false);
      return refused(t(ceremonyTexts[problem]));
    }
    const added = await passkeyRequest<{ passkey?: SecurityAppItem }>(calls.securityPasskeyAdd.path, {
      name: chosen,
      response,
    });
    if (added.kind === 'again') return void (await reload());
    if (added.kind === 'refused') return refused(added.message);
    await onDone(added.data?.passkey?.name ?? chosen);
  }

  return (
    <form className="security__add" noValidate onSubmit={(event) => void submit(event)}>
      <h3 tabIndex={-1} ref={heading}>
        {t('security.addPasskeyHeading')}
      </h3>
      <ErrorSummary headingLevel={4} errors={summary} attempt={attempt} />
      <Failure failure={failure} />
      <p>{t('security.addPasskeyText')}</p>
      <TextInput
        id={nameId}
        ref={nameRef}
        label={t('security.nameLabel')}
        hint={t('security.passkeyNameHint')}
        required
        autoComplete="off"
        maxLength={NAME_MAX + 20}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={nameError}
      />
      <div className="security__actions">
        <Button type="submit" loading={busy} loadingText={t('security.passkeyWaiting')}>
          {t('security.passkeyCreate')}
        </Button>
        <Button variant="secondary" onClick={onAbandon}>
          {t('security.cancel')}
        </Button>
      </div>
    </form>
  );
}
