import { Alert, Button, Card, Dialog, DialogClose, MaskedText, spokenMasks } from '@gatehouse/ui';
import { forwardRef, type ReactNode, useRef, useState } from 'react';
import { t } from '../../texts.ts';
import { formatTime } from './format.ts';

/** A section of the page: an h2 that takes focus after a change in it, then its content. */
export const SectionCard = forwardRef<HTMLHeadingElement, { id: string; title: string; children: ReactNode }>(
  function SectionCard({ id, title, children }, ref) {
    return (
      <Card as="section" className="security__section" aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`} className="security__section-heading" tabIndex={-1} ref={ref}>
          {title}
        </h2>
        {children}
      </Card>
    );
  },
);

/** An item's facts as a description list: label, value. */
export function Details({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="security__details">
      {rows.map(([label, value]) => (
        <div key={label} className="security__detail">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** 'Added' and 'Last used' of a credential. */
export const usedRows = (createdAt: string, lastUsedAt: string | null): Array<[string, ReactNode]> => [
  [t('security.added'), formatTime(createdAt)],
  [t('security.lastUsed'), lastUsedAt ? formatTime(lastUsedAt) : t('security.neverUsed')],
];

/** A marker beside an item's name ('This session', 'Recently added'). */
export function Marker({ children }: { children: ReactNode }) {
  return <span className="security__marker">{children}</span>;
}

/**
 * A destructive action behind a confirmation dialog (packages/ui Dialog): the button names its
 * item for assistive technology (`name`); focus returns to it when the dialog closes.
 */
export function ConfirmAction({
  label,
  name,
  title,
  description,
  confirm,
  busy,
  onConfirm,
  variant = 'danger',
}: {
  label: string;
  name: string;
  title: string;
  description: string;
  confirm: string;
  busy: boolean;
  onConfirm: () => void;
  variant?: 'danger' | 'secondary';
}) {
  const [open, setOpen] = useState(false);
  // The action starts once the dialog has closed and focus is back on its button, so the action's
  // own focus move (to the section's heading, when its item is gone) comes after.
  const confirmed = useRef(false);
  return (
    <Dialog
      // A masked phone number in them is read as 'the number ending in …', not 'X X X'.
      title={<MaskedText>{title}</MaskedText>}
      description={<MaskedText>{description}</MaskedText>}
      open={open}
      onOpenChange={setOpen}
      onCloseAutoFocus={() => {
        if (!confirmed.current) return;
        confirmed.current = false;
        onConfirm();
      }}
      trigger={
        <Button
          variant={variant}
          size="small"
          aria-label={spokenMasks(name)}
          loading={busy}
          loadingText={t('security.working')}
        >
          {label}
        </Button>
      }
      footer={
        <>
          <Button
            variant="danger"
            onClick={() => {
              confirmed.current = true;
              setOpen(false);
            }}
          >
            {confirm}
          </Button>
          <DialogClose asChild>
            <Button variant="secondary">{t('security.cancel')}</Button>
          </DialogClose>
        </>
      }
    />
  );
}

/** A failure of the section's last action: the server's text, announced (role alert) each time. */
export function Failure({ failure }: { failure: { text: string; attempt: number } | null }) {
  return failure ? (
    <Alert key={failure.attempt} variant="critical">
      {failure.text}
    </Alert>
  ) : null;
}

/** A section's last failure, a new alert each time (so it is heard again). */
export function useFailure() {
  const [failure, setFailure] = useState<{ text: string; attempt: number } | null>(null);
  return {
    failure,
    fail: (text: string) => setFailure((f) => ({ text, attempt: (f?.attempt ?? 0) + 1 })),
    clear: () => setFailure(null),
  };
}

/**
 * An authenticator app, token or push device added less than CONTACT_WAIT_DAYS ago (decision 030):
 * it signs in, but the page's step-up and additions need an established one, so the page says why
 * it is not offered there yet.
 */
export function RecentNote({
  item,
}: {
  item: { recentlyAdded?: boolean | undefined; usableFrom?: string | undefined };
}) {
  if (!item.recentlyAdded || !item.usableFrom) return null;
  return (
    <p className="security__recent">
      <Marker>{t('security.recentlyAdded')}</Marker>{' '}
      {t('security.recentCredential', formatTime(item.usableFrom))}
    </p>
  );
}
