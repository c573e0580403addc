import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { contactCredential } from '../src/credentials/contacts.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { maskEmail } from '../src/lib/mask.ts';
import { addStaff, ConsoleClient, staffCode } from './support/console.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  setCookieLine,
  targets,
  useHarness,
} from './support/harness.ts';
import {
  atCodeStep,
  attributes,
  checkBy,
  checkCode,
  identify,
  latestCode,
  maskedEmail,
  passwordStatus,
  sendBy,
  sendCode,
  wrongCode,
} from './support/recovery.ts';

const PASSWORD = 'Harbor7Lights';
const SUPPORT = 'loginsupport@primeservices.example';
const supportMessage = `Please contact ${SUPPORT} for assistance (status code 1491).`;
const invalidCode = 'Your one-time code is invalid. Please try again or request a new code.';

describe('e-mail masking', () => {
  test('first and last character of the local part, four stars, the domain', () => {
    expect(maskEmail('alexdemo1@example.com')).toBe('a****1@example.com');
    expect(maskEmail('ab@example.com')).toBe('a****b@example.com');
    expect(maskEmail('a@example.com')).toBe('a****@example.com');
    expect(maskEmail('not-an-address')).toBe('****');
  });
});

describe.each(targets)('recovery ($name)', (target) => {
  const h = useHarness(target);

  const accountRow = (id: string) =>
    h.db
      .selectFrom('accounts')
      .select(['status', 'failed_logins'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const counters = (id: string) =>
    h.db
      .selectFrom('otp_counters')
      .select(['wrong_tries', 'unentered_sends', 'locked_until'])
      .where('account_id', '=', id)
      .executeTakeFirst();
  const flows = () =>
    h.db.selectFrom('journeys').selectAll().where('kind', '=', 'recovery').orderBy('created_at').execute();

  test('identify: a known username 1200 and an HttpOnly GH_RECOVERY cookie whose hash keys the flow row', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    const r = await identify(client, 'AlexDemo1');
    expect(r.statusCode).toBe(200);
    expect(json(r).responseBaseInfo.status).toEqual({ code: 1200, message: 'User Identified' });
    const line = setCookieLine(r, 'GH_RECOVERY')!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/SameSite=Lax/);
    const token = client.cookies.get('GH_RECOVERY')!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const [flow] = await flows();
    expect(flow).toMatchObject({
      account_id: row.id,
      state: 'identified',
      token_hash: sha256(token),
    });
    expect(new Date(flow!.expires_at).getTime() - new Date(flow!.created_at).getTime()).toBe(30 * 60_000);
  });

  test('identify: an unknown username gets 1403 "The information provided is invalid" and does the same work', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'closed001', password: PASSWORD, status: 'disabled' });
    for (const name of ['nobody0001', 'closed001']) {
      const client = new Client(app);
      const r = await identify(client, name);
      const body = expectFailureEnvelope(r, 200, 1403);
      expect(body.responseBaseInfo.status.message).toBe(
        'The information provided is invalid. Please try again.',
      );
      // A flow row and a cookie as for a known name; the flow goes nowhere.
      expect(setCookieLine(r, 'GH_RECOVERY')).toMatch(/HttpOnly/);
      expectFailureEnvelope(await attributes(client), 401, 4401);
      expectFailureEnvelope(await sendCode(client, 'n****1@example.com'), 401, 4401);
    }
    expect((await flows()).map((f) => f.account_id)).toEqual([null, null]);
  });

  test('attributes: the e-mail on file masked, never the full address; phones masked too; 401 without a flow', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await ctx.credentials.add({
      accountId: row.id,
      ...contactCredential({ kind: 'phone', value: '2025550143', countryCode: '1', voice: true }),
      createdAt: new Date(0),
    });
    expectFailureEnvelope(await attributes(new Client(app)), 401, 4401);

    const client = new Client(app);
    await identify(client, 'alexdemo1');
    const r = await attributes(client);
    expect(r.statusCode).toBe(200);
    expect(json(r).successData).toEqual({
      email: [{ type: 'EMAIL', value: 'a****1@example.com', label: 'a****1@example.com', enable: true }],
    });
    expect(r.body).not.toContain('alexdemo1@');

    const both = await attributes(client, 'email,phone');
    expect(json(both).successData).toEqual({
      email: [{ type: 'EMAIL', value: 'a****1@example.com', label: 'a****1@example.com', enable: true }],
      phone: [
        { type: 'TEXT', value: '******0143', label: '******0143', countryCode: '1', enable: true },
        { type: 'VOICE', value: '******0143', label: '******0143', countryCode: '1', enable: true },
      ],
    });
    expect(both.body).not.toContain('2025550143');
    expectFailureEnvelope(await client.get(`${api(paths.identityAttributes)}?attributes=address`), 400, 4400);
  });

  test('send: the code goes to the full address on file (outbox), stored only as an HMAC; an address not on file gets nothing', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await identify(client, 'alexdemo1');

    // An address the client makes up is never written to.
    const other = await sendCode(client, 'attacker@evil.example');
    expect(expectFailureEnvelope(other, 200, 1403).responseBaseInfo.status.message).toBe(
      'The information provided is invalid. Please try again.',
    );
    expect(await ctx.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
    // Nor does the real address work when typed in full: a guess cannot be confirmed this way.
    expect(code(await sendCode(client, 'alexdemo1@example.com'))).toBe(1403);
    expect(await ctx.db.selectFrom('outbox').selectAll().execute()).toEqual([]);

    const masked = await maskedEmail(client);
    const sent = await sendCode(client, masked);
    expect(json(sent).responseBaseInfo.status).toEqual({
      code: 1200,
      message:
        'A validation code has been emailed to you. It may take up to 3-4 minutes to receive this code. Please use this code to continue.',
    });
    const [message] = await ctx.db.selectFrom('outbox').selectAll().execute();
    expect(message).toMatchObject({ channel: 'email', recipient: 'alexdemo1@example.com' });
    expect(message!.code).toMatch(/^\d{6}$/);
    expect(message!.text).toContain(message!.code!);
    expect(message!.text).toContain('Prime Portal');
    expect(message!.text).toContain('30 minutes');

    const [stored] = await ctx.db.selectFrom('otp_codes').selectAll().execute();
    expect(stored).toMatchObject({
      account_id: row.id,
      channel: 'email',
      recipient: 'alexdemo1@example.com',
    });
    expect(stored!.code_hash).not.toContain(message!.code!);
    expect(stored!.code_hash.length).toBeGreaterThanOrEqual(43);
    expect(new Date(stored!.expires_at).getTime() - new Date(stored!.created_at).getTime()).toBe(30 * 60_000);

    // The development outbox shows it over HTTP.
    const outbox = await client.get(`${api(paths.devOutbox)}?to=alexdemo1@example.com`);
    expect(outbox.json().messages[0]).toMatchObject({ channel: 'email', code: message!.code });
  });

  test('check: wrong 1428 with the spec message; right 1200 and the flow is confirmed; the code works once', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const { client } = await atCodeStep(app, 'alexdemo1');
    const right = await latestCode(ctx.db, 'alexdemo1@example.com');

    const wrong = await checkCode(client, wrongCode(right));
    expect(expectFailureEnvelope(wrong, 200, 1428).responseBaseInfo.status.message).toBe(invalidCode);
    expect((await counters(row.id))?.wrong_tries).toBe(1);

    const ok = await checkCode(client, right);
    expect(json(ok).responseBaseInfo.status.code).toBe(1200);
    expect((await flows())[0]).toMatchObject({ state: 'confirmed' });
    // A correct code clears the counts.
    expect(await counters(row.id)).toEqual({ wrong_tries: 0, unentered_sends: 0, locked_until: null });

    expect(code(await checkCode(client, right))).toBe(1428);
    expectFailureEnvelope(await checkCode(client, '12345'), 400, 4400);
  });

  test('the same code submitted 8 times at once succeeds exactly once, and the others are not counted as wrong', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const { client } = await atCodeStep(app, 'alexdemo1');
    const right = await latestCode(ctx.db, 'alexdemo1@example.com');
    const results = await Promise.all(Array.from({ length: 8 }, () => checkCode(client, right)));
    const codes = results.map(code).sort();
    expect(codes).toEqual([1200, 1428, 1428, 1428, 1428, 1428, 1428, 1428]);
    const [stored] = await ctx.db.selectFrom('otp_codes').select('used_at').execute();
    expect(stored!.used_at).not.toBeNull();
    expect((await counters(row.id))?.wrong_tries ?? 0).toBe(0);
    expect((await accountRow(row.id)).status).toBe('active');
  });

  test('a resend replaces the earlier code; a code expires after 30 minutes', async () => {
    const { app, ctx } = await h.start({ RECOVERY_FLOW_MINUTES: '90' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const { client, masked } = await atCodeStep(app, 'alexdemo1');
    const first = await latestCode(ctx.db, 'alexdemo1@example.com');
    expect(code(await sendCode(client, masked))).toBe(1200);
    const second = await latestCode(ctx.db, 'alexdemo1@example.com');
    if (first !== second) expect(code(await checkCode(client, first))).toBe(1428);

    h.clock.advance(30 * 60_000 + 1000);
    expect(code(await checkCode(client, second))).toBe(1428);

    expect(code(await sendCode(client, masked))).toBe(1200);
    h.clock.advance(29 * 60_000);
    expect(code(await checkCode(client, await latestCode(ctx.db, 'alexdemo1@example.com')))).toBe(1200);
  });

  test('wrong tries count per account across resends: the 5th wrong code ends the flow with 1491 and locks recovery, not the account', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const signedIn = new Client(app);
    await signedIn.signIn('alexdemo1', PASSWORD);
    const { client, masked } = await atCodeStep(app, 'alexdemo1');
    let right = await latestCode(ctx.db, 'alexdemo1@example.com');
    for (let i = 0; i < 3; i++) expect(code(await checkCode(client, wrongCode(right)))).toBe(1428);
    // A resend, and even a new flow, keeps the count.
    expect(code(await sendCode(client, masked))).toBe(1200);
    const again = new Client(app);
    await atCodeStep(app, 'alexdemo1', again);
    right = await latestCode(ctx.db, 'alexdemo1@example.com');
    expect(code(await checkCode(again, wrongCode(right)))).toBe(1428);
    expect((await counters(row.id))?.wrong_tries).toBe(4);

    const last = await checkCode(again, wrongCode(right));
    expect(expectFailureEnvelope(last, 200, 1491).responseBaseInfo.status.message).toBe(supportMessage);
    // The recovery channel is locked; the account, its sessions and its sign-in are not.
    expect((await accountRow(row.id)).status).toBe('active');
    expect((await counters(row.id))?.locked_until).toBeTruthy();
    expectFailureEnvelope(await checkCode(again, right), 401, 4401);
    expect((await signedIn.session()).statusCode).toBe(200);
    expect(code(await new Client(app).signInPassword('alexdemo1', PASSWORD))).toBe(1200);
    // The owner is told, with no code in the message.
    const notices = await ctx.db
      .selectFrom('outbox')
      .selectAll()
      .where('recipient', '=', 'alexdemo1@example.com')
      .where('code', 'is', null)
      .execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/Recovery by e-mail is paused/);
    // A new flow cannot send while the lock lasts (RECOVERY_LOCK_MINUTES, a day), and can after.
    const later = new Client(app);
    await identify(later, 'alexdemo1');
    expect(json(await sendCode(later, masked)).responseBaseInfo.status).toEqual({
      code: 1491,
      message: supportMessage,
    });
    h.clock.advance(24 * 60 * 60_000 + 1000);
    const next = new Client(app);
    await identify(next, 'alexdemo1');
    expect(code(await sendCode(next, masked))).toBe(1200);
  });

  test('the wrong-try count survives a restart: a new instance on the same database continues it', async () => {
    const first = await h.start();
    const row = await createAccount(first.ctx, { username: 'alexdemo1', password: PASSWORD });
    const { client } = await atCodeStep(first.app, 'alexdemo1');
    const right = await latestCode(h.db, 'alexdemo1@example.com');
    for (let i = 0; i < 4; i++) expect(code(await checkCode(client, wrongCode(right)))).toBe(1428);
    await first.app.close();

    const second = await h.start({}, { db: await h.another() });
    const resumed = new Client(second.app);
    for (const [name, value] of client.cookies) resumed.cookies.set(name, value);
    const r = await checkCode(resumed, wrongCode(right));
    expect(json(r).responseBaseInfo.status).toEqual({ code: 1491, message: supportMessage });
    expect((await accountRow(row.id)).status).toBe('active');
    expect((await counters(row.id))?.locked_until).toBeTruthy();
  });

  test('3 sends without entry: the 4th send answers 1491 with SUPPORT_EMAIL and locks recovery, not the account', async () => {
    const { app, ctx } = await h.start({ SUPPORT_EMAIL: 'help@bank.example' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const { client, masked } = await atCodeStep(app, 'alexdemo1');
    expect(code(await sendCode(client, masked))).toBe(1200);
    expect(code(await sendCode(client, masked))).toBe(1200);
    expect((await counters(row.id))?.unentered_sends).toBe(3);
    expect((await accountRow(row.id)).status).toBe('active');

    const fourth = await sendCode(client, masked);
    expect(expectFailureEnvelope(fourth, 200, 1491).responseBaseInfo.status.message).toBe(
      'Please contact help@bank.example for assistance (status code 1491).',
    );
    expect((await accountRow(row.id)).status).toBe('active');
    // Three codes and the owner's notice.
    expect(
      await ctx.db.selectFrom('outbox').select('id').where('code', 'is not', null).execute(),
    ).toHaveLength(3);
    expect(await ctx.db.selectFrom('outbox').select('id').where('code', 'is', null).execute()).toHaveLength(
      1,
    );
    expect(client.cookies.has('GH_RECOVERY')).toBe(false);
  });

  test('a correct code resets the sends: 2 sends, the code, then 3 more sends are allowed and the 4th locks recovery', async () => {
    const { app, ctx } = await h.start({ OTP_SEND_ACCOUNT_MAX: '20' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const { client, masked } = await atCodeStep(app, 'alexdemo1');
    expect(code(await sendCode(client, masked))).toBe(1200);
    expect(code(await checkCode(client, await latestCode(ctx.db, 'alexdemo1@example.com')))).toBe(1200);
    const next = new Client(app);
    await atCodeStep(app, 'alexdemo1', next);
    expect(code(await sendCode(next, masked))).toBe(1200);
    expect(code(await sendCode(next, masked))).toBe(1200);
    expect((await accountRow(row.id)).status).toBe('active');
    expect(code(await sendCode(next, masked))).toBe(1491);
    expect((await accountRow(row.id)).status).toBe('active');
    expect((await counters(row.id))?.locked_until).toBeTruthy();
  });

  test('a locked account can recover (sends work); a blocked one gets 1491 and no mail', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'locked001', password: PASSWORD, status: 'locked' });
    await createAccount(ctx, { username: 'blocked01', password: PASSWORD, status: 'blocked' });
    await atCodeStep(app, 'locked001');
    const client = new Client(app);
    expect(code(await identify(client, 'blocked01'))).toBe(1200);
    const r = await sendCode(client, await maskedEmail(client));
    expect(json(r).responseBaseInfo.status).toEqual({ code: 1491, message: supportMessage });
    expect(
      await ctx.db
        .selectFrom('outbox')
        .select('id')
        .where('recipient', '=', 'blocked01@example.com')
        .execute(),
    ).toEqual([]);
  });

  test('identify is rate limited per client address and per username, known or not: 429 with Retry-After', async () => {
    const { app, ctx } = await h.start({
      RECOVERY_IDENTIFY_CLIENT_MAX: '3',
      RECOVERY_IDENTIFY_ACCOUNT_MAX: '2',
      RECOVERY_IDENTIFY_WINDOW_SECONDS: '600',
    });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const one = new Client(app, { remoteAddress: '198.51.100.1' });
    expect(code(await identify(one, 'alexdemo1'))).toBe(1200);
    expect(code(await identify(one, 'nobody0001'))).toBe(1403);
    expect(code(await identify(one, 'nobody0002'))).toBe(1403);
    const limited = await identify(one, 'nobody0003');
    expectFailureEnvelope(limited, 429, 4429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600);

    // Per username, from any address: alexdemo1 has had one attempt; nobody0001 too.
    const two = new Client(app, { remoteAddress: '198.51.100.2' });
    expect(code(await identify(two, 'ALEXDEMO1'))).toBe(1200);
    expectFailureEnvelope(
      await identify(new Client(app, { remoteAddress: '198.51.100.3' }), 'alexdemo1'),
      429,
      4429,
    );
    expect(code(await identify(new Client(app, { remoteAddress: '198.51.100.4' }), 'nobody0001'))).toBe(1403);
    expectFailureEnvelope(
      await identify(new Client(app, { remoteAddress: '198.51.100.5' }), 'nobody0001'),
      429,
      4429,
    );

    // The window passes.
    h.clock.advance(600_000);
    expect(code(await identify(one, 'alexdemo1'))).toBe(1200);
  });

  test('sends are rate limited per client address and per account: 429 with Retry-After, and a 429 is not a send', async () => {
    const { app, ctx } = await h.start({ OTP_SEND_CLIENT_MAX: '2', OTP_SEND_ACCOUNT_MAX: '3' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'otheruser1', password: PASSWORD });
    const one = new Client(app, { remoteAddress: '198.51.100.1' });
    const { masked } = await atCodeStep(app, 'alexdemo1', one);
    expect(code(await sendCode(one, masked))).toBe(1200);
    const limited = await sendCode(one, masked);
    expectFailureEnvelope(limited, 429, 4429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await counters(row.id))?.unentered_sends).toBe(2);

    // The account's third send from another address passes; its fourth is over the account limit
    // even from a fresh address (and the send-without-entry block is not reached).
    const two = new Client(app, { remoteAddress: '198.51.100.2' });
    await atCodeStep(app, 'alexdemo1', two);
    const three = new Client(app, { remoteAddress: '198.51.100.3' });
    await identify(three, 'alexdemo1');
    expectFailureEnvelope(await sendCode(three, masked), 429, 4429);
    expect((await accountRow(row.id)).status).toBe('active');
    // Another account from the third address is not limited.
    const other = new Client(app, { remoteAddress: '198.51.100.3' });
    await atCodeStep(app, 'otheruser1', other);
  });

  test("a branch behind one address: 25 customers recover by e-mail code in one quarter hour with the default limits, and the address's limits still hold", async () => {
    const { app, ctx } = await h.start();
    const branch = { remoteAddress: '203.0.113.40' };
    const customers = Array.from({ length: 25 }, (_, i) => `branch${String(i).padStart(4, '0')}`);
    for (const username of customers) await createAccount(ctx, { username, password: PASSWORD });
    for (const username of customers) {
      const client = new Client(app, branch);
      await atCodeStep(app, username, client);
      expect(
        code(await checkCode(client, await latestCode(ctx.db, `${username}@example.com`))),
        username,
      ).toBe(1200);
    }
    // Past 60 recoveries started from the address in the window: 429, whoever asks.
    for (let i = 25; i < 60; i++)
      await identify(new Client(app, branch), `nobody${String(i).padStart(4, '0')}`);
    expectFailureEnvelope(await identify(new Client(app, branch), 'branch0000'), 429, 4429);
  });

  test('recovery code checks are limited per client address (RECOVERY_CHECK_CLIENT_MAX), across flows: 429, the code not compared', async () => {
    const { app, ctx } = await h.start({ RECOVERY_CHECK_CLIENT_MAX: '3' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'otheruser1', password: PASSWORD });
    const office = { remoteAddress: '203.0.113.41' };
    const first = (await atCodeStep(app, 'alexdemo1', new Client(app, office))).client;
    const second = (await atCodeStep(app, 'otheruser1', new Client(app, office))).client;
    expectFailureEnvelope(await checkCode(first, '000000'), 200, 1428);
    expectFailureEnvelope(await checkCode(second, '000000'), 200, 1428);
    expectFailureEnvelope(await checkCode(first, '000000'), 200, 1428);
    const right = await latestCode(ctx.db, 'otheruser1@example.com');
    expectFailureEnvelope(await checkCode(second, right), 429, 4429);
    // Another address is not limited by this one's checks.
    const elsewhere = (
      await atCodeStep(app, 'otheruser1', new Client(app, { remoteAddress: '198.51.100.9' }))
    ).client;
    expect(code(await checkCode(elsewhere, await latestCode(ctx.db, 'otheruser1@example.com')))).toBe(1200);
  });

  test('a login transaction (expired password) goes straight to the e-mail step: attributes, send and check use its session', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'expired01', password: PASSWORD, passwordState: 'expired' });
    const client = new Client(app);
    expect(code(await client.signInPassword('expired01', PASSWORD))).toBe(1205);
    const masked = await maskedEmail(client);
    expect(masked).toBe('e****1@example.com');
    expect(code(await sendCode(client, masked))).toBe(1200);
    expect(client.cookies.has('GH_RECOVERY')).toBe(true);
    expect(code(await checkCode(client, await latestCode(ctx.db, 'expired01@example.com')))).toBe(1200);
    expect(code(await passwordStatus(client))).toBe(1205);
  });

  test('CSRF is required on identify, send and check', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    expectFailureEnvelope(
      await client.request({
        method: 'POST',
        url: api(paths.identifyUsername),
        body: { username: 'alexdemo1' },
        csrf: false,
      }),
      403,
      4403,
    );
    await atCodeStep(app, 'alexdemo1', client);
    expectFailureEnvelope(
      await client.request({
        method: 'PUT',
        url: api(paths.otpEmail),
        body: { securityCode: '123456' },
        csrf: false,
      }),
      403,
      4403,
    );
  });
});

/**
 * Portal spec §4 steps 0-6 (issue 26 section 1; docs/decisions/043-recovery-channels.md): recovery
 * by text, voice call and the representative's code, beside e-mail, on one count and one lock.
 */
describe.each(targets)('recovery by the spec channels ($name)', (target) => {
  const h = useHarness(target);
  const PHONE = '+12025550143';
  const RECENT = '+12025550178';

  /** An account with its e-mail, an established phone that takes calls, and a phone added just now. */
  async function phoneAccount(ctx: Context, username: string) {
    const row = await createAccount(ctx, { username, password: PASSWORD });
    await ctx.credentials.add({
      accountId: row.id,
      ...contactCredential({ kind: 'phone', value: '2025550143', countryCode: '1', voice: true }),
      createdAt: new Date(0),
    });
    await ctx.credentials.add({
      accountId: row.id,
      ...contactCredential({ kind: 'phone', value: '2025550178', countryCode: '1', voice: true }),
      createdAt: ctx.clock.now(),
    });
    return row;
  }
  const outbox = (to: string) =>
    h.db
      .selectFrom('outbox')
      .select(['channel', 'text', 'code'])
      .where('recipient', '=', to)
      .orderBy('sent_at')
      .execute();
  const message = (r: Parameters<typeof json>[0]) => json(r).responseBaseInfo.status.message;

  test('by text and by voice: the established phone only (masked), never the recent one; the code confirms; the e-mail is told', async () => {
    const { app, ctx } = await h.start({ OTP_SEND_ACCOUNT_MAX: '20' });
    await phoneAccount(ctx, 'phonerec1');
    for (const [delivery, channel] of [
      ['TEXT', 'sms'],
      ['CALL', 'voice'],
    ] as const) {
      const client = new Client(app);
      expect(code(await identify(client, 'phonerec1'))).toBe(1200);
      const offered = json<{ deliveries: string[]; phone: Array<{ type: string; value: string }> }>(
        await attributes(client, 'phone,deliveries'),
      ).successData!;
      expect(offered.deliveries).toEqual(['EMAIL', 'TEXT', 'CALL', 'REP']);
      // The recent phone (added now, CONTACT_WAIT_DAYS not passed) is neither offered nor reachable.
      expect(offered.phone.map((p) => p.value)).toEqual(['******0143', '******0143']);
      expectFailureEnvelope(await sendBy(client, delivery, '******0178'), 200, 1403);
      expectFailureEnvelope(await sendBy(client, delivery, PHONE), 200, 1403);
      const sent = await sendBy(client, delivery, '******0143');
      expect(code(sent)).toBe(1200);
      expect(message(sent)).toMatch(delivery === 'TEXT' ? /^We sent the code to/ : /^We're calling/);
      const messages = await outbox(PHONE);
      const last = messages.at(-1)!;
      expect(last.channel).toBe(channel);
      expect(await outbox(RECENT)).toEqual([]);
      // The other established contact, the e-mail on file, hears of it (no code in it).
      const notices = await outbox('phonerec1@example.com');
      expect(notices.at(-1)).toMatchObject({ code: null });
      expect(notices.at(-1)!.text).toContain('a one-time code was sent to another of your phone numbers');
      // A code of another delivery option is not this one.
      expectFailureEnvelope(await checkBy(client, 'EMAIL', last.code!), 200, 1428);
      expectFailureEnvelope(await checkBy(client, delivery, wrongCode(last.code!)), 200, 1428);
      const confirmed = await checkBy(client, delivery, last.code!);
      expect(code(confirmed)).toBe(1200);
      expect(code(await passwordStatus(client))).toBe(1200);
    }
  });

  test('one count for every channel: the 4th send without entry, whatever its channel, locks recovery (1491) and the owner is told', async () => {
    const { app, ctx } = await h.start({ OTP_SEND_ACCOUNT_MAX: '20' });
    await phoneAccount(ctx, 'phonerec2');
    const client = new Client(app);
    await identify(client, 'phonerec2');
    expect(code(await sendBy(client, 'TEXT', '******0143'))).toBe(1200);
    expect(code(await sendBy(client, 'CALL', '******0143'))).toBe(1200);
    expect(code(await sendBy(client, 'EMAIL', 'p****2@example.com'))).toBe(1200);
    const fourth = await sendBy(client, 'TEXT', '******0143');
    expectFailureEnvelope(fourth, 200, 1491);
    expect(message(fourth)).toBe(supportMessage);
    // Locked: a new flow is refused on every channel, and the codes sent stop working.
    const again = new Client(app);
    await identify(again, 'phonerec2');
    expectFailureEnvelope(await sendBy(again, 'CALL', '******0143'), 200, 1491);
    expectFailureEnvelope(await sendCode(again, 'p****2@example.com'), 200, 1491);
    const texts = (await outbox(PHONE)).filter((m) => m.channel === 'sms' && m.code);
    expect(texts).toHaveLength(1);
    expect(
      (await outbox('phonerec2@example.com')).some((m) =>
        m.text.includes('Someone asked for too many one-time codes'),
      ),
    ).toBe(true);
  });

  test('one count of wrong codes: OTP_MAX_WRONG_TRIES across text and e-mail lock recovery; a burst of 100 wrong codes compares at most the limit', async () => {
    const { app, ctx } = await h.start();
    const row = await phoneAccount(ctx, 'phonerec3');
    const client = new Client(app);
    await identify(client, 'phonerec3');
    expect(code(await sendBy(client, 'TEXT', '******0143'))).toBe(1200);
    expect(code(await sendBy(client, 'EMAIL', 'p****3@example.com'))).toBe(1200);
    const text = (await outbox(PHONE)).at(-1)!.code!;
    const mail = await latestCode(h.db, 'phonerec3@example.com');
    const wrong = ['000000', '111111'].find((c) => c !== text && c !== mail)!;
    expectFailureEnvelope(await checkBy(client, 'EMAIL', wrong), 200, 1428);
    expectFailureEnvelope(await checkBy(client, 'TEXT', wrong), 200, 1428);
    const burst = await Promise.all(Array.from({ length: 100 }, () => checkBy(client, 'TEXT', wrong)));
    expect(burst.filter((r) => code(r) === 1491).length).toBeGreaterThanOrEqual(1);
    const row2 = await h.db
      .selectFrom('otp_counters')
      .select(['wrong_tries', 'locked_until'])
      .where('account_id', '=', row.id)
      .where('channel', '=', 'email')
      .executeTakeFirstOrThrow();
    expect(row2.wrong_tries).toBe(5);
    expect(row2.locked_until).not.toBeNull();
    const fresh = new Client(app);
    await identify(fresh, 'phonerec3');
    expectFailureEnvelope(await sendBy(fresh, 'TEXT', '******0143'), 200, 1491);
  });

  test('RECOVERY_CHANNELS: an option left out is not offered and is refused (1403) on send and check', async () => {
    const { app, ctx } = await h.start({ RECOVERY_CHANNELS: 'email,rep' });
    await phoneAccount(ctx, 'phonerec4');
    const client = new Client(app);
    await identify(client, 'phonerec4');
    const offered = json<{ deliveries: string[] }>(await attributes(client, 'email,phone,deliveries'));
    expect(offered.successData!.deliveries).toEqual(['EMAIL', 'REP']);
    const refused = await sendBy(client, 'TEXT', '******0143');
    expectFailureEnvelope(refused, 200, 1403);
    expect(message(refused)).toBe(
      'This way of recovering your account is not offered. Please choose another.',
    );
    expectFailureEnvelope(await sendBy(client, 'CALL', '******0143'), 200, 1403);
    expectFailureEnvelope(await checkBy(client, 'TEXT', '123456'), 200, 1403);
    expect(await outbox(PHONE)).toEqual([]);
  });

  test("REP: the representative's recovery code confirms the flow once; a sign-in code does not; without a live one nothing is counted", async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'reprecov1', password: PASSWORD });
    const rita = await addStaff(ctx, 'rita.rep', 'representative');
    const staffClient = new ConsoleClient(app);
    expect(code(await staffClient.signInPassword('rita.rep'))).toBe(1200);
    expect(code(await staffClient.factor(staffCode(h, rita)))).toBe(1200);

    const client = new Client(app);
    await identify(client, 'reprecov1');
    // No recovery code issued: refused uncounted.
    for (let i = 0; i < 6; i++) expectFailureEnvelope(await checkBy(client, 'REP', '123456'), 200, 1428);
    const signIn = json<{ code: string }>(await staffClient.issue('reprecov1')).successData!.code;
    expectFailureEnvelope(await checkBy(client, 'REP', signIn), 200, 1428);
    const issued = await staffClient.issue('reprecov1', 'Called back on the number on file', 'recovery');
    expect(code(issued)).toBe(1200);
    const recovery = json<{ code: string }>(issued).successData!.code;
    const [first, second] = await Promise.all([
      checkBy(client, 'REP', recovery),
      checkBy(client, 'REP', recovery),
    ]);
    expect([code(first), code(second)].sort()).toEqual([1200, 1428]);
    expect(code(await passwordStatus(client))).toBe(1200);
    // The recovery code never signs in; the sign-in code still does (its own purpose).
    const stored = await h.db
      .selectFrom('rep_codes')
      .select(['purpose', 'used_at'])
      .where('account_id', '=', row.id)
      .orderBy('created_at')
      .execute();
    expect(stored.map((r) => [r.purpose, r.used_at !== null])).toEqual([
      ['factor', false],
      ['recovery', true],
    ]);
    const audit = await h.db
      .selectFrom('audit_events')
      .select('detail')
      .where('event', '=', 'rep-code-issued')
      .where('account_id', '=', row.id)
      .execute();
    expect(audit.map((a) => (a.detail as { purpose?: string }).purpose)).toEqual(['factor', 'recovery']);
  });
});
