import { type DevicePush, format, type PushDecision } from '@gatehouse/contract/client';
import { Button, Dialog, DialogClose, RadioGroup } from '@gatehouse/ui';
import { useEffect, useId, useState } from 'react';
import { deviceApi } from '../../api.ts';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { messages } from '../../messages.ts';
import { formatTime, journeyName } from './format.ts';

export type Outcome = { variant: 'confirm' | 'critical'; text: string };

/** The text of an answered push, by the status the server gave it (or the decision sent). */
function outcomeOf(push: DevicePush, decision: PushDecision, status: string | undefined): Outcome {
  if (status === 'COMPLETED_FAILURE') {
    return { variant: 'critical', text: format(messages.outcomeWrongNumber, push.username) };
  }
  const said = status === 'FRAUD' ? 'FRAUD' : status === 'DECLINED' ? 'DECLINE' : decision;
  const text =
    said === 'APPROVE'
      ? messages.outcomeApproved
      : said === 'DECLINE'
        ? messages.outcomeDeclined
        : messages.outcomeFraud;
  return { variant: 'confirm', text: format(text, push.username) };
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
 * One pending push: what asks, from where, until when; the three answers, each signed by the
 * device key; with number matching on, the number first (docs/decisions/022-push-and-device.md).
 */
export function PushRequest({
  push,
  deviceKey,
  onAnswered,
}: {
  push: DevicePush;
  deviceKey: DeviceKey;
  onAnswered: (outcome: Outcome) => void;
}) {
  const id = useId();
  const headingId = `${id}-heading`;
  const seconds = useSecondsLeft(push.expiresAt);
  const expired = seconds === 0;
  const [number, setNumber] = useState<string | undefined>();
  const [numberError, setNumberError] = useState<string | undefined>();
  const [sending, setSending] = useState<PushDecision | null>(null);
  const [fraudOpen, setFraudOpen] = useState(false);
  const numbers = push.numbers && push.numbers.length > 0 ? push.numbers : undefined;
  const step = push.content.journey.toUpperCase() === 'STEPUP';

  async function answer(decision: PushDecision) {
    if (sending || expired) return;
    if (decision === 'APPROVE' && numbers && !number) {
      setNumberError(messages.numberRequired);
      document.getElementById(`${id}-number-${numbers[0]}`)?.focus();
      return;
    }
    setSending(decision);
    const result = await deviceApi.answer(
      deviceKey,
      push.id,
      decision,
      decision === 'APPROVE' && numbers ? number : undefined,
    );
    setSending(null);
    onAnswered(
      result.ok
        ? outcomeOf(push, decision, result.data.status)
        : { variant: 'critical', text: result.message },
    );
  }

  const minutes = Math.floor(seconds / 60);
  const countdown = expired
    ? messages.expired
    : format(messages.expiresIn, minutes, String(seconds % 60).padStart(2, '0'));

  return (
    <article className="device__request" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {format(step ? messages.requestHeadingStepUp : messages.requestHeadingLogin, push.username)}
      </h3>
      <dl className="device__details">
        <dt>{messages.detailAccount}</dt>
        <dd>{push.username}</dd>
        <dt>{messages.detailJourney}</dt>
        <dd>{journeyName(push.content.journey)}</dd>
        <dt>{messages.detailBrowser}</dt>
        <dd>{format(messages.detailBrowserValue, push.content.browserName, push.content.osName)}</dd>
        <dt>{messages.detailTime}</dt>
        <dd>{formatTime(push.content.time || push.createdAt)}</dd>
        <dt>{messages.detailHost}</dt>
        <dd>{push.content.host}</dd>
        <dt>{messages.detailExpires}</dt>
        <dd>
          <time dateTime={`PT${seconds}S`}>{countdown}</time>
        </dd>
      </dl>
      {numbers ? (
        <RadioGroup
          id={`${id}-number`}
          name={`${id}-number`}
          legend={messages.numberLegend}
          hint={messages.numberHint}
          orientation="horizontal"
          options={numbers.map((n) => ({ value: n, label: n, disabled: expired }))}
          value={number ?? ''}
          onChange={(value) => {
            setNumber(value);
            setNumberError(undefined);
          }}
          error={numberError}
        />
      ) : null}
      {/* The Button ignores presses while aria-disabled; this one, on the way up, says what is missing. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the button inside is the control, keyboard included. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Enter and Space on the button arrive here as clicks. */}
      <div
        className="device__actions"
        onClick={(event) => {
          if (numbers && !number && (event.target as Element).closest('[data-action="approve"]')) {
            void answer('APPROVE');
          }
        }}
      >
        <Button
          variant="primary"
          data-action="approve"
          onClick={() => void answer('APPROVE')}
          aria-disabled={expired || (numbers && !number) ? 'true' : undefined}
          loading={sending === 'APPROVE'}
          loadingText={messages.answering}
        >
          {messages.approve}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void answer('DECLINE')}
          aria-disabled={expired ? 'true' : undefined}
          loading={sending === 'DECLINE'}
          loadingText={messages.answering}
        >
          {messages.decline}
        </Button>
        <Dialog
          title={messages.fraudTitle}
          description={format(messages.fraudDescription, push.username)}
          open={fraudOpen}
          onOpenChange={(open) => setFraudOpen(open && !expired)}
          trigger={
            <Button
              variant="danger"
              aria-disabled={expired ? 'true' : undefined}
              loading={sending === 'FRAUD'}
              loadingText={messages.answering}
            >
              {messages.reportFraud}
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
                {messages.fraudConfirm}
              </Button>
              <DialogClose asChild>
                <Button variant="secondary">{messages.cancel}</Button>
              </DialogClose>
            </>
          }
        />
      </div>
    </article>
  );
}
