import { type DevicePush, format } from '@gatehouse/contract/client';
import { messages } from '../../messages.ts';
import { formatTime, journeyName } from './format.ts';

/** What happened to a push, by its status (contract pushStatusValue). */
export function statusText(status: string): string {
  switch (status) {
    case 'SUCCESS':
    case 'COMPLETED_SUCCESSFUL':
      return messages.statusApproved;
    case 'DECLINED':
      return messages.statusDeclined;
    case 'FRAUD':
      return messages.statusFraud;
    case 'EXPIRED_PENDING':
    case 'EXPIRED_FAILURE':
      return messages.statusExpired;
    case 'COMPLETED_FAILURE':
      return messages.statusFailed;
    default:
      return messages.statusPending;
  }
}

/** Past pushes, newest first, each with what happened. */
export function History({ past }: { past: DevicePush[] }) {
  return (
    <section className="device__section" aria-labelledby="history-heading">
      <h2 id="history-heading">{messages.historyHeading}</h2>
      {past.length === 0 ? (
        <p>{messages.historyNone}</p>
      ) : (
        <ul className="device__list">
          {past.map((push) => (
            <li key={push.id} className="device__item">
              {format(
                messages.historyItem,
                journeyName(push.content.journey),
                statusText(push.status),
                push.username,
                formatTime(push.answeredAt ?? push.createdAt),
              )}
              <br />
              {format(messages.detailBrowserValue, push.content.browserName, push.content.osName)},{' '}
              {push.content.host}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
