import type { DevicePush } from '@gatehouse/contract/client';
import { Alert } from '@gatehouse/ui';
import { useEffect, useRef, useState } from 'react';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { t } from '../../messages/index.ts';
import { type Outcome, PushRequest } from './PushRequest.tsx';

/**
 * The pending pushes, each with its answers; the outcome of the last answer stays above them,
 * focused (its card is gone once the list is read again) and so read out.
 */
export function Requests({
  pending,
  failed,
  noAccounts = false,
  deviceKey,
  onAnswered,
}: {
  pending: DevicePush[] | null;
  failed: boolean;
  /** This device approves no account (yet, or any more), and its requests were refused for it. */
  noAccounts?: boolean;
  deviceKey: DeviceKey;
  onAnswered: () => void;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);
  return (
    <section className="gh-shell__section" aria-labelledby="requests-heading">
      <h2 id="requests-heading">{t('requestsHeading')}</h2>
      {outcome ? (
        <Alert
          key={outcome.text}
          variant={outcome.variant}
          ref={outcomeRef}
          tabIndex={-1}
          dismissible
          onDismiss={() => setOutcome(null)}
        >
          {outcome.text}
        </Alert>
      ) : null}
      {failed ? <p>{t('requestsUnavailable')}</p> : null}
      {noAccounts && pending === null ? (
        <p>{t('requestsNoAccounts')}</p>
      ) : pending === null ? (
        failed ? null : (
          <p>{t('loading')}</p>
        )
      ) : pending.length === 0 ? (
        <p>{t('requestsNone')}</p>
      ) : (
        <ul className="gh-shell__list">
          {pending.map((push) => (
            <li key={push.id}>
              <PushRequest
                push={push}
                deviceKey={deviceKey}
                onAnswered={(next) => {
                  setOutcome(next);
                  onAnswered();
                }}
                onExpired={(next) => {
                  setOutcome(next);
                  onAnswered();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
