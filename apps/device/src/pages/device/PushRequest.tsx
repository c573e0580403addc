import { type DevicePush, PUSH_NUMBER_DIGITS, type PushDecision } from '@gatehouse/contract/client';
import { Button, CodeInput, Dialog, DialogClose } from '@gatehouse/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { deviceApi } from '../../api.ts';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { t } from '../../messages/index.ts';
import { useFieldError } from '../../usePage.ts';
import { browserOn, formatTime, journeyName } from './format.ts';

export type Outcome = { variant: 'confirm' | 'critical'; text: string };

/** The text of an answered push, by the status the server gave it (or the decision sent). */
function outcomeOf(push: DevicePush, decision: PushDecision, status: string | undefined): Outcome {
  if (status === 'COMPLETED_FAILURE') {
    return { variant: 'critical', text: t('outcomeWrongNumber', push.username) };
  }
  const said = status === 'FRAUD' ? 'FRAUD' : status === 'DECLINED' ? 'DECLINE' : decision;
  const key =
    said === 'APPROVE' ? 'outcomeApproved' : said === 'DECLINE' ? 'outcomeDeclined' : 'outcomeFraud';
  return { variant: 'confirm', text: t(key, push.username) };
}

/** Seconds left until the push expires, counted down once a second. */
const secondsUntil = (time: string) => Math.max(0, Math.ceil((Date.parse(time) - Date.now()) / 1000));

function useSecondsLeft(expiresAt: string): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(expiresAt));
  useEffect(() => {
    setSeconds(secondsUntil(expiresAt));
    const timer = setInterval(() => setSeconds(secondsUntil(expiresAt)), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return seconds;
}

/**
 * One pending push: what asks, from where, until when (all of it the server's own words, decision
 * 032); the three answers, each signed by the device key; with number matching on, the number the
 * sign-in screen shows, typed here first (the device is never told it).
 */
export function PushRequest({
  push,
  deviceKey,
  onAnswered,
  onExpired,
}: {
  push: DevicePush;
  deviceKey: DeviceKey;
  onAnswered: (outcome: Outcome) => void;
  /** The countdown ended while focus was on this card (which is about to go). */
  onExpired: (outcome: Outcome) => void;
}) {
  const id = useId();
  const headingId = `${id}-heading`;
  const seconds = useSecondsLeft(push.expiresAt);
  const expired = seconds === 0;
  const [number, setNumber] = useState('');
  const [sending, setSending] = useState<PushDecision | null>(null);
  const [fraudOpen, setFraudOpen] = useState(false);
  const numberField = useRef<HTMLInputElement>(null);
  const card = useRef<HTMLElement>(null);
  const numberError = useFieldError(numberField);
  // The card leaves the list once it expires: focus on it would fall to the page's body, unsaid.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the countdown ends.
  useEffect(() => {
    if (expired && card.current?.contains(document.activeElement)) {
      onExpired({ variant: 'critical', text: t('requestExpired', push.username) });
    }
  }, [expired]);
  const matching = push.numberMatching;
  const typed = number.length === PUSH_NUMBER_DIGITS;
  const step = push.content.journey === 'STEPUP';

  async function answer(decision: PushDecision) {
    if (sending || expired) return;
    if (decision === 'APPROVE' && matching && !typed) {
      numberError.show(t('numberRequired'));
      return;
    }
    setSending(decision);
    const result = await deviceApi.answer(
      deviceKey,
      push.id,
      decision,
      decision === 'APPROVE' && matching ? number : undefined,
    );
    setSending(null);
    onAnswered(
      result.ok
        ? outcomeOf(push, decision, result.data.status)
        : { variant: 'critical', text: result.message },
    );
  }

  const minutes = Math.floor(seconds / 60);
  const countdown = expired ? t('expired') : t('expiresIn', minutes, String(seconds % 60).padStart(2, '0'));

  return (
    <article className="gh-shell__request" aria-labelledby={headingId} ref={card}>
      <h3 id={headingId}>{t(step ? 'requestHeadingStepUp' : 'requestHeadingLogin', push.username)}</h3>
      <dl className="gh-shell__details">
        <dt>{t('detailAccount')}</dt>
        <dd>{push.username}</dd>
        <dt>{t('detailJourney')}</dt>
        <dd>{journeyName(push.content.journey)}</dd>
        <dt>{t('detailBrowser')}</dt>
        <dd>{browserOn(push.content)}</dd>
        <dt>{t('detailTime')}</dt>
        <dd>{formatTime(push.createdAt)}</dd>
        <dt>{t('detailHost')}</dt>
        <dd>{push.content.host}</dd>
        <dt>{t('detailExpires')}</dt>
        <dd>
          <time dateTime={`PT${seconds}S`}>{countdown}</time>
        </dd>
      </dl>
      {matching ? (
        <CodeInput
          id={`${id}-number`}
          ref={numberField}
          label={t('numberLabel')}
          hint={t('numberHint')}
          error={numberError.error}
          maxLength={PUSH_NUMBER_DIGITS}
          placeholder=""
          size="large"
          // Read-only, not disabled, once expired: a disabled field drops the focus it holds.
          readOnly={expired}
          aria-disabled={expired ? 'true' : undefined}
          value={number}
          onValueChange={(value) => {
            setNumber(value);
            numberError.clear();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void answer('APPROVE');
          }}
        />
      ) : null}
      <div className="gh-shell__actions">
        <Button
          variant="primary"
          data-action="approve"
          onClick={() => void answer('APPROVE')}
          // Pressable without the number: pressing it is how the missing number is told.
          aria-disabled={expired ? 'true' : undefined}
          loading={sending === 'APPROVE'}
          loadingText={t('answering')}
        >
          {t('approve')}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void answer('DECLINE')}
          aria-disabled={expired ? 'true' : undefined}
          loading={sending === 'DECLINE'}
          loadingText={t('answering')}
        >
          {t('decline')}
        </Button>
        <Dialog
          title={t('fraudTitle')}
          description={t('fraudDescription', push.username)}
          open={fraudOpen}
          onOpenChange={(open) => setFraudOpen(open && !expired)}
          trigger={
            <Button
              variant="danger"
              aria-disabled={expired ? 'true' : undefined}
              loading={sending === 'FRAUD'}
              loadingText={t('answering')}
            >
              {t('reportFraud')}
            </Button>
          }
          footer={
            <>
              <Button
                variant="danger"
                onClick={() => {
                  setFraudOpen(false);
                  void answer('FRAUD');
                }}
              >
                {t('fraudConfirm')}
              </Button>
              <DialogClose asChild>
                <Button variant="secondary">{t('cancel')}</Button>
              </DialogClose>
            </>
          }
        />
      </div>
    </article>
  );
}
