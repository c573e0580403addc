import { API_BASE, paths, securityPaths } from '@gatehouse/contract';
import { passkeyPaths } from '@gatehouse/contract/factors/passkey';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { FactorHolds } from '../src/factors/holds.ts';
import { advanceCounter } from '../src/factors/passkey/store.ts';
import { addApp, appClock, totpCheck, WIDE_LIMITS } from './support/app-codes.ts';
import { atFactor, authenticators, DAY, factorAccount } from './support/factors.ts';
import { api, Client, code, expectFailureEnvelope, json, targets, useHarness } from './support/harness.ts';
import { SoftAuthenticator } from './support/passkey-authenticator.ts';

/**
 * The passkey factor on the server (issue 24 point 6; docs/decisions/041-passkeys.md), through real
 * HTTP with a software authenticator: registration on the security page after its step-up, sign-in
 * and step-up, challenges single-use and bound to their journey, clone detection by the signature
 * counter, the recent-credential rule, the login screen's conditional mediation and its proof,
 * hostile input, and the OpenAPI document.
 */

const ORIGIN = 'http://localhost:8080';
const NOT_RECOGNIZED =
  "This passkey isn't registered for your account. Choose another passkey or another way to verify.";
const EXPIRED = 'That request expired. Try your passkey again.';

type Json = Record<string, unknown>;
const data = <T = Json>(r: Parameters<typeof json>[0]) => json<T>(r).successData as T;
const message = (r: Parameters<typeof json>[0]) => json(r).responseBaseInfo.status.message;

const options = (client: Client) => client.post(api(passkeyPaths.passkeyOptions), {});
const challengeOf = async (client: Client) => {
  const r = await options(client);
  expect(code(r)).toBe(1200);
  return data<{ options: { challenge: string; allowCredentials: Array<{ id: string }> } }>(r).options;
};
const authenticate = (client: Client, body: Json) =>
  client.post(api(passkeyPaths.passkeyAuthentication), body);

/** A passkey of the account stored as registration would store it (default: long ago, established). */
async function addPasskey(ctx: Context, accountId: string, auth: SoftAuthenticator, createdAt = new Date(0)) {
  return ctx.credentials.add({
    accountId,
    kind: 'passkey',
    name: 'Laptop',
    publicPart: auth.credentialId,
    data: {
      publicKey: auth.publicKey,
      counter: auth.counter,
      transports: ['internal'],
      backedUp: false,
      deviceType: 'singleDevice',
      aaguid: '00000000-0000-0000-0000-000000000000',
    },
    createdAt,
  });
}

/** An account with a factor due, an e-mail, an established authenticator app and (unless told) a passkey. */
async function passkeyAccount(ctx: Context, username: string, passkeyAddedAt: Date | null = new Date(0)) {
  const account = await factorAccount(ctx, username, { emails: [{ value: `${username}@example.com` }] });
  const app = await addApp(ctx, account.id);
  const auth = new SoftAuthenticator(ORIGIN);
  const credential = passkeyAddedAt ? await addPasskey(ctx, account.id, auth, passkeyAddedAt) : undefined;
  return { account, auth, credential, secret: app.secret };
}

/** Password, then the passkey: a signed-in browser. */
async function signInWithPasskey(app: FastifyInstance, username: string, auth: SoftAuthenticator) {
  const browser = await atFactor(app, username);
  const { challenge } = await challengeOf(browser);
  const r = await authenticate(browser, { response: auth.assert(challenge) });
  expect(code(r)).toBe(1200);
  return browser;
}

describe.each(targets)('passkeys ($name)', (target) => {
  const h = useHarness(target);
  const start = () => h.start(WIDE_LIMITS);
  const audit = async (accountId: string) =>
    (
      await h.db
        .selectFrom('audit_events')
        .select(['event', 'outcome', 'detail'])
        .where('account_id', '=', accountId)
        .orderBy('at')
        .execute()
    ).map((e) => ({ ...e, detail: typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail }));

  test('register on the security page after a step-up, listed in the overview, with an audit event and a notice; removable', async () => {
    const { app, ctx } = await start();
    const { account, secret } = await passkeyAccount(ctx, 'pkreg01', null);
    const clock = appClock(h);
    const browser = await atFactor(app, 'pkreg01');
    expect(code(await totpCheck(browser, clock.codeOf(secret)))).toBe(1200);
    // Signed in, but no step-up yet: the security page refuses.
    expectFailureEnvelope(await browser.post(api(passkeyPaths.securityPasskeyOptions), {}), 403, 1412);
    clock.nextStep();
    expect(code(await totpCheck(browser, clock.codeOf(secret)))).toBe(1200);

    const r = await browser.post(api(passkeyPaths.securityPasskeyOptions), {});
    expect(code(r)).toBe(1200);
    const creation = data<{ options: Json }>(r).options as {
      challenge: string;
      rp: { id: string; name: string };
      user: { id: string; name: string };
      attestation: string;
      authenticatorSelection: Json;
      excludeCredentials: unknown[];
    };
    expect(creation.rp).toEqual({ id: 'localhost', name: 'Prime Portal' });
    expect(creation.user.name).toBe('pkreg01');
    expect(isoBase64URL.toUTF8String(creation.user.id)).not.toContain('pkreg01');
    expect(creation.attestation).toBe('none');
    expect(creation.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(creation.excludeCredentials).toEqual([]);

    const auth = new SoftAuthenticator(ORIGIN);
    const added = await browser.post(api(passkeyPaths.securityPasskeys), {
      name: 'My laptop',
      response: auth.register(creation),
    });
    expect(code(added)).toBe(1200);
    expect(message(added)).toBe('Passkey added');
    const item = data<{ passkey: { id: string; name: string; lastUsedAt: null; recentlyAdded: boolean } }>(
      added,
    ).passkey;
    expect(item).toMatchObject({ name: 'My laptop', lastUsedAt: null, recentlyAdded: true });

    // The same response again: its challenge is used.
    expectFailureEnvelope(
      await browser.post(api(passkeyPaths.securityPasskeys), {
        name: 'Again',
        response: auth.register(creation),
      }),
      200,
      1428,
    );
    const overview = data<{ credentials: { passkey: Array<{ id: string; name: string }> } }>(
      await browser.get(api(securityPaths.securityOverview)),
    );
    expect(overview.credentials.passkey.map((p) => p.name)).toEqual(['My laptop']);
    // A second registration excludes the passkey the account has.
    const again = data<{ options: { excludeCredentials: Array<{ id: string }> } }>(
      await browser.post(api(passkeyPaths.securityPasskeyOptions), {}),
    ).options;
    expect(again.excludeCredentials.map((c) => c.id)).toEqual([auth.credentialId]);

    expect(await audit(account.id)).toContainEqual(
      expect.objectContaining({
        event: 'security.authenticator-added',
        detail: { kind: 'passkey', name: 'My laptop' },
      }),
    );
    const mails = await h.db
      .selectFrom('outbox')
      .select(['text'])
      .where('recipient', '=', 'pkreg01@example.com')
      .execute();
    expect(mails.some((m) => m.text.includes('a verification method was added'))).toBe(true);
    expect(mails.some((m) => m.text.includes('an authenticator app was added'))).toBe(false);

    // Removal: the generic credential-remove call.
    const removed = await browser.post(api(securityPaths.securityCredentialRemove), { id: item.id });
    expect(code(removed)).toBe(1200);
    const after = data<{ credentials: { passkey: unknown[] } }>(
      await browser.get(api(securityPaths.securityOverview)),
    );
    expect(after.credentials.passkey).toEqual([]);
    expect((await audit(account.id)).map((e) => e.event)).toContain('security.credential-removed');
  });

  test('sign in with the password and the passkey (first of the list), then step up with it; last used recorded', async () => {
    const { app, ctx } = await start();
    const { auth, credential } = await passkeyAccount(ctx, 'pksign01');
    const browser = await atFactor(app, 'pksign01');
    const list = data<{ authenticators: Array<{ type: string }> }>(
      await authenticators(browser),
    ).authenticators;
    expect(list[0]).toEqual({ type: 'PASSKEY' });

    const request = await challengeOf(browser);
    expect(request.allowCredentials.map((c) => c.id)).toEqual([auth.credentialId]);
    expect(request).toMatchObject({ userVerification: 'required', rpId: 'localhost' });
    const r = await authenticate(browser, { response: auth.assert(request.challenge), bindDevice: false });
    expect(code(r)).toBe(1200);
    expect(data(r)).toEqual({ authenticated: true, factor: 'PASSKEY' });
    const session = await browser.get(api(paths.sessionLogin));
    expect(code(session)).toBe(1200);
    const used = await ctx.credentials.get(credential!.id);
    expect(used?.lastUsedAt).not.toBeNull();
    const factors = await h.db
      .selectFrom('session_factors')
      .select(['kind', 'level', 'phishing_resistant', 'journey_kind'])
      .where('kind', '=', 'PASSKEY')
      .execute();
    // The module's assurance: level 3, phishing-resistant (decision 036).
    expect(factors).toEqual([{ kind: 'PASSKEY', level: 3, phishing_resistant: true, journey_kind: 'login' }]);

    // Step-up: the session's step-up journey, its own challenge.
    const stepUp = await challengeOf(browser);
    const proved = await authenticate(browser, { response: auth.assert(stepUp.challenge) });
    expect(code(proved)).toBe(1200);
    expect(data<{ steppedUpAt?: string }>(proved).steppedUpAt).toBeDefined();
    expect(code(await browser.get(api(securityPaths.securityOverview)))).toBe(1200);
  });

  test('a challenge replayed, used for another journey or after its expiry is refused (1428)', async () => {
    const { app, ctx } = await start();
    const { auth, account } = await passkeyAccount(ctx, 'pkchal01');
    const first = await atFactor(app, 'pkchal01');
    const other = await atFactor(app, 'pkchal01');

    // Another journey's challenge (the same account, another browser's login).
    const theirs = await challengeOf(first);
    const r = await authenticate(other, { response: auth.assert(theirs.challenge) });
    expectFailureEnvelope(r, 200, 1428);
    expect(message(r)).toBe(EXPIRED);

    // Replayed: the second use of a challenge (even with a fresh signature over it).
    const mine = await challengeOf(other);
    const assertion = auth.assert(mine.challenge);
    expect(code(await authenticate(other, { response: assertion }))).toBe(1200);
    const third = await atFactor(app, 'pkchal01');
    expectFailureEnvelope(await authenticate(third, { response: auth.assert(mine.challenge) }), 200, 1428);

    // Expired: PASSKEY_CHALLENGE_SECONDS (300) later.
    const late = await challengeOf(third);
    h.clock.advance(301_000);
    expectFailureEnvelope(await authenticate(third, { response: auth.assert(late.challenge) }), 200, 1428);
    expect((await audit(account.id)).filter((e) => e.detail.reason === 'challenge')).toHaveLength(3);
  });

  test('a counter that goes backwards is refused, audited and the passkey suspended; an authenticator that always says 0 passes', async () => {
    const { app, ctx } = await start();
    const { auth, account } = await passkeyAccount(ctx, 'pkclone01');
    await signInWithPasskey(app, 'pkclone01', auth); // counter 1
    await signInWithPasskey(app, 'pkclone01', auth); // counter 2
    const browser = await atFactor(app, 'pkclone01');
    const { challenge } = await challengeOf(browser);
    const r = await authenticate(browser, { response: auth.assert(challenge, { counter: 2 }) });
    expectFailureEnvelope(r, 200, 1403);
    expect(message(r)).toBe(NOT_RECOGNIZED);
    expect(await audit(account.id)).toContainEqual(
      expect.objectContaining({ event: 'passkey-counter-regressed', outcome: 'failure' }),
    );
    // Suspended: no longer offered, not even with a counter that moves on.
    const list = data<{ authenticators: Array<{ type: string }> }>(
      await authenticators(browser),
    ).authenticators;
    expect(list.map((a) => a.type)).not.toContain('PASSKEY');
    expectFailureEnvelope(await options(browser), 200, 1204);

    const zero = await passkeyAccount(ctx, 'pkzero01');
    for (let i = 0; i < 2; i++) {
      const b = await atFactor(app, 'pkzero01');
      const { challenge: c } = await challengeOf(b);
      expect(code(await authenticate(b, { response: zero.auth.assert(c, { counter: 0 }) }))).toBe(1200);
    }
  });

  test('the counter is compared with the one stored when it is written: an assertion read before another moved it on still passes when greater; equal or lower never', async () => {
    const { ctx } = await start();
    const { credential } = await passkeyAccount(ctx, 'pkrace01');
    const read = credential!;
    const start0 = Number((read.data as { counter?: number }).counter ?? 0);
    // Two of the owner's assertions verified at once, both against the counter read before either.
    expect(await advanceCounter(ctx, read, start0 + 1, false)).toBe(true);
    expect(await advanceCounter(ctx, read, start0 + 2, false)).toBe(true);
    // A replayed or cloned counter, equal to or below the stored one, is still refused.
    expect(await advanceCounter(ctx, read, start0 + 2, false)).toBe(false);
    expect(await advanceCounter(ctx, read, start0 + 1, false)).toBe(false);
    const [stored] = await ctx.credentials.list(read.accountId, 'passkey');
    expect((stored!.data as { counter?: number }).counter).toBe(start0 + 2);
  });

  test('a recent passkey signs in but is not offered for a step-up, so it cannot open the security page', async () => {
    const { app, ctx } = await start();
    const { auth } = await passkeyAccount(ctx, 'pkrecent01', new Date(h.clock.now().getTime() - DAY));
    const browser = await signInWithPasskey(app, 'pkrecent01', auth);
    const stepUp = data<{ authenticators: Array<{ type: string }>; recent?: string[] }>(
      await authenticators(browser),
    );
    expect(stepUp.authenticators.map((a) => a.type)).not.toContain('PASSKEY');
    expect(stepUp.recent).toContain('PASSKEY');
    expectFailureEnvelope(await options(browser), 200, 1204);
    // Even an assertion over a sign-in challenge does not prove the step-up.
    const other = await atFactor(app, 'pkrecent01');
    const { challenge } = await challengeOf(other);
    expectFailureEnvelope(await authenticate(browser, { response: auth.assert(challenge) }), 200, 1204);
    expectFailureEnvelope(await browser.get(api(securityPaths.securityOverview)), 403, 1412);
  });

  test('an unknown credential, a bad signature and no user verification are refused', async () => {
    const { app, ctx } = await start();
    const { auth, account } = await passkeyAccount(ctx, 'pkunknown01');
    const browser = await atFactor(app, 'pkunknown01');
    const { challenge } = await challengeOf(browser);
    const stranger = new SoftAuthenticator(ORIGIN);
    const r = await authenticate(browser, { response: stranger.assert(challenge) });
    expectFailureEnvelope(r, 200, 1403);
    expect(message(r)).toBe(NOT_RECOGNIZED);
    const spanish = await browser.post(
      api(passkeyPaths.passkeyAuthentication),
      { response: stranger.assert(challenge) },
      { 'accept-language': 'es' },
    );
    expect(message(spanish)).toBe(
      'Esta llave de acceso no está registrada para su cuenta. Elija otra llave de acceso u otra forma de verificación.',
    );
    // Another account's passkey is unknown to this one.
    const other = await passkeyAccount(ctx, 'pkunknown02');
    expectFailureEnvelope(await authenticate(browser, { response: other.auth.assert(challenge) }), 200, 1403);

    // Without user verification, or from another origin: not verified (and the challenge is used).
    auth.userVerified = false;
    const noUv = await authenticate(browser, { response: auth.assert(challenge) });
    expectFailureEnvelope(noUv, 200, 1428);
    expect(message(noUv)).toBe("We couldn't verify your passkey. Try again or choose another way to verify.");
    auth.userVerified = true;
    const next = await challengeOf(browser);
    const phished = await authenticate(browser, {
      response: auth.assert(next.challenge, { origin: 'https://bank-login.example' }),
    });
    expectFailureEnvelope(phished, 200, 1428);
    expect((await audit(account.id)).map((e) => e.event)).toContain('factor-failed');
  });

  test('bursts: 100 simultaneous answers of one challenge sign in once; 100 simultaneous writes of one counter pass once', async () => {
    const { app, ctx } = await start();
    const { auth, credential } = await passkeyAccount(ctx, 'pkburst01');
    const browser = await atFactor(app, 'pkburst01');
    const { challenge } = await challengeOf(browser);
    const response = auth.assert(challenge);
    const answers = await Promise.all(Array.from({ length: 100 }, () => authenticate(browser, { response })));
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(1);
    for (const r of answers) expect([1200, 1428, 1401]).toContain(code(r));
    const read = credential!;
    const next = Number((read.data as { counter?: number }).counter ?? 0) + 100;
    const writes = await Promise.all(
      Array.from({ length: 100 }, () => advanceCounter(ctx, read, next, false)),
    );
    expect(writes.filter(Boolean)).toHaveLength(1);
  });

  test('held after repeated blocks like the other factors: 1204 to the representative, audited once, the owner told; lifted (a recovery, the console), it signs in again', async () => {
    const { app, ctx } = await h.start({
      ...WIDE_LIMITS,
      PASSKEY_MAX_WRONG_TRIES: '2',
      PASSKEY_BLOCK_MINUTES: '5',
      FACTOR_BLOCKS_BEFORE_HOLD: '2',
    });
    const { account, auth } = await passkeyAccount(ctx, 'pkhold01');
    /** A sign-in whose passkey assertions are not verified (no user verification): their answers. */
    const guess = async () => {
      const browser = await atFactor(app, 'pkhold01');
      auth.userVerified = false;
      const answers = [];
      for (let i = 0; i < 2; i++) {
        const { challenge } = await challengeOf(browser);
        answers.push(await authenticate(browser, { response: auth.assert(challenge) }));
      }
      auth.userVerified = true;
      return answers;
    };
    // The first block ends after PASSKEY_BLOCK_MINUTES.
    expect((await guess()).map(code)).toEqual([1428, 1491]);
    h.clock.advance(5 * 60_000 + 1000);
    // The second block holds it: the journey goes on to the representative.
    const second = await guess();
    expect(code(second[0]!)).toBe(1428);
    expectFailureEnvelope(second[1]!, 200, 1204);
    expect(message(second[1]!)).toBe(
      'This passkey is blocked after too many attempts that could not be verified. Recover your account or call us to unblock it, or choose another method.',
    );
    const held = await h.db
      .selectFrom('factor_holds')
      .select(['factor', 'held_at'])
      .where('account_id', '=', account.id)
      .execute();
    expect(held.map((r) => [r.factor, r.held_at !== null])).toEqual([['passkey', true]]);

    // Long after the block would have ended, the owner's own passkey is refused, unverified.
    h.clock.advance(60 * 60_000);
    const later = await atFactor(app, 'pkhold01');
    expectFailureEnvelope(await options(later), 200, 1204);
    expect((await audit(account.id)).filter((e) => e.event === 'factor-held')).toHaveLength(1);
    const notices = await h.db
      .selectFrom('outbox')
      .select('text')
      .where('recipient', '=', 'pkhold01@example.com')
      .execute();
    expect(notices.filter((m) => m.text.includes('so we blocked that method'))).toHaveLength(1);

    // The console's unblock (or a recovery) lifts it: the passkey signs in again.
    await ctx.db.transaction().execute((tx) => new FactorHolds(ctx).liftAll(tx, account.id));
    await signInWithPasskey(app, 'pkhold01', auth);
  });

  test('conditional mediation: login-options, login-assertion, the password, then the proof completes the passkey; the proof is refused for another account, browser or a second use', async () => {
    const { app, ctx } = await start();
    const { auth } = await passkeyAccount(ctx, 'pkcond01');
    await passkeyAccount(ctx, 'pkcond02');

    const browser = new Client(app);
    const lo = await browser.post(api(passkeyPaths.passkeyLoginOptions), {});
    expect(code(lo)).toBe(1200);
    const loginOptions = data<{ options: { challenge: string; allowCredentials?: unknown[] } }>(lo).options;
    expect(loginOptions.allowCredentials ?? []).toEqual([]);
    expect(lo.headers['set-cookie']?.toString()).toMatch(/passkey_login=[^;]+;.*HttpOnly/);
    const la = await browser.post(api(passkeyPaths.passkeyLoginAssertion), {
      response: auth.assert(loginOptions.challenge),
    });
    expect(code(la)).toBe(1200);
    const { username, proof } = data<{ username: string; proof: string }>(la);
    expect(username).toBe('pkcond01');

    // The proof is this browser's and this account's: another account's journey in the same browser refuses it.
    const wrongAccount = new Client(app);
    for (const [k, v] of browser.cookies) wrongAccount.cookies.set(k, v);
    await atFactor(app, 'pkcond02', wrongAccount);
    expectFailureEnvelope(await authenticate(wrongAccount, { proof }), 200, 1403);
    // Another browser (no passkey_login cookie) with the right account refuses it too.
    const elsewhere = await atFactor(app, 'pkcond01');
    expectFailureEnvelope(await authenticate(elsewhere, { proof }), 200, 1403);

    // Its own browser, after the password: signed in without a second prompt.
    await atFactor(app, username, browser);
    const done = await authenticate(browser, { proof });
    expect(code(done)).toBe(1200);
    expect(data(done)).toEqual({ authenticated: true, factor: 'PASSKEY' });
    // Used: a second journey of the same browser cannot take it again.
    const again = new Client(app);
    for (const [k, v] of browser.cookies) if (k.includes('passkey_login')) again.cookies.set(k, v);
    await atFactor(app, username, again);
    expectFailureEnvelope(await authenticate(again, { proof }), 200, 1403);

    // The login challenge is single use too; and a proof past its expiry is refused.
    expectFailureEnvelope(
      await browser.post(api(passkeyPaths.passkeyLoginAssertion), {
        response: auth.assert(loginOptions.challenge),
      }),
      200,
      1428,
    );
    const fresh = new Client(app);
    const c2 = data<{ options: { challenge: string } }>(
      await fresh.post(api(passkeyPaths.passkeyLoginOptions), {}),
    ).options.challenge;
    const p2 = data<{ proof: string }>(
      await fresh.post(api(passkeyPaths.passkeyLoginAssertion), { response: auth.assert(c2) }),
    ).proof;
    await atFactor(app, username, fresh);
    h.clock.advance(301_000);
    expectFailureEnvelope(await authenticate(fresh, { proof: p2 }), 200, 1403);
  });

  test('hostile input is the 400 envelope, never a 500', async () => {
    const { app, ctx } = await start();
    const { auth } = await passkeyAccount(ctx, 'pkhostile01');
    const browser = await atFactor(app, 'pkhostile01');
    const { challenge } = await challengeOf(browser);
    const good = auth.assert(challenge);
    const bad: Json[] = [
      { response: { ...good, id: 'not base64url!' } },
      { response: { ...good, rawId: 'a'.repeat(5000) } },
      { response: { ...good, response: { ...good.response, clientDataJSON: 'x'.repeat(20_000) } } },
      { response: { ...good, response: { ...good.response, signature: '+/=' } } },
      { response: { ...good, type: 'password' } },
      { response: good, proof: '00000000-0000-0000-0000-000000000000' },
      { proof: 'x'.repeat(100) },
      { response: 'a string' },
      {},
    ];
    for (const body of bad) expectFailureEnvelope(await authenticate(browser, body), 400, 4400);
    // Well formed but meaningless: clientDataJSON that is not JSON, authenticatorData that is not one.
    const garbage = await authenticate(browser, {
      response: { ...good, response: { ...good.response, clientDataJSON: 'bm90IGpzb24' } },
    });
    expectFailureEnvelope(garbage, 200, 1428);
    const broken = await authenticate(browser, {
      response: { ...good, response: { ...good.response, authenticatorData: 'AAAA' } },
    });
    expectFailureEnvelope(broken, 200, 1428);
    for (const body of [{ response: { id: '%%%' } }, { response: good, extra: 1 }]) {
      expectFailureEnvelope(
        await new Client(app).post(api(passkeyPaths.passkeyLoginAssertion), body),
        400,
        4400,
      );
    }
    // login-assertion without its browser cookie: the challenge is not this browser's.
    expectFailureEnvelope(
      await new Client(app).post(api(passkeyPaths.passkeyLoginAssertion), { response: good }),
      200,
      1428,
    );
  });

  test('the OpenAPI document lists the passkey operations', async () => {
    const { app } = await start();
    const doc = (await app.inject({ method: 'GET', url: api(paths.openapi) })).json() as {
      paths: Record<string, Record<string, { 'x-outcomes': Array<{ code: number }> }>>;
    };
    for (const path of Object.values(passkeyPaths)) {
      const operation = doc.paths[API_BASE + path]?.post;
      expect(operation, path).toBeDefined();
      expect(operation!['x-outcomes'].map((o) => o.code)).toContain(1200);
    }
    expect(
      doc.paths[API_BASE + passkeyPaths.passkeyAuthentication]!.post!['x-outcomes'].map((o) => o.code),
    ).toEqual(expect.arrayContaining([1403, 1428, 1491]));
  });
});
