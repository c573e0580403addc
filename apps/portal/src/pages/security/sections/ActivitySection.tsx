import { format } from '@gatehouse/contract/client';
import { useSecurity } from '../context.tsx';
import { formatTime } from '../format.ts';
import { securityPageMessages as t } from '../security-page-messages.ts';
import { Marker, Section } from '../shared.tsx';

/** The account's recent security events from the audit trail, newest first, as the server gives them. */
export function ActivitySection() {
  const { overview } = useSecurity();
  return (
    <Section id="security-activity" title={t.activityHeading}>
      {overview.activity.length === 0 ? (
        <p>{t.activityNone}</p>
      ) : (
        <ol className="security__activity">
          {overview.activity.map((item) => {
            const where = [
              item.browser && item.os
                ? format(t.browserOn, item.browser, item.os)
                : (item.browser ?? item.os),
              item.address,
            ].filter(Boolean) as string[];
            return (
              <li key={item.id}>
                <span className="security__activity-what">
                  {item.description} {item.outcome === 'failure' ? <Marker>{t.activityFailed}</Marker> : null}
                </span>
                <span className="security__activity-when">
                  <time dateTime={item.at}>{formatTime(item.at)}</time>
                  {where.length ? `${t.activitySeparator}${where.join(t.activitySeparator)}` : null}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </Section>
  );
}
