import { useAnnounce } from '@gatehouse/ui';
import { useRef, useState } from 'react';
import { t } from '../../../texts.ts';
import { useSecurity } from '../context.tsx';
import { formatTime } from '../format.ts';
import { ConfirmAction, Details, Failure, Marker, SectionCard, useFailure } from '../shared.tsx';

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
    <SectionCard id="security-trusted" title={t('security.trustedHeading')} ref={heading}>
      <Failure failure={failure} />
      {browsers.length === 0 ? (
        <p>{t('security.trustedNone')}</p>
      ) : (
        <>
          <p>{t('security.trustedIntro')}</p>
          <ul className="security__list">
            {browsers.map((browser) => {
              const name = t('security.browserOn', browser.browser, browser.os);
              return (
                <li key={browser.id} className="security__item">
                  <h3 className="security__item-name">
                    {name} {browser.current ? <Marker>{t('security.thisBrowser')}</Marker> : null}
                  </h3>
                  <Details
                    rows={[
                      [t('security.added'), formatTime(browser.createdAt)],
                      [
                        t('security.lastUsed'),
                        browser.lastUsedAt ? formatTime(browser.lastUsedAt) : t('security.neverUsed'),
                      ],
                      [t('security.expires'), formatTime(browser.expiresAt)],
                    ]}
                  />
                  <ConfirmAction
                    label={t('security.revoke')}
                    name={t('security.revokeName', name, formatTime(browser.createdAt))}
                    title={t('security.revokeTitle', name)}
                    description={t('security.revokeDescription')}
                    confirm={t('security.revokeYes')}
                    busy={busy === browser.id}
                    onConfirm={() => void revoke({ id: browser.id }, t('security.revoked', name))}
                  />
                </li>
              );
            })}
          </ul>
          <div className="security__actions">
            <ConfirmAction
              label={t('security.revokeAll')}
              name={t('security.revokeAll')}
              title={t('security.revokeAllTitle')}
              description={t('security.revokeAllDescription')}
              confirm={t('security.revokeYes')}
              busy={busy === 'all'}
              onConfirm={() => void revoke({ all: true }, t('security.revokedAll'))}
              variant="secondary"
            />
          </div>
        </>
      )}
    </SectionCard>
  );
}
