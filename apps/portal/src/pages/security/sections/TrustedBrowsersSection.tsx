import { format } from '@gatehouse/contract/client';
import { useRef, useState } from 'react';
import { useAnnounce } from '../../../announcer.tsx';
import { useSecurity } from '../context.tsx';
import { formatTime } from '../format.ts';
import { securityPageMessages as t } from '../security-page-messages.ts';
import { ConfirmAction, Details, Failure, Marker, Section, useFailure } from '../shared.tsx';

/** Browsers that skip the second factor at sign-in: Revoke one, or all of them. */
export function TrustedBrowsersSection() {
  const { overview, run, reload } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState<string | null>(null);

  async function revoke(body: { id: string } | { all: true }, done: string) {
    clear();
    setBusy('id' in body ? body.id : 'all');
    const answer = await run('securityTrustedBrowserRevoke', body);
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

  const browsers = overview.trustedBrowsers;
  return (
    <Section id="security-trusted" title={t.trustedHeading} ref={heading}>
      <Failure failure={failure} />
      {browsers.length === 0 ? (
        <p>{t.trustedNone}</p>
      ) : (
        <>
          <p>{t.trustedIntro}</p>
          <ul className="security__list">
            {browsers.map((browser) => {
              const name = format(t.browserOn, browser.browser, browser.os);
              return (
                <li key={browser.id} className="security__item">
                  <h3 className="security__item-name">
                    {name} {browser.current ? <Marker>{t.thisBrowser}</Marker> : null}
                  </h3>
                  <Details
                    rows={[
                      [t.added, formatTime(browser.createdAt)],
                      [t.lastUsed, browser.lastUsedAt ? formatTime(browser.lastUsedAt) : t.neverUsed],
                      [t.expires, formatTime(browser.expiresAt)],
                    ]}
                  />
                  <ConfirmAction
                    label={t.revoke}
                    name={format(t.revokeName, name, formatTime(browser.createdAt))}
                    title={format(t.revokeTitle, name)}
                    description={t.revokeDescription}
                    confirm={t.revokeYes}
                    busy={busy === browser.id}
                    onConfirm={() => void revoke({ id: browser.id }, format(t.revoked, name))}
                  />
                </li>
              );
            })}
          </ul>
          <div className="security__actions">
            <ConfirmAction
              label={t.revokeAll}
              name={t.revokeAll}
              title={t.revokeAllTitle}
              description={t.revokeAllDescription}
              confirm={t.revokeYes}
              busy={busy === 'all'}
              onConfirm={() => void revoke({ all: true }, t.revokedAll)}
              variant="secondary"
            />
          </div>
        </>
      )}
    </Section>
  );
}
