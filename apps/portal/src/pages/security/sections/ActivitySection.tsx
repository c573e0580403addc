import { t } from '../../../texts.ts';
import { useSecurity } from '../context.tsx';
import { formatTime } from '../format.ts';
import { Marker, SectionCard } from '../shared.tsx';

/** The account's recent security events from the audit trail, newest first, as the server gives them. */
export function ActivitySection() {
  const { overview } = useSecurity();
  return (
    <SectionCard id="security-activity" title={t('security.activityHeading')}>
      {overview.activity.length === 0 ? (
        <p>{t('security.activityNone')}</p>
      ) : (
        <ol className="security__activity">
          {overview.activity.map((item) => {
            const where = [
              item.browser && item.os
                ? t('security.browserOn', item.browser, item.os)
                : (item.browser ?? item.os),
              item.address,
            ].filter(Boolean) as string[];
            return (
              <li key={item.id}>
                <span className="security__activity-what">
                  {item.description}{' '}
                  {item.outcome === 'failure' ? <Marker>{t('security.activityFailed')}</Marker> : null}
                </span>
                <span className="security__activity-when">
                  <time dateTime={item.at}>{formatTime(item.at)}</time>
                  {where.length
                    ? `${t('security.activitySeparator')}${where.join(t('security.activitySeparator'))}`
                    : null}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </SectionCard>
  );
}
