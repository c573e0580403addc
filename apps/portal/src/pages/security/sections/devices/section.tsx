import { useAnnounce } from '@gatehouse/ui';
import { useRef, useState } from 'react';
import { t } from '../../../../texts.ts';
import { useSecurity } from '../../context.tsx';
import {
  ConfirmAction,
  Details,
  Failure,
  Marker,
  RecentNote,
  SectionCard,
  usedRows,
  useFailure,
} from '../../shared.tsx';

/**
 * Push devices and tokens, two factors' credentials under one heading (the page lists them together,
 * so they share a section rather than each factor having one): after the authenticator apps.
 */
export const order = 20;

/** Push devices and token credentials: name, added, last used; Remove behind a confirmation. */
export function Section() {
  const { overview, run, reload } = useSecurity();
  const announce = useAnnounce();
  const heading = useRef<HTMLHeadingElement>(null);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState<string | null>(null);

  async function remove(id: string, name: string) {
    clear();
    setBusy(id);
    const answer = await run('securityCredentialRemove', { id });
    setBusy(null);
    if (!answer) return;
    if (answer.kind !== 'done') {
      fail(answer.message);
      return;
    }
    announce(t('security.removed', name));
    await reload();
    heading.current?.focus();
  }

  const items = [
    ...overview.pushDevices.map((d) => ({ ...d, kind: t('security.pushDevice'), label: d.name })),
    ...overview.tokens.map((d) => ({
      ...d,
      kind: t('security.token'),
      label: t('security.tokenName', d.name, d.credentialId),
    })),
  ];
  return (
    <SectionCard id="security-devices" title={t('security.devicesHeading')} ref={heading}>
      <Failure failure={failure} />
      {items.length === 0 ? (
        <p>{t('security.devicesNone')}</p>
      ) : (
        <ul className="security__list">
          {items.map((item) => (
            <li key={item.id} className="security__item">
              <h3 className="security__item-name">
                {item.label} <Marker>{item.kind}</Marker>
              </h3>
              <Details rows={usedRows(item.createdAt, item.lastUsedAt)} />
              <RecentNote item={item} />
              <ConfirmAction
                label={t('security.remove')}
                name={t('security.removeName', item.label)}
                title={t('security.removeTitle', item.label)}
                description={t('security.removeDescription', item.label)}
                confirm={t('security.removeYes')}
                busy={busy === item.id}
                onConfirm={() => void remove(item.id, item.label)}
              />
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
