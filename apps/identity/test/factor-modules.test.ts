import { describe, expect, test } from 'vitest';
import { factors } from '../src/factors/registry.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { addApp, appClock, totpCheck } from './support/app-codes.ts';
import { atFactor, factorAccount } from './support/factors.ts';
import { code, targets, useHarness } from './support/harness.ts';

/**
 * The factor modules' assurance reaches `session_factors` (docs/decisions/036-factor-modules.md):
 * the engine records each proof with its module's level and phishing resistance.
 */
describe.each(targets)('factor modules ($name)', (target) => {
  const h = useHarness(target);
  const { codeOf, nextStep } = appClock(h);

  const proofs = async (token: string) =>
    h.db
      .selectFrom('session_factors')
      .select(['kind', 'level', 'phishing_resistant'])
      .where('session_id', '=', sha256(token))
      .orderBy('verified_at')
      .orderBy('level')
      .execute();

  test("a proof is recorded with its module's assurance: not phishing-resistant for an app code, resistant when the module says so", async () => {
    const { app, ctx } = await h.start();
    nextStep();
    const account = await factorAccount(ctx, 'assure01');
    const { secret } = await addApp(ctx, account.id);
    const first = await atFactor(app, 'assure01');
    expect(code(await totpCheck(first, codeOf(secret)))).toBe(1200);
    expect(await proofs(first.cookies.get('ET')!)).toEqual([
      { kind: 'password', level: 1, phishing_resistant: false },
      { kind: 'TOTPAUTHN', level: 2, phishing_resistant: false },
    ]);

    // A module declaring a phishing-resistant proof (as a passkey's will) is recorded so.
    const totp = factors().ofType('TOTPAUTHN')!;
    const declared = totp.assurance;
    totp.assurance = { level: 2, phishingResistant: true };
    try {
      nextStep();
      const second = await atFactor(app, 'assure01');
      expect(code(await totpCheck(second, codeOf(secret)))).toBe(1200);
      expect(await proofs(second.cookies.get('ET')!)).toEqual([
        { kind: 'password', level: 1, phishing_resistant: false },
        { kind: 'TOTPAUTHN', level: 2, phishing_resistant: true },
      ]);
    } finally {
      totp.assurance = declared;
    }
  });
});
