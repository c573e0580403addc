import { request } from 'node:http';
import { headers as headerNames, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { TOTP, URI } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { allowedAuthenticators } from '../src/factors/registry.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { readDemoAccounts } from '../src/seed.ts';
import { DeviceApp, prepared, pushContent, pushSendBody, TestDevice } from './support/device.ts';
import {
  atFactor,
  authenticators,
  demoContacts,
  factorAccount,
  PASSWORD,
  proveTextCode,
} from './support/factors.ts';
import {
  api,
  auditTrail,
  Client,
  code,
  expectFailureEnvelope,
  json,
  liveSessionCount,
  onOwnPGlite,
  productionMail,
  productionSecret,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';
import { confirmed, putPassword } from './support/recovery.ts';
import { useWebhookReceiver } from './support/webhook-receiver.ts';

/**
 * Push approval and the device app (widget spec §2 push, §4 push states, §7; decision 022): the
 * widget's send and poll, the device's signed answers, its proofs, registrations and live stream,
 * the send limit and single answers under bursts, fraud reports and the push webhook.
 */

const send = (client: Client, body: Record<string, unknown> = pushSendBody) =>
  client.post(api(paths.pushAuthentication), body);
const poll = (client: Client, id: string, bindDevice?: boolean) =>
  client.post(api(paths.pushStatus), { id, ...(bindDevice === undefined ? {} : { bindDevice }) });
const statusOf = (r: Awaited<ReturnType<typeof poll>>) => json<{ status: string }>(r).successData?.status;
const sentId = (r: Awaited<ReturnType<typeof send>>) => {
  expect(code(r), r.body).toBe(1200);
  return json<{ id: string; number?: string; expiresAt: string }>(r).successData!;
};

/** The same request, sent by one browser `n` times at once (its cookies and CSRF token as they are now). */
function burst(app: FastifyInstance, client: Client, url: string, body: unknown, n: number) {
  const one = prepared(app, client, url, body);
  return Promise.all(Array.from({ length: n }, one));
}

describe.each(targets)('push approval ($name)', (target) => {
  const h = useHarness(target);

  /** An account with a push device (and no contacts) and a browser at its second factor. */
  async function start(env: Record<string, string> = {}, username = 'pushuser01') {
    const { app, ctx, logs } = await h.start(env);
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, username);
    const credential = await device.enrol(ctx, account.id);
    const browser = await atFactor(app, username);
    return { app, ctx, logs, device, account, credential, browser, phone: new DeviceApp(app, device) };
  }
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
  const auditEvents = (accountId: string) => auditTrail(h.db, accountId);
  const liveSessions = (accountId: string) => liveSessionCount(h.db, accountId);

  test('login by push: offered, sent, listed on the device, approved with its signature; the poll signs in and trusts the device', async () => {
    const { browser, phone, account, device, logs } = await start();
    const list = json<{ authenticators: Array<{ type: string }> }>(await authenticators(browser));
    expect(list.successData!.authenticators).toEqual([{ type: 'PUSH' }]);

    const sent = sentId(await send(browser));
    // Number matching is on by default (decision 032): the sign-in screen's number.
    expect(sent.number).toMatch(/^[1-9]\d$/);
    expect(new Date(sent.expiresAt).getTime()).toBe(
      new Date(
        (await h.db.selectFrom('push_transactions').select('created_at').executeTakeFirstOrThrow())
          .created_at,
      ).getTime() + 120_000,
    );
    expect(statusOf(await poll(browser, sent.id))).toBe('PENDING');

    const listed = await phone.pushes();
    expect(code(listed)).toBe(1200);
    const pushes = json<{ pushes: Array<Record<string, unknown>> }>(listed).successData!.pushes;
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      id: sent.id,
      username: 'pushuser01',
      status: 'PENDING',
      // The server's text for a login, not the widget's transactionDescription.
      description: 'Sign-in request',
      content: {
        // Every word is the server's (decision 032, push-text.test.ts): the test client's
        // User-Agent names no browser or system; the host and time are the send's own.
        browserName: '',
        osName: '',
        time: pushes[0]!.createdAt,
        host: 'localhost',
        journey: 'LOGIN',
      },
      answeredAt: null,
      numberMatching: true,
    });
    expect(pushes[0]).not.toHaveProperty('number');

    const body = await device.answerBody(sent.id, 'APPROVE', sent.number);
    rememberSecret(body.signature);
    const approved = await phone.client.post(api(paths.devicePushAnswer), body);
    expect(json(approved).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'Your answer was recorded.',
    });
    expect(json(approved).successData).toEqual({ status: 'SUCCESS' });

    const before = browser.cookies.get('ET')!;
    const done = await poll(browser, sent.id, true);
    expect(statusOf(done)).toBe('COMPLETED_SUCCESSFUL');
    const after = browser.cookies.get('ET')!;
    expect(after).not.toBe(before);
    expect(code(await browser.session())).toBe(1200);
    expect(await sessionFactors(after)).toEqual(['login:password', 'login:PUSH']);
    // bindDevice at login: the browser is trusted.
    expect(await h.db.selectFrom('trusted_devices').selectAll().execute()).toHaveLength(1);
    // A poll again: the same answer, nothing new.
    expect(statusOf(await poll(browser, sent.id, true))).toBe('COMPLETED_SUCCESSFUL');
    expect(await liveSessions(account.id)).toBe(1);
    expect(await auditEvents(account.id)).toEqual(
      expect.arrayContaining([
        'push-sent:success',
        'push-approved:success',
        'factor-passed:success',
        'sign-in:success',
      ]),
    );
    // The device lists it as completed.
    const later = json<{ pushes: Array<{ status: string; answeredAt: string }> }>(await phone.pushes())
      .successData!;
    expect(later.pushes[0]!.status).toBe('COMPLETED_SUCCESSFUL');
    expect(logs.some((l) => l.includes(body.signature))).toBe(false);
  });

  test("the answer that wins marks its device used at the answer's own time, as the device app reads its registration", async () => {
    const { app, browser, phone, device } = await start();
    const registration = async () =>
      json<{ registrations: Array<{ lastUsedAt: string | null }> }>(await phone.registrations()).successData!
        .registrations[0]!;
    expect((await registration()).lastUsedAt).toBeNull();
    const sent = sentId(await send(browser));
    h.clock.advance(20_000);
    const from = h.clock.now().getTime();
    // The same signed approval 12 times at once: one wins, and only it is a use.
    const body = await device.answerBody(sent.id, 'APPROVE', sent.number);
    const answers = await burst(app, phone.client, api(paths.devicePushAnswer), body, 12);
    expect(answers.map(code).sort()).toEqual([1200, ...Array(11).fill(1409)]);
    const to = h.clock.now().getTime();
    const { lastUsedAt } = await registration();
    const answered = json<{ pushes: Array<{ answeredAt: string }> }>(await phone.pushes()).successData!
      .pushes[0]!.answeredAt;
    expect(lastUsedAt).toBe(answered);
    const at = new Date(lastUsedAt!).getTime();
    expect(at).toBeGreaterThanOrEqual(from);
    expect(at).toBeLessThanOrEqual(to);
    // A late replay is refused and is no use of the device.
    h.clock.advance(60_000);
    expect(code(await phone.answer(sent.id, 'APPROVE', sent.number))).toBe(1409);
    expect((await registration()).lastUsedAt).toBe(lastUsedAt);
  });

  test('pushuser1 (demo): the device app claims its seeded device, then signs in by push', async () => {
    const { app } = await h.start({ SEED_DEMO: 'true' });
    const demo = readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url)).find(
      (a) => a.username === 'pushuser1',
    )!;
    const listed = await new Client(app).get(api(paths.devDemoDevices));
    expect(listed.statusCode).toBe(200);
    expect(JSON.parse(listed.body).accounts).toContainEqual({ username: 'pushuser1', about: demo.about });

    const device = await TestDevice.create(h.clock);
    const phone = new DeviceApp(app, device);
    // Before the claim the key is nobody's device.
    expectFailureEnvelope(await phone.pushes(), 200, 1403);
    const wrongPurpose = await phone.client.post(api(paths.devDemoDeviceClaim), {
      username: 'pushuser1',
      publicKey: device.publicKey,
      proof: await device.proof('claim:allfactors1'),
    });
    expectFailureEnvelope(wrongPurpose, 200, 1403);
    const claimed = await phone.client.post(api(paths.devDemoDeviceClaim), {
      username: 'pushuser1',
      publicKey: device.publicKey,
      proof: await device.proof('claim:pushuser1'),
    });
    expect(code(claimed)).toBe(1200);
    expect(json<{ registration: { username: string } }>(claimed).successData!.registration.username).toBe(
      'pushuser1',
    );
    const unknown = await phone.client.post(api(paths.devDemoDeviceClaim), {
      username: 'alexdemo1',
      publicKey: device.publicKey,
      proof: await device.proof('claim:alexdemo1'),
    });
    expectFailureEnvelope(unknown, 200, 1404);

    const browser = new Client(app);
    expect(code(await browser.signInPassword('pushuser1', demo.password))).toBe(1200);
    const login = await browser.sessionLogin();
    expect(code(login)).toBe(1201);
    // Session login's own list offers the push first, as the widget opens its first entry.
    const offered = json<{ authenticators: Array<{ type: string }> }>(login).successData!.authenticators;
    expect(offered[0]).toEqual({ type: 'PUSH' });
    const sent = sentId(await send(browser));
    expect(code(await phone.answer(sent.id, 'APPROVE', sent.number))).toBe(1200);
    expect(statusOf(await poll(browser, sent.id))).toBe('COMPLETED_SUCCESSFUL');
    expect(code(await browser.session())).toBe(1200);
  });

  test('step-up by push: a signed-in session proves push again; the session rotates once', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'stepuser01', {}, { secondFactor: false });
    const device = await TestDevice.create(h.clock);
    await device.enrol(ctx, account.id);
    const browser = new Client(app);
    await browser.signIn('stepuser01', PASSWORD);
    const signedIn = browser.cookies.get('ET')!;
    const sent = sentId(await send(browser));
    expect(statusOf(await poll(browser, sent.id))).toBe('PENDING');
    expect(code(await new DeviceApp(app, device).answer(sent.id, 'APPROVE', sent.number))).toBe(1200);
    expect(statusOf(await poll(browser, sent.id, true))).toBe('COMPLETED_SUCCESSFUL');
    const token = browser.cookies.get('ET')!;
    expect(token).not.toBe(signedIn);
    expect(await sessionFactors(token)).toEqual(['login:password', 'stepup:PUSH']);
    // bindDevice is for the login journey only; the rotated session still reads its push.
    expect(await h.db.selectFrom('trusted_devices').selectAll().execute()).toHaveLength(0);
    expect(statusOf(await poll(browser, sent.id))).toBe('COMPLETED_SUCCESSFUL');
    expect(await liveSessions(account.id)).toBe(1);
  });

  test('step-up: concurrent polls after the approval rotate the session once; every poll COMPLETED_SUCCESSFUL', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'stepuser02', {}, { secondFactor: false });
    const device = await TestDevice.create(h.clock);
    await device.enrol(ctx, account.id);
    const browser = new Client(app);
    await browser.signIn('stepuser02', PASSWORD);
    const sent = sentId(await send(browser));
    expect(code(await new DeviceApp(app, device).answer(sent.id, 'APPROVE', sent.number))).toBe(1200);
    const results = await burst(app, browser, api(paths.pushStatus), { id: sent.id }, 10);
    expect(results.map((r) => json<{ status: string }>(r).successData?.status)).toEqual(
      Array(10).fill('COMPLETED_SUCCESSFUL'),
    );
    expect(results.filter((r) => r.cookies.some((c) => c.name === 'ET' && c.value))).toHaveLength(1);
    expect(await liveSessions(account.id)).toBe(1);
    const rotated = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('account_id', '=', account.id)
      .where('end_reason', '=', 'rotated')
      .execute();
    expect(rotated).toHaveLength(1);
  });

  test('signatures: unsigned and malformed are 4400; a wrong key, a forged signature and a stale proof are 1403; a replay 1409; a late answer 1410', async () => {
    const { app, browser, phone, device, ctx } = await start();
    const sent = sentId(await send(browser));
    const good = await device.answerBody(sent.id, 'APPROVE', sent.number);
    const { signature: _s, ...unsigned } = good;
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushAnswer), unsigned), 400, 4400);
    const garbage = { ...good, signature: `${'%'.repeat(85)}=` };
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushAnswer), garbage), 400, 4400);
    const noise = { ...good, signature: 'A'.repeat(86) };
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushAnswer), noise), 200, 1403);
    // Signed for another decision: the signature covers it.
    expectFailureEnvelope(
      await phone.client.post(api(paths.devicePushAnswer), { ...good, decision: 'DECLINE' }),
      200,
      1403,
    );

    // Another device, registered to another account: its own key is not this push's.
    const other = await TestDevice.create(h.clock);
    const stranger = await factorAccount(ctx, 'otheruser1');
    await other.enrol(ctx, stranger.id);
    const otherApp = new DeviceApp(app, other);
    expectFailureEnvelope(await otherApp.answer(sent.id, 'APPROVE'), 200, 1403);
    // Claiming to be this device, signed by the other key.
    const forged = { ...(await other.answerBody(sent.id, 'APPROVE')), key: device.key };
    expectFailureEnvelope(await otherApp.client.post(api(paths.devicePushAnswer), forged), 200, 1403);
    // The other device does not see this push.
    expect(json<{ pushes: unknown[] }>(await otherApp.pushes()).successData!.pushes).toEqual([]);

    // Proofs: outside the window, for another purpose, or by an unregistered key.
    const stale = await device.proof('pushes', new Date(h.clock.now().getTime() - 61_000));
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushes), { proof: stale }), 200, 1403);
    const ahead = await device.proof('pushes', new Date(h.clock.now().getTime() + 61_000));
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushes), { proof: ahead }), 200, 1403);
    const wrongPurpose = await device.proof('registrations');
    expectFailureEnvelope(
      await phone.client.post(api(paths.devicePushes), { proof: wrongPurpose }),
      200,
      1403,
    );
    const nobody = await TestDevice.create(h.clock);
    expectFailureEnvelope(await new DeviceApp(app, nobody).pushes(), 200, 1403);
    const badProof = { proof: { ...(await device.proof('pushes')), signature: '!'.repeat(86) } };
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushes), badProof), 400, 4400);

    // The right answer once; the same body again is a replay.
    expect(code(await phone.client.post(api(paths.devicePushAnswer), good))).toBe(1200);
    expectFailureEnvelope(await phone.client.post(api(paths.devicePushAnswer), good), 200, 1409);
    expectFailureEnvelope(await phone.answer(sent.id, 'DECLINE'), 200, 1409);
    expectFailureEnvelope(await phone.answer('9b2f4c1e-0000-4000-8000-000000000000', 'APPROVE'), 200, 1404);

    // A late answer: the push expired.
    const second = sentId(await send(browser));
    h.clock.advance(121_000);
    expectFailureEnvelope(await phone.answer(second.id, 'APPROVE', second.number), 200, 1410);
    expect(statusOf(await poll(browser, second.id))).toBe('EXPIRED_PENDING');
  });

  test('50 answers at once: exactly one is recorded, the rest 1409', async () => {
    const { app, browser, phone, device } = await start();
    const sent = sentId(await send(browser));
    const bodies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 ? device.answerBody(sent.id, 'DECLINE') : device.answerBody(sent.id, 'APPROVE', sent.number),
      ),
    );
    await phone.client.get(api(paths.health));
    const cookie = [...phone.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const results = await Promise.all(
      bodies.map((b) =>
        app.inject({
          method: 'POST',
          url: api(paths.devicePushAnswer),
          headers: {
            cookie,
            [headerNames.csrf]: phone.client.cookies.get('XSRF-TOKEN')!,
            'content-type': 'application/json',
          },
          payload: JSON.stringify(b),
        }),
      ),
    );
    const codes = results.map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(1);
    expect(codes.filter((c) => c === 1409)).toHaveLength(49);
    const row = await h.db.selectFrom('push_transactions').selectAll().executeTakeFirstOrThrow();
    expect(['APPROVED', 'DECLINED']).toContain(row.status);
  });

  test('20 sends at once: exactly 3 pushes, the rest 1491; a fourth send later is 1491 too', async () => {
    const { app, browser } = await start();
    const results = await burst(app, browser, api(paths.pushAuthentication), pushSendBody, 20);
    const codes = results.map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(3);
    expect(codes.filter((c) => c === 1491)).toHaveLength(17);
    expect(await h.db.selectFrom('push_transactions').selectAll().execute()).toHaveLength(3);
    const after = await send(browser);
    expect(json(after).responseBaseInfo.status).toEqual({
      code: 1491,
      message: 'Please try another method to verify your identity.',
    });
    // Only the newest push can be answered: a new send withdraws the older pending ones.
    const rows = await h.db.selectFrom('push_transactions').select('status').execute();
    expect(rows.filter((r) => r.status === 'PENDING')).toHaveLength(1);
  });

  test('concurrent polls after the approval: one session, every poll COMPLETED_SUCCESSFUL', async () => {
    const { app, browser, phone, account } = await start();
    const sent = sentId(await send(browser));
    expect(code(await phone.answer(sent.id, 'APPROVE', sent.number))).toBe(1200);
    const results = await burst(app, browser, api(paths.pushStatus), { id: sent.id }, 12);
    expect(results.map((r) => json<{ status: string }>(r).successData?.status)).toEqual(
      Array(12).fill('COMPLETED_SUCCESSFUL'),
    );
    expect(results.filter((r) => r.cookies.some((c) => c.name === 'ET' && c.value))).toHaveLength(1);
    expect(await liveSessions(account.id)).toBe(1);
  });

  test("another browser's push is 1404 (as an unknown one); without a journey or session 4401", async () => {
    const { app, ctx, browser, device } = await start();
    const sent = sentId(await send(browser));
    // The same account signing in from another browser, and another account's browser.
    const second = await atFactor(app, 'pushuser01');
    expectFailureEnvelope(await poll(second, sent.id), 200, 1404);
    const otherAccount = await factorAccount(ctx, 'otheruser1');
    await device.enrol(ctx, otherAccount.id);
    const other = await atFactor(app, 'otheruser1');
    expectFailureEnvelope(await poll(other, sent.id), 200, 1404);
    expectFailureEnvelope(await poll(other, '00000000-0000-4000-8000-000000000000'), 200, 1404);
    expectFailureEnvelope(await poll(other, 'not-a-push'), 200, 1404);
    expectFailureEnvelope(await poll(new Client(app), sent.id), 401, 4401);
    expectFailureEnvelope(await send(new Client(app)), 401, 4401);
    // The device of both accounts lists both accounts' pushes.
    sentId(await send(other));
    const listed = json<{ pushes: Array<{ username: string }> }>(await new DeviceApp(app, device).pushes());
    expect(listed.successData!.pushes.map((p) => p.username).sort()).toEqual(['otheruser1', 'pushuser01']);
  });

  test('decline, expiry (seen once), bad content and an account without a device', async () => {
    const { app, ctx, browser, phone, account } = await start();
    expectFailureEnvelope(
      await send(browser, { ...pushSendBody, secureTransactionContent: '{"time":1}' }),
      400,
      4400,
    );
    expectFailureEnvelope(
      await send(browser, { ...pushSendBody, secureTransactionContent: 'not json' }),
      400,
      4400,
    );
    // The spec's request is accepted as it is, but none of it is kept (decision 032).
    const long = JSON.stringify({
      ...JSON.parse(pushContent),
      deviceInfo: { browserName: 'b'.repeat(1500), osName: 'Linux' },
    });
    const accepted = sentId(await send(browser, { ...pushSendBody, secureTransactionContent: long }));
    const row = await h.db
      .selectFrom('push_transactions')
      .select('content')
      .where('id', '=', accepted.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row.content)).not.toContain('bbb');

    const declined = sentId(await send(browser));
    expect(code(await phone.answer(declined.id, 'DECLINE'))).toBe(1200);
    expect(statusOf(await poll(browser, declined.id))).toBe('DECLINED');
    expect(code(await browser.session())).not.toBe(1200);

    const expiring = sentId(await send(browser));
    h.clock.advance(120_001);
    expect(statusOf(await poll(browser, expiring.id))).toBe('EXPIRED_PENDING');
    expect(statusOf(await poll(browser, expiring.id))).toBe('EXPIRED_PENDING');
    const events = await auditEvents(account.id);
    expect(events.filter((e) => e === 'push-expired:failure')).toHaveLength(1);
    expect(events).toContain('push-declined:failure');

    await factorAccount(ctx, 'nodevice01', demoContacts('nodevice01', new Date(0)));
    const plain = await atFactor(app, 'nodevice01');
    expect(
      json<{ authenticators: Array<{ type: string }> }>(
        await authenticators(plain),
      ).successData!.authenticators.map((a) => a.type),
    ).not.toContain('PUSH');
    expectFailureEnvelope(await send(plain), 200, 1403);
  });

  test('number matching: the widget gets the number, the device only that one is due; a wrong number is COMPLETED_FAILURE, the right one signs in', async () => {
    const { browser, phone, account } = await start({ PUSH_NUMBER_MATCHING: 'true' });
    const sent = sentId(await send(browser));
    expect(sent.number).toMatch(/^[1-9]\d$/);
    const listed = json<{ pushes: Array<Record<string, unknown>> }>(await phone.pushes()).successData!
      .pushes[0]!;
    expect(listed.numberMatching).toBe(true);
    expect(listed).not.toHaveProperty('numbers');
    const wrong = String(((Number(sent.number) - 10 + 1) % 90) + 10);
    expect(code(await phone.answer(sent.id, 'APPROVE', wrong))).toBe(1200);
    expect(statusOf(await poll(browser, sent.id))).toBe('COMPLETED_FAILURE');
    expect(await liveSessions(account.id)).toBe(0);

    const again = sentId(await send(browser));
    expect(code(await phone.answer(again.id, 'APPROVE', again.number))).toBe(1200);
    expect(statusOf(await poll(browser, again.id))).toBe('COMPLETED_SUCCESSFUL');
  });

  test('fraud: the journey ends and its cookies go; the account is locked until recovery and a new password', async () => {
    const { app, browser, phone, account } = await start();
    const sent = sentId(await send(browser));
    expect(code(await phone.answer(sent.id, 'FRAUD'))).toBe(1200);
    const r = await poll(browser, sent.id);
    expect(statusOf(r)).toBe('FRAUD');
    expect(r.cookies.some((c) => c.name === 'ET' && c.value === '')).toBe(true);
    expect(browser.cookies.has('ET')).toBe(false);
    const journey = await h.db
      .selectFrom('journeys')
      .select('state')
      .where(
        'id',
        '=',
        (await h.db.selectFrom('push_transactions').select('journey_id').executeTakeFirstOrThrow())
          .journey_id,
      )
      .executeTakeFirstOrThrow();
    expect(['failed', 'ended']).toContain(journey.state);
    const row = await h.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('locked');
    expect(await auditEvents(account.id)).toContain('push-fraud:failure');
    // The right password no longer signs in, and is told why: a fraud report, undone by recovery
    // (not the lockout after too many attempts).
    const told = await new Client(app).signInPassword('pushuser01', PASSWORD);
    expect(code(told)).not.toBe(1200);
    expect(code(told)).toBe(1206);
    expect(json(told).responseBaseInfo.status.message).toBe(
      'Your account was locked because a sign-in request was reported as fraud. To unlock it, reset your password.',
    );

    // Recovery and a new password lift the lock.
    const recovering = await confirmed(app, h.db, 'pushuser01');
    expect(code(await putPassword(recovering, { newPassword: 'Cedar5Brook' }))).toBe(1200);
    const again = new Client(app);
    expect(code(await again.signInPassword('pushuser01', 'Cedar5Brook'))).toBe(1200);
    expect(code(await again.sessionLogin())).toBe(1201);
  });

  test('a lock withdraws the pending push: the device no longer lists it, an approval is refused as withdrawn, and the browser is told its sign-in ended (no resend)', async () => {
    const { app, browser, phone, account } = await start();
    const sent = sentId(await send(browser));
    const pending = json<{ pushes: Array<{ id: string; status: string }> }>(await phone.pushes()).successData!
      .pushes;
    expect(pending.find((p) => p.id === sent.id)?.status).toBe('PENDING');

    // Wrong passwords from elsewhere lock the account (LOGIN_LOCKOUT_FAILURES, 6).
    for (let i = 0; i < 6; i++) {
      await new Client(app, { remoteAddress: `203.0.113.${i + 1}` }).signInPassword(
        'pushuser01',
        'Wrong7Guess',
      );
    }
    const row = await h.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('locked');

    const listed = json<{ pushes: Array<{ id: string; status: string }> }>(await phone.pushes()).successData!
      .pushes;
    expect(listed.find((p) => p.id === sent.id)?.status).not.toBe('PENDING');
    const approved = await phone.answer(sent.id, 'APPROVE', sent.number);
    expectFailureEnvelope(approved, 200, 1411);
    expect(json(approved).responseBaseInfo.status.message).toBe(
      'This request was withdrawn: the sign-in it belonged to has ended, for example because the account was locked. Nothing was approved.',
    );
    const polled = await poll(browser, sent.id);
    expectFailureEnvelope(polled, 401, 4401);
    expect(code(await send(browser))).toBe(4401);
  });

  test('fraud with PUSH_FRAUD_LOCKS_ACCOUNT=false: the journey ends, the account stays active', async () => {
    const { browser, phone, account } = await start({ PUSH_FRAUD_LOCKS_ACCOUNT: 'false' });
    const sent = sentId(await send(browser));
    expect(code(await phone.answer(sent.id, 'FRAUD'))).toBe(1200);
    expect(statusOf(await poll(browser, sent.id))).toBe('FRAUD');
    expect(code(await send(browser))).toBe(4401);
    const row = await h.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
  });

  test("registration needs the security page's step-up (an established factor, within SECURITY_STEPUP_MINUTES), never the sign-in alone; rename and remove by proof", async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'reguser001', demoContacts('reguser001', new Date(0)));
    const device = await TestDevice.create(h.clock);
    const register = async (client: Client, d = device, purpose: 'register' | 'pushes' = 'register') =>
      client.post(api(paths.deviceRegister), {
        publicKey: d.publicKey,
        name: 'My phone',
        proof: await d.proof(purpose),
      });
    expectFailureEnvelope(await register(new Client(app)), 401, 4401);

    // Signed in with a text code: the sign-in's own factor does not count.
    const browser = await atFactor(app, 'reguser001');
    await proveTextCode(h.db, browser);
    expectFailureEnvelope(await register(browser), 200, 1403);
    // The step-up with the same (established) phone: registration works.
    await proveTextCode(h.db, browser);
    expectFailureEnvelope(await register(browser, device, 'pushes'), 200, 1403);
    const other = await TestDevice.create(h.clock);
    const mismatched = await browser.post(api(paths.deviceRegister), {
      publicKey: device.publicKey,
      name: 'My phone',
      proof: await other.proof('register'),
    });
    expectFailureEnvelope(mismatched, 200, 1403);
    const registered = await register(browser);
    expect(code(registered)).toBe(1200);
    const registration = json<{ registration: { id: string; username: string; name: string } }>(registered)
      .successData!.registration;
    expect(registration).toMatchObject({ username: 'reguser001', name: 'My phone' });
    expect(await auditEvents(account.id)).toContain('device-registered:success');

    const deviceApp = new DeviceApp(app, device);
    const list = json<{ registrations: Array<{ id: string }> }>(await deviceApp.registrations());
    expect(list.successData!.registrations.map((r) => r.id)).toEqual([registration.id]);

    // Past SECURITY_STEPUP_MINUTES, the same session is refused.
    h.clock.advance(11 * 60_000);
    expectFailureEnvelope(await register(browser, other), 200, 1403);

    // Rename and remove: only by this key, for its own registrations.
    const rename = async (d: TestDevice, id: string) =>
      new DeviceApp(app, d).client.post(api(paths.deviceRename), {
        id,
        name: 'Work phone',
        proof: await d.proof(`rename:${id}`),
      });
    expectFailureEnvelope(await rename(other, registration.id), 200, 1403);
    expect(code(await rename(device, registration.id))).toBe(1200);
    expect((await ctx.credentials.get(registration.id))!.name).toBe('Work phone');
    const remove = async (id: string) =>
      deviceApp.client.post(api(paths.deviceRemove), { id, proof: await device.proof(`remove:${id}`) });
    expectFailureEnvelope(await remove('00000000-0000-4000-8000-000000000000'), 200, 1404);
    expect(code(await remove(registration.id))).toBe(1200);
    expect(await ctx.credentials.get(registration.id)).toBeUndefined();
    expect(await auditEvents(account.id)).toEqual(
      expect.arrayContaining(['device-renamed:success', 'device-removed:success']),
    );
  });

  test('a sign-in alone (here by push) cannot register a device (1403)', async () => {
    const { browser, phone, device } = await start();
    const sent = sentId(await send(browser));
    expect(code(await phone.answer(sent.id, 'APPROVE', sent.number))).toBe(1200);
    expect(statusOf(await poll(browser, sent.id))).toBe('COMPLETED_SUCCESSFUL');
    const newcomer = await TestDevice.create(h.clock);
    const r = await browser.post(api(paths.deviceRegister), {
      publicKey: newcomer.publicKey,
      name: 'Second phone',
      proof: await newcomer.proof('register'),
    });
    expect(json(r).responseBaseInfo.status).toEqual({
      code: 1403,
      message:
        "To add this device, verify your identity again with a method you've had for at least 2 days, then try again.",
    });
    expect(device.key).not.toBe(newcomer.key);
  });

  test('polls every 3 s are never limited; a flood is 4429', async () => {
    const { browser } = await start({ PUSH_STATUS_MAX: '5', PUSH_STATUS_WINDOW_SECONDS: '10' });
    const sent = sentId(await send(browser));
    for (let i = 0; i < 8; i++) {
      expect(statusOf(await poll(browser, sent.id))).toBe('PENDING');
      h.clock.advance(3000);
    }
    for (let i = 0; i < 5; i++) await poll(browser, sent.id);
    expectFailureEnvelope(await poll(browser, sent.id), 429, 4429);
  });

  test('a burst of 120 polls at once in a fresh window: exactly PUSH_STATUS_MAX answer, the rest 4429', async () => {
    const { app, browser } = await start({ PUSH_STATUS_MAX: '20', PUSH_STATUS_WINDOW_SECONDS: '60' });
    const sent = sentId(await send(browser));
    const answers = await burst(app, browser, api(paths.pushStatus), { id: sent.id }, 120);
    expect(answers.filter((r) => r.statusCode === 200 && statusOf(r) === 'PENDING')).toHaveLength(20);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(100);
    for (const r of refused) expect(code(r)).toBe(4429);
  });
});

describe('the device stream and the push webhook', () => {
  const h = useHarness(targets[0]!);

  test('the stream says `pushes` when a push is sent to its key; app.close() ends it', async () => {
    const { app, ctx } = await h.start();
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, 'streamuser');
    await device.enrol(ctx, account.id);
    // On the customers' host: 127.0.0.1 is the console's own host in development (console/gate.ts).
    const address = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
    // The device app's page: its cookies and CSRF token first.
    const health = await fetch(`${address}/api${paths.health}`);
    const cookies = health.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length);
    const headers = {
      cookie: cookies.join('; '),
      [headerNames.csrf]: xsrf,
      'content-type': 'application/json',
    };

    const refused = await fetch(`${address}/api${paths.deviceStream}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ proof: await device.proof('pushes') }),
    });
    expect((await refused.json()).responseBaseInfo.status.code).toBe(1403);

    const stream = await fetch(`${address}/api${paths.deviceStream}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ proof: await device.proof('stream') }),
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const until = async (text: string) => {
      while (!seen.includes(text)) {
        const { value, done } = await reader.read();
        if (done) return false;
        seen += decoder.decode(value);
      }
      return true;
    };
    expect(await until(': connected')).toBe(true);

    const browser = await atFactor(app, 'streamuser');
    sentId(await send(browser));
    expect(await until('event: pushes')).toBe(true);

    await app.close();
    expect(await until('never')).toBe(false);
  });

  test('a device that goes away: its stream is cleaned up, and a later push to its key is no trouble', async () => {
    const { app, ctx, logs } = await h.start();
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, 'streamuser');
    await device.enrol(ctx, account.id);
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    const page = new DeviceApp(app, device).client;
    await page.get(api(paths.health));
    const body = JSON.stringify({ proof: await device.proof('stream') });
    // The device's connection, dropped by the device (its page closed, the network gone).
    const dropped = await new Promise<boolean>((resolve, reject) => {
      const req = request(
        {
          host: address.hostname,
          port: address.port,
          path: `/api${paths.deviceStream}`,
          method: 'POST',
          headers: {
            cookie: [...page.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            [headerNames.csrf]: page.cookies.get('XSRF-TOKEN')!,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            // The customers' host: 127.0.0.1 is the console's own in development (console/gate.ts).
            host: `localhost:${address.port}`,
          },
        },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve(res.statusCode === 200);
          });
        },
      );
      req.on('error', () => {});
      req.once('error', reject);
      req.end(body);
    });
    expect(dropped).toBe(true);
    for (let i = 0; i < 50 && !logs.some((l) => l.includes('device: stream closed')); i++) {
      // wait: polls the log for the stream's close (what the service reports), 20 ms apart
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(logs.some((l) => l.includes('device: stream closed'))).toBe(true);
    const browser = await atFactor(app, 'streamuser');
    sentId(await send(browser));
    expect(logs.filter((l) => /"level":50/.test(l))).toEqual([]);
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  const gateway = useWebhookReceiver('/push');

  test('PUSH_WEBHOOK_URL: the notice is POSTed with the token; a refusal is 5003 and the push is withdrawn', async () => {
    const TOKEN = 'push-gateway-token-0123';
    const { app, ctx } = await h.start({ PUSH_WEBHOOK_URL: gateway.url, PUSH_WEBHOOK_TOKEN: TOKEN });
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, 'hookuser01');
    await device.enrol(ctx, account.id);
    const browser = await atFactor(app, 'hookuser01');
    const sent = sentId(await send(browser));
    expect(gateway.received).toHaveLength(1);
    expect(gateway.received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(gateway.received[0]!.body).toEqual({
      transactionId: sent.id,
      deviceKey: device.key,
      account: 'hookuser01',
      // The server's text for a login, not the widget's transactionDescription.
      description: 'Sign-in request',
    });

    gateway.status = 500;
    expectFailureEnvelope(await send(browser), 503, 5003);
    expect(await h.db.selectFrom('push_transactions').selectAll().execute()).toHaveLength(1);
    // The failed send did not count: two more can go.
    gateway.status = 202;
    sentId(await send(browser));
    sentId(await send(browser));
    expect(code(await send(browser))).toBe(1491);
  });

  test("the demo tokens (development): each token account's otpauth:// URI from its seeded credential, never in a log", async () => {
    const { app, logs } = await h.start({ SEED_DEMO: 'true' });
    const demos = readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url)).filter((a) =>
      a.tags.includes('token'),
    );
    const r = await new Client(app).get(api(paths.devDemoTokens));
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const listed = JSON.parse(r.body) as {
      accounts: Array<{ username: string; credentialId: string; uri: string }>;
    };
    expect(listed.accounts.map((a) => a.username).sort()).toEqual(demos.map((a) => a.username).sort());
    for (const demo of demos) {
      const entry = listed.accounts.find((a) => a.username === demo.username)!;
      expect(entry.credentialId).toBe(demo.token!.credentialId);
      const parsed = URI.parse(entry.uri);
      expect(parsed).toBeInstanceOf(TOTP);
      const totp = parsed as TOTP;
      expect(totp.issuer).toBe('VIP');
      expect(totp.label).toBe(demo.token!.credentialId);
      expect(totp.secret.base32).toBe(demo.token!.secret);
      expect([totp.algorithm, totp.digits, totp.period]).toEqual(['SHA1', 6, 30]);
      expect(logs.some((l) => l.includes(demo.token!.secret))).toBe(false);
    }
  });

  test('production mode: the webhook must be https; without it push is not offered; no demo device routes', async () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: productionSecret, ...productionMail };
    expect(() => loadConfig({ ...production, PUSH_WEBHOOK_URL: 'http://push.bank.example/x' })).toThrow(
      /PUSH_WEBHOOK_URL/,
    );
    // Production refuses to start beside the demo staff an earlier test seeded (decision 034).
    await sql`truncate staff cascade`.execute(h.db);
    const { app, ctx } = await h.start({ ...production, COOKIE_SECURE: 'true' });
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, 'produser01', demoContacts('produser01', new Date(0)));
    await device.enrol(ctx, account.id);
    expect((await allowedAuthenticators(ctx, account)).map((a) => a.type)).not.toContain('PUSH');
    const r = await app.inject({ method: 'GET', url: api(paths.devDemoDevices) });
    expect(r.statusCode).toBe(404);
    const tokens = await app.inject({ method: 'GET', url: api(paths.devDemoTokens) });
    expect(tokens.statusCode).toBe(404);
    expect(tokens.body).not.toContain('otpauth');
  });

  test('a closed database: the push calls answer 503/5003 in the envelope', async () => {
    await onOwnPGlite(async ({ pglite, app, ctx }) => {
      const device = await TestDevice.create(h.clock);
      const account = await factorAccount(ctx, 'faultuser1');
      await device.enrol(ctx, account.id);
      const browser = await atFactor(app, 'faultuser1');
      const phone = new DeviceApp(app, device);
      await phone.client.get(api(paths.health));
      await pglite.close();
      expectFailureEnvelope(await send(browser), 503, 5003);
      expectFailureEnvelope(await poll(browser, '00000000-0000-4000-8000-000000000000'), 503, 5003);
      expectFailureEnvelope(await phone.pushes(), 503, 5003);
    });
  });
});
