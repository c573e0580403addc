import { Alert, Button, useAnnounce } from '@gatehouse/ui';
import { useState } from 'react';
import { type DemoAccount, deviceApi } from '../../api.ts';
import type { DeviceKey } from '../../device/deviceKey.ts';
import { t } from '../../messages/index.ts';

/**
 * Development only: the demo accounts with push, each with a button that makes this browser's
 * key their push device (POST devDemoDeviceClaim, proof 'claim:{username}').
 */
export function DemoDevices({
  accounts,
  deviceKey,
  onClaimed,
}: {
  accounts: DemoAccount[];
  deviceKey: DeviceKey;
  onClaimed: () => Promise<void> | void;
}) {
  const announce = useAnnounce();
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function claim(username: string) {
    if (busy) return;
    setBusy(username);
    setResult(null);
    const answer = await deviceApi.claim(deviceKey, username);
    setBusy(null);
    if (!answer.ok) {
      setResult({ ok: false, text: answer.message });
      return;
    }
    const text = t('demoClaimed', username);
    setResult({ ok: true, text });
    announce(text);
    await onClaimed();
  }

  return (
    <section className="gh-shell__section" aria-labelledby="demo-heading">
      <h2 id="demo-heading">{t('demoHeading')}</h2>
      <p>{t('demoIntro')}</p>
      {result ? <Alert variant={result.ok ? 'confirm' : 'critical'}>{result.text}</Alert> : null}
      <ul className="gh-shell__list">
        {accounts.map((account) => (
          <li key={account.username} className="gh-shell__item">
            <p>{account.about}</p>
            <div className="gh-shell__actions">
              <Button
                variant="secondary"
                loading={busy === account.username}
                loadingText={t('loading')}
                onClick={() => void claim(account.username)}
              >
                {t('demoUse', account.username)}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
