import { randomBytes } from 'node:crypto';
import { type AuthenticatorItem, paths } from '@gatehouse/contract';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { HeldCredentials } from '../src/credentials/held.ts';
import { allowedAuthenticators, factors } from '../src/factors/registry.ts';
import { sha256 } from '../src/lib/crypto.ts';
import {
  addApp,
  addToken,
  appClock,
  burst,
  STEP,
  tokenCheck,
  tokenStatus,
  tokenSync,
  totpCheck,
  wrongOf,
} from './support/app-codes.ts';
import { atFactor, authenticators, demoContacts, factorAccount, PASSWORD } from './support/factors.ts';
import {
  api,
  auditTrail,
  Client,
  code,
  expectFailureEnvelope,
  json,
  onOwnPGlite,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * The authenticator app (TOTPAUTHN) and the token app (TOTPSVIP) on the server (issue 12; widget
 * spec §2 TOTP and token screens, §4 token flow and status mapping, §7): codes computed from the
 * credential's secret as the apps would, on the test clock.
 */

/** Generous code-check limits, for the bursts (the limiter is not what these tests count). */
const BURST_ENV = {
  CODE_CHECK_SESSION_MAX: '10000',
  CODE_CHECK_ACCOUNT_MAX: '10000',
  RECOVERY_CHECK_CLIENT_MAX: '10000',
};

describe.each(targets)('authenticator app and token app ($name)', (target) => {
  const h = useHarness(target);

  const { codeOf, nextStep: alignClock } = appClock(h);

  async function withTotp(ctx: Context, username: string, options: { secondFactor?: boolean } = {}) {
    const account = await factorAccount(ctx, username, {}, options);
    return { account, ...(await addApp(ctx, account.id)) };
  }
  async function withToken(ctx: Context, username: string, options: { secondFactor?: boolean } = {}) {
    const account = await factorAccount(ctx, username, {}, options);
    return { account, ...(await addToken(ctx, account.id, 'VSST12345678')) };
  }
  const events = (accountId: string) => auditTrail(h.db, accountId);
  const sessionFactors = async (token: string) =>
    (
      await h.db
        .selectFrom('session_factors')
        .select(['kind', 'journey_kind'])
        .where('session_id', '=', sha256(token))
        .orderBy('verified_at')
        .orderBy('level')
        .execute()
    ).map((f) => `${f.journey_kind}:${f.kind}`);
  const counter = (accountId: string) =>
    h.db
      .selectFrom('otp_counters')
      .select(['wrong_tries', 'locked_until'])
      .where('account_id', '=', accountId)
      .where('channel', '=', 'factor:totp')
      .executeTakeFirst();

  // --- authenticator app ---------------------------------------------------------------------
  test('TOTP LOGIN: a computed code signs in (bindDevice trusts the device); the same code on the next sign-in is refused 1428, uncounted', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { account, secret } = await withTotp(ctx, 'authapp01');
    const browser = await atFactor(app, 'authapp01');
    const right = codeOf(secret);
    const r = await totpCheck(browser, right, true);
    expect(code(r), r.body).toBe(1200);
    expect(json<{ factor: string; trustedDeviceExpiresAt?: string }>(r).successData).toMatchObject({
      authenticated: true,
      factor: 'TOTPAUTHN',
    });
    expect(json<{ trustedDeviceExpiresAt?: string }>(r).successData!.trustedDeviceExpiresAt).toBeDefined();
    expect(code(await browser.session())).toBe(1200);
    expect(await sessionFactors(browser.cookies.get('ET')!)).toEqual(['login:password', 'login:TOTPAUTHN']);

    // The same code, in another browser's sign-in within the same 30 s: a replay.
    const other = await atFactor(app, 'authapp01');
    const replay = await totpCheck(other, right);
    expectFailureEnvelope(replay, 200, 1428);
    expect(json(replay).responseBaseInfo.status.message).toBe('Security code not recognized. Try again.');
    expect((await counter(account.id))?.wrong_tries).toBe(0);
    // The next step's code signs in.
    h.clock.advance(STEP);
    expect(code(await totpCheck(other, codeOf(secret)))).toBe(1200);
    expect(await events(account.id)).toEqual(
      expect.arrayContaining(['factor-passed:success', 'sign-in:success', 'factor-failed:failure']),
    );
    const replayEvent = await h.db
      .selectFrom('audit_events')
      .select('detail')
      .where('event', '=', 'factor-failed')
      .executeTakeFirstOrThrow();
    expect(replayEvent.detail).toMatchObject({ factor: 'TOTPAUTHN', reason: 'replay' });
  });

  test('TOTP STEPUP: a signed-in session proves the authenticator app; the session rotates', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { account, secret } = await withTotp(ctx, 'stepuser01', { secondFactor: false });
    const browser = new Client(app);
    await browser.signIn('stepuser01', PASSWORD);
    const before = browser.cookies.get('ET')!;
    const r = await totpCheck(browser, codeOf(secret), true);
    expect(code(r), r.body).toBe(1200);
    expect(json<{ steppedUpAt?: string }>(r).successData!.steppedUpAt).toBeDefined();
    const after = browser.cookies.get('ET')!;
    expect(after).not.toBe(before);
    expect(await sessionFactors(after)).toEqual(['login:password', 'stepup:TOTPAUTHN']);
    // bindDevice is for the login journey only.
    expect(await h.db.selectFrom('trusted_devices').selectAll().execute()).toHaveLength(0);
    expect(await events(account.id)).toContain('step-up:success');
  });

  test('TOTP skew: one step either way is accepted, two are refused', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { secret } = await withTotp(ctx, 'authapp02');
    for (const offset of [2, -2]) {
      const browser = await atFactor(app, 'authapp02');
      expectFailureEnvelope(await totpCheck(browser, codeOf(secret, offset)), 200, 1428);
    }
    // -1 first: +1 after it is a later step (a step before an accepted one is refused).
    for (const offset of [-1, 0, 1]) {
      const browser = await atFactor(app, 'authapp02');
      const r = await totpCheck(browser, codeOf(secret, offset));
      expect(code(r), `offset ${offset}`).toBe(1200);
    }
    // Every step up to +1 is used now: an older one (the previous step's code) is refused too.
    const browser = await atFactor(app, 'authapp02');
    expectFailureEnvelope(await totpCheck(browser, codeOf(secret, 0)), 200, 1428);
  });

  test('TOTP block: the 5th wrong code answers 1491 and ends the journey; the right code is refused 1491 until the clock moves 5 minutes', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { account, secret } = await withTotp(ctx, 'authapp03');
    const browser = await atFactor(app, 'authapp03');
    for (let i = 1; i <= 4; i++) {
      expectFailureEnvelope(await totpCheck(browser, wrongOf(codeOf(secret))), 200, 1428);
    }
    const fifth = await totpCheck(browser, wrongOf(codeOf(secret)));
    expectFailureEnvelope(fifth, 200, 1491);
    expect(json(fifth).responseBaseInfo.status.message).toBe(
      'Sorry, your account has been temporarily blocked due to too many attempts. Please try again 5 minutes from the time you first saw this message.',
    );
    // The login journey ended with it.
    expectFailureEnvelope(await totpCheck(browser, codeOf(secret)), 401, 4401);
    expect((await counter(account.id))?.wrong_tries).toBe(5);

    // A new sign-in: the right code is refused while the block lasts (and nothing is counted).
    h.clock.advance(4 * 60_000);
    const again = await atFactor(app, 'authapp03');
    expectFailureEnvelope(await totpCheck(again, codeOf(secret)), 200, 1491);
    h.clock.advance(60_000 + 1000);
    const later = await atFactor(app, 'authapp03');
    expect(code(await totpCheck(later, codeOf(secret)))).toBe(1200);
    expect(await counter(account.id)).toMatchObject({ wrong_tries: 0, locked_until: null });
    expect(
      (await events(account.id)).filter((e) => e === 'factor-locked:failure').length,
    ).toBeGreaterThanOrEqual(1);
  });

  test('TOTP_MAX_WRONG_TRIES and TOTP_BLOCK_MINUTES move the block; the block holds in step-up too', async () => {
    const { app, ctx } = await h.start({ TOTP_MAX_WRONG_TRIES: '2', TOTP_BLOCK_MINUTES: '10' });
    alignClock();
    const { secret } = await withTotp(ctx, 'stepuser02', { secondFactor: false });
    const browser = new Client(app);
    await browser.signIn('stepuser02', PASSWORD);
    expectFailureEnvelope(await totpCheck(browser, wrongOf(codeOf(secret))), 200, 1428);
    const blocked = await totpCheck(browser, wrongOf(codeOf(secret)));
    expectFailureEnvelope(blocked, 200, 1491);
    expect(json(blocked).responseBaseInfo.status.message).toContain('Please try again 10 minutes');
    // Step-up: the session stays signed in; the factor is refused until the block lifts.
    expect(code(await browser.session())).toBe(1200);
    h.clock.advance(9 * 60_000);
    expectFailureEnvelope(await totpCheck(browser, codeOf(secret)), 200, 1491);
    h.clock.advance(60_000 + 1000);
    expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
  });

  test('TOTP bursts: 50 wrong codes at once count exactly 5 and block once; the right code 20 times at once is accepted once', async () => {
    const { app, ctx } = await h.start(BURST_ENV);
    alignClock();
    const { account, secret } = await withTotp(ctx, 'authapp04');
    const browser = await atFactor(app, 'authapp04');
    const wrong = wrongOf(codeOf(secret));
    const results = await burst(
      app,
      browser,
      api(paths.totpAuthentication),
      Array.from({ length: 50 }, () => ({ securityCode: wrong })),
    );
    const codes = results.map(code);
    // 1428 for the wrong codes compared under the limit, 1491 for the block, and 401 once the
    // login journey it ended is gone (on PGlite the calls run one after another).
    expect(codes.every((c) => c === 1428 || c === 1491 || c === 4401)).toBe(true);
    expect(codes.filter((c) => c === 1491).length).toBeGreaterThanOrEqual(1);
    expect(codes.filter((c) => c === 1428)).toHaveLength(4);
    expect((await counter(account.id))?.wrong_tries).toBe(5);
    expect((await events(account.id)).filter((e) => e === 'factor-failed:failure')).toHaveLength(5);
    expect(
      (await events(account.id)).filter((e) => e === 'factor-locked:failure').length,
    ).toBeGreaterThanOrEqual(1);
    h.clock.advance(5 * 60_000 + 1000);
    alignClock();

    // The block lifted: 20 submissions of the right code at once, one browser.
    const fresh = await atFactor(app, 'authapp04');
    const right = codeOf(secret);
    const rights = await burst(
      app,
      fresh,
      api(paths.totpAuthentication),
      Array.from({ length: 20 }, () => ({ securityCode: right })),
    );
    expect(rights.filter((r) => code(r) === 1200)).toHaveLength(1);
    expect(rights.every((r) => r.statusCode < 500)).toBe(true);
    expect(
      await h.db
        .selectFrom('sessions')
        .select('id')
        .where('account_id', '=', account.id)
        .where('ended_at', 'is', null)
        .execute(),
    ).toHaveLength(1);
    // Nothing of the burst was counted as a guess.
    expect((await counter(account.id))?.wrong_tries).toBe(0);
  });

  test('TOTP refusals: no authenticator app or a blocked account 1204; no journey 401; a wrong CSRF 403', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'noapp00001', demoContacts('noapp00001', new Date(0)));
    const browser = await atFactor(app, 'noapp00001');
    const none = await totpCheck(browser, '123456');
    expectFailureEnvelope(none, 200, 1204);
    expectFailureEnvelope(await totpCheck(new Client(app), '123456'), 401, 4401);
    const { account } = await withTotp(ctx, 'authapp05');
    const blocked = await atFactor(app, 'authapp05');
    await ctx.db.updateTable('accounts').set({ status: 'blocked' }).where('id', '=', account.id).execute();
    expectFailureEnvelope(await totpCheck(blocked, '123456'), 200, 1204);
    const csrf = await blocked.request({
      method: 'POST',
      url: api(paths.totpAuthentication),
      body: { securityCode: '123456' },
      csrf: false,
    });
    expectFailureEnvelope(csrf, 403, 4403);
  });

  test('two authenticator apps on an account: a code of either signs in, each with its own used steps', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { account, secret: first } = await withTotp(ctx, 'authapp08');
    const second = randomBytes(20);
    await ctx.credentials.add({ accountId: account.id, kind: 'totp', name: 'Second app', secret: second });
    expect(code(await totpCheck(await atFactor(app, 'authapp08'), codeOf(first)))).toBe(1200);
    expect(code(await totpCheck(await atFactor(app, 'authapp08'), codeOf(second)))).toBe(1200);
    expectFailureEnvelope(await totpCheck(await atFactor(app, 'authapp08'), codeOf(first)), 200, 1428);
  });

  test("offers: the modules offer TOTPAUTHN and TOTPSVIP for the account's credentials, and the list shows them in order (the widget's screens landed)", async () => {
    const { app, ctx } = await h.start();
    const { account } = await withTotp(ctx, 'bothapps01');
    await ctx.credentials.add({
      accountId: account.id,
      kind: 'token',
      name: 'VIP Access',
      publicPart: 'VSST00000001',
      secret: randomBytes(20),
      data: { drift: 0 },
    });
    const offered = [];
    const held = await HeldCredentials.read(ctx, account.id);
    for (const module of factors().modules) offered.push(...(await module.offer(ctx, account, held)));
    expect(offered.map((a) => a.type).sort()).toEqual(['TOTPAUTHN', 'TOTPSVIP']);
    const browser = await atFactor(app, 'bothapps01');
    const listed = json<{ authenticators: AuthenticatorItem[] }>(await authenticators(browser)).successData!;
    expect(listed.authenticators.map((a) => a.type)).toEqual(['TOTPAUTHN', 'TOTPSVIP']);
    expect((await allowedAuthenticators(ctx, account)).map((a) => a.type)).toEqual(['TOTPAUTHN', 'TOTPSVIP']);
  });

  // --- token app -----------------------------------------------------------------------------
  test('token LOGIN: status lists the credential id; a code of the token signs in; the same code again is refused', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { secret, credentialId, account } = await withToken(ctx, 'tokenuser1');
    const browser = await atFactor(app, 'tokenuser1');
    const status = await tokenStatus(browser);
    expect(code(status)).toBe(1200);
    expect(json(status).successData).toEqual({ credentials: [{ credentialId, name: 'VIP Access' }] });
    expect(status.body).not.toContain(Buffer.from(secret).toString('hex'));
    const right = codeOf(secret);
    const r = await tokenCheck(browser, credentialId, right, true);
    expect(code(r), r.body).toBe(1200);
    expect(json<{ factor: string }>(r).successData!.factor).toBe('TOTPSVIP');
    expect(await sessionFactors(browser.cookies.get('ET')!)).toEqual(['login:password', 'login:TOTPSVIP']);
    const other = await atFactor(app, 'tokenuser1');
    expectFailureEnvelope(await tokenCheck(other, credentialId, right), 200, 1428);
    // A credential id that is not the account's: the representative page.
    expectFailureEnvelope(await tokenCheck(other, 'VSST99999999', codeOf(secret)), 200, 1204);
    expect(await events(account.id)).toContain('sign-in:success');
  });

  test('token STEPUP: a signed-in session proves the token again', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { secret, credentialId } = await withToken(ctx, 'stepuser03', { secondFactor: false });
    const browser = new Client(app);
    await browser.signIn('stepuser03', PASSWORD);
    expect(code(await tokenCheck(browser, credentialId, codeOf(secret)))).toBe(1200);
    expect(await sessionFactors(browser.cookies.get('ET')!)).toEqual(['login:password', 'stepup:TOTPSVIP']);
  });

  test('token: 2 wrong codes answer 1491 (resync); later codes of the journey, even right ones, too until a resync', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { secret, credentialId } = await withToken(ctx, 'tokenuser2');
    const browser = await atFactor(app, 'tokenuser2');
    expectFailureEnvelope(await tokenCheck(browser, credentialId, wrongOf(codeOf(secret))), 200, 1428);
    const second = await tokenCheck(browser, credentialId, wrongOf(codeOf(secret)));
    expectFailureEnvelope(second, 200, 1491);
    expect(json(second).responseBaseInfo.status.message).toBe('We need to re-sync');
    expectFailureEnvelope(await tokenCheck(browser, credentialId, codeOf(secret)), 200, 1491);
    // Another journey starts with its own count.
    const other = await atFactor(app, 'tokenuser2');
    expect(code(await tokenCheck(other, credentialId, codeOf(secret)))).toBe(1200);
  });

  test('token resync: a token drifted +7 steps is refused, resynced with two consecutive codes (drift stored), then its current code and its own clock sign in', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { secret, credentialId, credential, account } = await withToken(ctx, 'tokenuser1');
    const browser = await atFactor(app, 'tokenuser1');
    const drifted = (extra = 0) => codeOf(secret, 7 + extra);
    expectFailureEnvelope(await tokenCheck(browser, credentialId, drifted()), 200, 1428);
    expectFailureEnvelope(await tokenCheck(browser, credentialId, drifted()), 200, 1491);

    // Not consecutive (a step skipped), or in the wrong order: refused.
    expectFailureEnvelope(await tokenSync(browser, drifted(-2), drifted()), 200, 1428);
    expectFailureEnvelope(await tokenSync(browser, drifted(), drifted(-1)), 200, 1428);
    // The token's previous code, then its current one.
    const synced = await tokenSync(browser, drifted(-1), drifted());
    expect(code(synced), synced.body).toBe(1200);
    expect(json(synced).redirectPath).toBe('/authenticator/svip');
    expect(json<{ drift: number }>(synced).successData).toEqual({ drift: 7 });
    const stored = await ctx.credentials.get(credential.id);
    expect(stored?.data.drift).toBe(7);
    expect(await events(account.id)).toContain('token-resynced:success');

    // Back on the token screen of the same journey: the code the token shows now signs in.
    expect(code(await tokenCheck(browser, credentialId, drifted()))).toBe(1200);
    // And the next sign-in too, with the token's own clock; the server's own step is refused now.
    h.clock.advance(STEP);
    const next = await atFactor(app, 'tokenuser1');
    expectFailureEnvelope(await tokenCheck(next, credentialId, codeOf(secret)), 200, 1428);
    expect(code(await tokenCheck(next, credentialId, drifted()))).toBe(1200);
  });

  test('token resync: outside TOKEN_RESYNC_WINDOW_MINUTES refused; TOKEN_SYNC_MAX_TRIES wrong resyncs answer 1493; a resync replay is refused', async () => {
    const { app, ctx } = await h.start({ TOKEN_RESYNC_WINDOW_MINUTES: '10', TOKEN_SYNC_MAX_TRIES: '3' });
    alignClock();
    const { secret } = await withToken(ctx, 'tokenuser3');
    const browser = await atFactor(app, 'tokenuser3');
    expectFailureEnvelope(await tokenSync(browser, codeOf(secret, 36), codeOf(secret, 37)), 200, 1428);
    const ok = await tokenSync(browser, codeOf(secret, 14), codeOf(secret, 15));
    expect(code(ok)).toBe(1200);
    // The same two codes again (a replay): refused.
    expectFailureEnvelope(await tokenSync(browser, codeOf(secret, 14), codeOf(secret, 15)), 200, 1428);
    expectFailureEnvelope(await tokenSync(browser, '000000', '111111'), 200, 1428);
    expectFailureEnvelope(await tokenSync(browser, '000000', '111111'), 200, 1493);
    expectFailureEnvelope(await tokenSync(browser, codeOf(secret, 16), codeOf(secret, 17)), 200, 1493);
  });

  test('token bursts: the right code 20 times at once is accepted once; 30 wrong at once send to resync with 2 counted', async () => {
    const { app, ctx } = await h.start(BURST_ENV);
    alignClock();
    const { secret, credentialId, account } = await withToken(ctx, 'tokenuser4');
    const browser = await atFactor(app, 'tokenuser4');
    const wrong = wrongOf(codeOf(secret));
    const wrongs = await burst(
      app,
      browser,
      api(paths.svipAuthentication),
      Array.from({ length: 30 }, () => ({ credentialId, securityCode1: wrong })),
    );
    expect(wrongs.filter((r) => code(r) === 1428)).toHaveLength(1);
    expect(wrongs.filter((r) => code(r) === 1491)).toHaveLength(29);
    expect((await events(account.id)).filter((e) => e === 'factor-failed:failure')).toHaveLength(2);

    const fresh = await atFactor(app, 'tokenuser4');
    const right = codeOf(secret);
    const rights = await burst(
      app,
      fresh,
      api(paths.svipAuthentication),
      Array.from({ length: 20 }, () => ({ credentialId, securityCode1: right })),
    );
    expect(rights.filter((r) => code(r) === 1200)).toHaveLength(1);
    expect(rights.every((r) => r.statusCode < 500)).toBe(true);
  });

  test('secrets are encrypted at rest: the credential rows hold no plaintext secret, in any encoding', async () => {
    const { app, ctx } = await h.start();
    alignClock();
    const { secret: totpSecret, credential: totp } = await withTotp(ctx, 'authapp06');
    const { secret: tokenSecret, credential: token } = await withToken(ctx, 'tokenuser5');
    const browser = await atFactor(app, 'authapp06');
    expect(code(await totpCheck(browser, codeOf(totpSecret)))).toBe(1200);
    for (const [credential, secret] of [
      [totp, totpSecret],
      [token, tokenSecret],
    ] as const) {
      const row = await h.db
        .selectFrom('credentials')
        .selectAll()
        .where('id', '=', credential.id)
        .executeTakeFirstOrThrow();
      const stored = Buffer.from(row.secret as Uint8Array);
      expect(row.secret_key_id).toBe('dev');
      expect(stored.includes(Buffer.from(secret))).toBe(false);
      const everything = JSON.stringify(row) + stored.toString('latin1');
      for (const encoding of ['hex', 'base64', 'base64url'] as const) {
        expect(everything).not.toContain(Buffer.from(secret).toString(encoding));
      }
      // The store reads it back.
      expect(Buffer.compare(await ctx.credentials.readSecret(credential), Buffer.from(secret))).toBe(0);
    }
  });

  test('hostile input: fuzzed bodies of the three code calls never answer 5xx, always the envelope', async () => {
    const { app, ctx } = await h.start(BURST_ENV);
    await withToken(ctx, 'tokenuser6');
    const { account } = await withTotp(ctx, 'authapp07');
    void account;
    const browser = await atFactor(app, 'tokenuser6');
    const value = fc.oneof(
      fc.string(),
      fc.stringMatching(/^\d{6}$/),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.constant('VSST12345678'),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.constant(' 123456 '),
      fc.constant('١٢٣٤٥٦'),
    );
    const body = fc.record(
      {
        securityCode: value,
        securityCode1: value,
        securityCode2: value,
        credentialId: value,
        bindDevice: value,
      },
      { requiredKeys: [] },
    );
    const url = fc.constantFrom(
      paths.totpAuthentication,
      paths.svipAuthentication,
      paths.svipSynchronization,
    );
    await fc.assert(
      fc.asyncProperty(url, body, async (path, payload) => {
        const r = await browser.post(api(path), payload);
        expect(r.statusCode, r.body).toBeLessThan(500);
        expect(json(r).responseBaseInfo.status.code).toBeGreaterThan(1000);
        expect(r.body).not.toMatch(/stack|node_modules/i);
      }),
      { numRuns: 120 },
    );
  });

  test('a closed database: the token and authenticator calls answer 503/5003 in the envelope', async () => {
    await onOwnPGlite(async ({ pglite, app, ctx }) => {
      const account = await factorAccount(ctx, 'faultuser1');
      await ctx.credentials.add({
        accountId: account.id,
        kind: 'totp',
        name: 'Authenticator app',
        secret: randomBytes(20),
      });
      const browser = await atFactor(app, 'faultuser1');
      await pglite.close();
      expectFailureEnvelope(await totpCheck(browser, '123456'), 503, 5003);
      expectFailureEnvelope(await tokenStatus(browser), 503, 5003);
      expectFailureEnvelope(await tokenCheck(browser, 'VSST12345678', '123456'), 503, 5003);
      expectFailureEnvelope(await tokenSync(browser, '123456', '654321'), 503, 5003);
    });
  });
});
