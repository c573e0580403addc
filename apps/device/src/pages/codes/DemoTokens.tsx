import { Alert, Button } from '@gatehouse/ui';
import { useEffect, useState } from 'react';
import type { AddResult } from './CodesPage.tsx';
import { type DemoToken, demoTokens } from './demoTokens.ts';
import { tc } from './texts.ts';

/**
 * Development only (GET devDemoTokens answers): a button per demo account with a token that adds
 * its token to this device's codes. Nothing shows in production, where the route is missing.
 */
export function DemoTokens({ add }: { add: (text: string) => Promise<AddResult> }) {
  const [tokens, setTokens] = useState<DemoToken[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    void demoTokens().then((list) => live && setTokens(list));
    return () => {
      live = false;
    };
  }, []);
  if (!tokens?.length) return null;

  async function install(token: DemoToken) {
    if (busy) return;
    setBusy(token.username);
    setResult(null);
    const answer = await add(token.uri);
    setBusy(null);
    setResult(
      answer.ok ? { ok: true, text: tc('codes.added', answer.name) } : { ok: false, text: answer.message },
    );
  }

  return (
    <section className="gh-shell__section" aria-labelledby="demo-tokens-heading">
      <h2 id="demo-tokens-heading">{tc('codes.demoHeading')}</h2>
      <p>{tc('codes.demoIntro')}</p>
      {result ? <Alert variant={result.ok ? 'confirm' : 'critical'}>{result.text}</Alert> : null}
      <ul className="gh-shell__list">
        {tokens.map((token) => (
          <li key={token.username} className="gh-shell__item">
            <div className="gh-shell__actions">
              <Button
                variant="secondary"
                loading={busy === token.username}
                onClick={() => void install(token)}
              >
                {tc('codes.demoAdd', token.username)}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
