import { useAnnounce } from '@gatehouse/ui';
import { useRef, useState } from 'react';
import { t } from '../../../texts.ts';
import { useSecurity } from '../context.tsx';
import { formatTime } from '../format.ts';
import { ConfirmAction, Details, Failure, Marker, SectionCard, useFailure } from '../shared.tsx';

/** Where the customer is signed in: End any other session, or all of them; this one is marked. */
export function SessionsSection() {
  const { overview, run, reload } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState<string | null>(null);

  async function end(body: { id: string } | { allOthers: true }, done: string) {
    clear();
    setBusy('id' in body ? body.id : 'all');
    const answer = await run('securitySessionEnd', body);
    setBusy(null);
    if (!answer) return;
    if (answer.kind !== 'done') {
      fail(answer.message);
      return;
    }
    announce(done);
    await reload();
    heading.current?.focus();
  }

  // This session first, then the others as the server lists them.
  const sessions = [...overview.sessions].sort((a, b) => Number(b.current) - Number(a.current));
  const others = sessions.filter((s) => !s.current);
  return (
    <SectionCard id="security-sessions" title={t('security.sessionsHeading')} ref={heading}>
      <Failure failure={failure} />
      <ul className="security__list">
        {sessions.map((session) => {
          const name = t('security.browserOn', session.browser, session.os);
          return (
            <li key={session.id} className="security__item">
              <h3 className="security__item-name">
                {name} {session.current ? <Marker>{t('security.thisSession')}</Marker> : null}
              </h3>
              <Details
                rows={[
                  [t('security.browser'), session.browser],
                  [t('security.os'), session.os],
                  [t('security.address'), session.address],
                  [t('security.signedIn'), formatTime(session.signedInAt)],
                  [t('security.lastActivity'), formatTime(session.lastActivityAt)],
                ]}
              />
              {session.current ? null : (
                <ConfirmAction
                  label={t('security.end')}
                  name={t('security.endName', name, formatTime(session.signedInAt))}
                  title={t('security.endTitle', name)}
                  description={t('security.endDescription')}
                  confirm={t('security.endOneYes')}
                  busy={busy === session.id}
                  onConfirm={() => void end({ id: session.id }, t('security.ended', name))}
                />
              )}
            </li>
          );
        })}
      </ul>
      {others.length === 0 ? (
        <p>{t('security.noOtherSessions')}</p>
      ) : (
        <div className="security__actions">
          <ConfirmAction
            label={t('security.endAll')}
            name={t('security.endAll')}
            title={t('security.endAllTitle')}
            description={t('security.endAllDescription')}
            confirm={t('security.endYes')}
            busy={busy === 'all'}
            onConfirm={() => void end({ allOthers: true }, t('security.endedAll'))}
            variant="secondary"
          />
        </div>
      )}
    </SectionCard>
  );
}
