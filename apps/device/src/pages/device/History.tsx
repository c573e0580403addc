import type { DevicePush } from '@gatehouse/contract/client';
import { t } from '../../messages/index.ts';
import { browserOn, formatTime, journeyName } from './format.ts';

/** What happened to a push, by its status (contract pushStatusValue). */
export function statusText(status: string): string {
  switch (status) {
    case 'SUCCESS':
    case 'COMPLETED_SUCCESSFUL':
      return t('statusApproved');
    case 'DECLINED':
      return t('statusDeclined');
    case 'FRAUD':
      return t('statusFraud');
    case 'EXPIRED_PENDING':
    case 'EXPIRED_FAILURE':
      return t('statusExpired');
    case 'COMPLETED_FAILURE':
      return t('statusFailed');
    default:
      return t('statusPending');
  }
}

/** Past pushes, newest first, each with what happened. */
export function History({ past }: { past: DevicePush[] }) {
  return (
    <section className="gh-shell__section" aria-labelledby="history-heading">
      <h2 id="history-heading">{t('historyHeading')}</h2>
      {past.length === 0 ? (
        <p>{t('historyNone')}</p>
      ) : (
        <ul className="gh-shell__list">
          {past.map((push) => (
            <li key={push.id} className="gh-shell__item">
              {t(
                'historyItem',
                journeyName(push.content.journey),
                statusText(push.status),
                push.username,
                formatTime(push.answeredAt ?? push.createdAt),
              )}
              <br />
              {t('historyWhere', browserOn(push.content), push.content.host)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
