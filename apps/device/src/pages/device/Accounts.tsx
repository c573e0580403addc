import type { DeviceRegistration } from '@gatehouse/contract/client';
import { Alert, Button, Dialog, DialogClose, TextInput, useAnnounce } from '@gatehouse/ui';
import { type FormEvent, useRef, useState } from 'react';
import { deviceApi } from '../../api.ts';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { t } from '../../messages/index.ts';
import { routes } from '../../router.ts';
import { useFieldError } from '../../usePage.ts';
import { formatTime } from './format.ts';
import { forgetAccount } from './remembered.ts';

/** The contract's device name rule (deviceName: trimmed, 1 to 60 characters), as a field error. */
export function nameError(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return t('nameRequired');
  if (trimmed.length > 60) return t('nameTooLong');
  return undefined;
}

/** The accounts this device approves for, each with Rename and Remove. */
export function Accounts({
  registrations,
  failed,
  removedElsewhere = [],
  deviceKey,
  onChanged,
}: {
  registrations: DeviceRegistration[] | null;
  failed: boolean;
  /** Accounts whose registration of this device was removed elsewhere since it last read them. */
  removedElsewhere?: string[];
  deviceKey: DeviceKey;
  onChanged: () => Promise<void> | void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section className="gh-shell__section" aria-labelledby="accounts-heading">
      <h2 id="accounts-heading" ref={heading} tabIndex={-1}>
        {t('accountsHeading')}
      </h2>
      {removedElsewhere.map((username) => (
        <Alert key={username} variant="info">
          {t('removedElsewhere', username)}
        </Alert>
      ))}
      {failed ? <p>{t('accountsUnavailable')}</p> : null}
      {registrations === null ? (
        failed ? null : (
          <p>{t('loading')}</p>
        )
      ) : registrations.length === 0 ? (
        <p>{t('accountsNone')}</p>
      ) : (
        <ul className="gh-shell__list">
          {registrations.map((registration) => (
            <Account
              key={registration.id}
              registration={registration}
              deviceKey={deviceKey}
              onChanged={onChanged}
              onRemoved={() => heading.current?.focus()}
            />
          ))}
        </ul>
      )}
      <p className="gh-shell__actions">
        <a className="gh-shell__link" href={`#${routes.add}`}>
          {t('addAccount')}
        </a>
      </p>
    </section>
  );
}

function Account({
  registration,
  deviceKey,
  onChanged,
  onRemoved,
}: {
  registration: DeviceRegistration;
  deviceKey: DeviceKey;
  onChanged: () => Promise<void> | void;
  onRemoved: () => void;
}) {
  const announce = useAnnounce();
  const { id, username } = registration;
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(registration.name);
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const nameProblem = useFieldError(field);
  const renameButton = useRef<HTMLButtonElement>(null);
  const fieldId = `rename-${id}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = nameError(name);
    setFailure(undefined);
    if (problem) {
      nameProblem.show(problem);
      return;
    }
    nameProblem.clear();
    setBusy(true);
    const answer = await deviceApi.rename(deviceKey, id, name.trim());
    setBusy(false);
    if (!answer.ok) {
      setFailure(answer.message);
      return;
    }
    setEditing(false);
    announce(t('renamed', username, name.trim()));
    await onChanged();
    renameButton.current?.focus();
  }

  async function remove() {
    setConfirming(false);
    setBusy(true);
    setFailure(undefined);
    const answer = await deviceApi.remove(deviceKey, id);
    setBusy(false);
    if (!answer.ok) {
      setFailure(answer.message);
      return;
    }
    await forgetAccount(deviceKey, id);
    announce(t('removed', username));
    onRemoved();
    await onChanged();
  }

  const headingId = `account-${id}`;
  return (
    <li className="gh-shell__item">
      <h3 id={headingId}>{username}</h3>
      <dl className="gh-shell__details">
        <dt>{t('deviceName')}</dt>
        <dd>{registration.name}</dd>
        <dt>{t('added')}</dt>
        <dd>{formatTime(registration.createdAt)}</dd>
        <dt>{t('lastUsed')}</dt>
        <dd>{registration.lastUsedAt ? formatTime(registration.lastUsedAt) : t('neverUsed')}</dd>
      </dl>
      {failure ? <Alert variant="critical">{failure}</Alert> : null}
      {editing ? (
        <form onSubmit={(event) => void save(event)} noValidate>
          <TextInput
            id={fieldId}
            ref={field}
            label={t('renameLabel')}
            hint={t('renameHint')}
            error={nameProblem.error}
            value={name}
            maxLength={60}
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
          />
          <div className="gh-shell__actions">
            <Button type="submit" loading={busy} loadingText={t('loading')}>
              {t('renameSave')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setEditing(false);
                nameProblem.clear();
                setName(registration.name);
                setTimeout(() => renameButton.current?.focus());
              }}
            >
              {t('cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="gh-shell__actions">
          <Button
            variant="secondary"
            ref={renameButton}
            aria-label={t('renameName', username)}
            onClick={() => {
              setEditing(true);
              setTimeout(() => field.current?.focus());
            }}
          >
            {t('rename')}
          </Button>
          <Dialog
            title={t('removeTitle', username)}
            description={t('removeDescription', username)}
            open={confirming}
            onOpenChange={setConfirming}
            trigger={
              <Button
                variant="danger"
                aria-label={t('removeName', username)}
                loading={busy}
                loadingText={t('loading')}
              >
                {t('remove')}
              </Button>
            }
            footer={
              <>
                <Button variant="danger" onClick={() => void remove()}>
                  {t('removeConfirm')}
                </Button>
                <DialogClose asChild>
                  <Button variant="secondary">{t('cancel')}</Button>
                </DialogClose>
              </>
            }
          />
        </div>
      )}
    </li>
  );
}
