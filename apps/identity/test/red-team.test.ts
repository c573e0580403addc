import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import {
  atFactor,
  check,
  contacts,
  DAY,
  demoContacts,
  factorAccount,
  latestMessage,
  PASSWORD,
  sendEmail,
  sendSms,
  trustDevice,
} from './support/factors.ts';
import {
  api,
  Client,
  code,
  createAccount,
  json,
  productionMail,
  productionSecret,
  targets,
  useHarness,
} from './support/harness.ts';
import {
  attributes,
  checkCode,
  identify,
  latestCode,
  maskedEmail,
  postPassword,
  putPassword,
  sendCode,
  wrongCode,
} from './support/recovery.ts';

/**
 * The findings of the red-team review (issue 8), each reproduced as the attacker did it and held to
 * what must be true instead. Every test here failed on the code before the fix.
 */

const NUMBER = '+12025550143';
/** Limits high enough that the atomic try count, not the rate limit, is what holds a burst. */
const NO_CHECK_LIMIT = {
  CODE_CHECK_SESSION_MAX: '10000',
  CODE_CHECK_ACCOUNT_MAX: '10000',
  RECOVERY_CHECK_CLIENT_MAX: '10000',
};

describe.each(targets)('red team: bursts against the try counts ($name)', (target) => {
  const h = useHarness(target);

  test('200 concurrent wrong text codes with the right one inside and after: at most 5 compared, never signed in', async () => {
    const { app, ctx } = await h.start(NO_CHECK_LIMIT);
    const account = await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;

    const burst = Array.from({ length: 200 }, (_, i) =>
      check(client, 'sms', i === 150 ? right : wrongCode(right)),
    );
    const answers = (await Promise.all(burst)).map(code);
    expect(answers).not.toContain(1200);
    // Wrong (or not compared: no try left), limit reached, or the transaction already ended.
    expect(new Set(answers)).toEqual(new Set(answers.filter((c) => [1428, 1491, 4401].includes(c))));
    // Only tries that reserved a place were compared, and each compared wrong code is counted:
    // the count is the number compared.
    const counters = await ctx.db
      .selectFrom('otp_counters')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(counters.wrong_tries).toBe(5);
    // The right code after the burst: the channel is locked (and the login transaction ended).
    expect(code(await check(client, 'sms', right))).not.toBe(1200);
    expect(code(await client.sessionLogin())).not.toBe(1200);
  });

  test('code checks are rate limited per login transaction: 429 with Retry-After', async () => {
    const { app, ctx } = await h.start({ CODE_CHECK_SESSION_MAX: '3' });
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    for (let i = 0; i < 3; i++) expect(code(await check(client, 'sms', wrongCode(right)))).toBe(1428);
    const limited = await check(client, 'sms', right);
    expect(limited.statusCode).toBe(429);
    expect(code(limited)).toBe(4429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('recovery: 200 concurrent wrong codes and the right one: at most 5 compared, the right one refused, recovery locked', async () => {
    const { app, ctx } = await h.start(NO_CHECK_LIMIT);
    const account = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    expect(code(await identify(client, 'alexdemo1'))).toBe(1200);
    expect(code(await sendCode(client, await maskedEmail(client)))).toBe(1200);
    const right = await latestCode(ctx.db, 'alexdemo1@example.com');
    const answers = (
      await Promise.all(
        Array.from({ length: 201 }, (_, i) => checkCode(client, i === 200 ? right : wrongCode(right))),
      )
    ).map(code);
    expect(answers).not.toContain(1200);
    expect(new Set(answers)).toEqual(new Set(answers.filter((c) => [1428, 1491, 4401].includes(c))));
    const flow = await ctx.db
      .selectFrom('journeys')
      .selectAll()
      .where('kind', '=', 'recovery')
      .executeTakeFirstOrThrow();
    // Never confirmed.
    expect(['confirmed', 'consumed']).not.toContain(flow.state);
    // Recovery is locked; the owner still signs in.
    const counters = await ctx.db
      .selectFrom('otp_counters')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(counters.locked_until).toBeTruthy();
    // Exactly the limit of wrong codes was compared (the count stays while the lock lasts).
    expect(counters.wrong_tries).toBe(5);
    // One lock, one notice to the owner.
    const notices = await ctx.db.selectFrom('outbox').select('id').where('code', 'is', null).execute();
    expect(notices).toHaveLength(1);
    expect(code(await new Client(app).signInPassword('alexdemo1', PASSWORD))).toBe(1200);
  });

  test('a burst of passwords that locks the account: the right one inside it does not sign in', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '6' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    // The burst is in flight when the right password joins it, once the attempt that reaches the
    // lockout has been decided (the order a test can rely on: which concurrent request takes the
    // account's row first is the database's choice, so an index alone does not place it "inside").
    const attempt = (i: number) =>
      new Client(app).signInPassword('alexdemo1', i === 20 ? PASSWORD : 'Wrong9Password');
    const first = Array.from({ length: 20 }, (_, i) => attempt(i));
    const locked = async () =>
      (await ctx.db.selectFrom('accounts').select('status').executeTakeFirstOrThrow()).status === 'locked';
    for (let waited = 0; !(await locked()) && waited < 200; waited++) {
      // wait: polls the account row until the burst has locked it (what the database shows), 25 ms apart
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const rest = Array.from({ length: 10 }, (_, i) => attempt(20 + i));
    const answers = (await Promise.all([...first, ...rest])).map(code);
    expect(answers[20]).not.toBe(1200);
    // It is compared (the test's rate limits are high) and answers as the lockout.
    expect(answers[20]).toBe(1203);
    expect(answers.filter((c) => c === 1200)).toEqual([]);
    const row = await ctx.db
      .selectFrom('accounts')
      .select(['status', 'failed_logins'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'locked', failed_logins: 6 });
  });
});

describe.each(targets)('red team: what a stranger can do to an account ($name)', (target) => {
  const h = useHarness(target);

  test("a stranger's six requests (identify, attributes, four sends) leave the owner able to sign in", async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const stranger = new Client(app, { remoteAddress: '198.51.100.66' });
    expect(code(await identify(stranger, 'alexdemo1'))).toBe(1200);
    expect(code(await attributes(stranger))).toBe(1200);
    const masked = await maskedEmail(stranger);
    const sends = [];
    for (let i = 0; i < 4; i++) sends.push(code(await sendCode(stranger, masked)));
    expect(sends).toEqual([1200, 1200, 1200, 1491]);

    // The owner's password still signs in: the account is not blocked.
    const owner = new Client(app);
    expect(code(await owner.signInPassword('alexdemo1', PASSWORD))).toBe(1200);
    expect(code(await owner.sessionLogin())).toBe(1200);
    const account = await ctx.db.selectFrom('accounts').select('status').executeTakeFirstOrThrow();
    expect(account.status).toBe('active');
    // The owner was told by e-mail, with no code in it.
    const notice = await latestMessage(ctx.db, 'alexdemo1@example.com');
    expect(notice.code).toBeNull();
    expect(notice.text).toMatch(/Recovery by e-mail is paused/);
  });

  test('wrong recovery codes with no code ever sent count nothing and lock nothing', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const stranger = new Client(app);
    expect(code(await identify(stranger, 'alexdemo1'))).toBe(1200);
    for (let i = 0; i < 8; i++) expect(code(await checkCode(stranger, '123456'))).toBe(1428);
    const counters = await ctx.db
      .selectFrom('otp_counters')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirst();
    expect(counters?.wrong_tries ?? 0).toBe(0);
    // The owner's own recovery works.
    const owner = new Client(app);
    expect(code(await identify(owner, 'alexdemo1'))).toBe(1200);
    expect(code(await sendCode(owner, await maskedEmail(owner)))).toBe(1200);
    expect(code(await checkCode(owner, await latestCode(ctx.db, 'alexdemo1@example.com')))).toBe(1200);
  });
});

describe.each(targets)('red team: the e-mail code path and the journey it belongs to ($name)', (target) => {
  const h = useHarness(target);

  test("'Forgot username?' then back to sign in: the e-mail second factor sends and verifies", async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'emailonly1', { emails: [{ value: 'emailonly1@example.com' }] });
    const client = new Client(app);
    expect(code(await identify(client, 'emailonly1'))).toBe(1200);
    expect(client.cookies.has('GH_RECOVERY')).toBe(true);
    await atFactor(app, 'emailonly1', client);
    // Signing in ended the browser's recovery flow.
    expect(client.cookies.has('GH_RECOVERY')).toBe(false);
    const email = (await contacts(client)).email[0]!;
    const sent = await sendEmail(client, email.value);
    expect(code(sent)).toBe(1200);
    const right = (await latestMessage(ctx.db, 'emailonly1@example.com')).code!;
    expect(code(await check(client, 'email', right))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
  });

  test('a recovery flow started during the login transaction: each call acts for its own journey', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'emailonly1', { emails: [{ value: 'emailonly1@example.com' }] });
    const client = await atFactor(app, 'emailonly1');
    const email = (await contacts(client)).email[0]!;
    // Recovery in the same browser: its send names the masked address and goes to the flow.
    expect(code(await identify(client, 'emailonly1'))).toBe(1200);
    expect(code(await sendCode(client, await maskedEmail(client)))).toBe(1200);
    const recoveryCode = await latestCode(ctx.db, 'emailonly1@example.com');
    expect(code(await checkCode(client, recoveryCode))).toBe(1200);
    // The factor send names the contact id and goes to the login transaction.
    expect(code(await sendEmail(client, email.value))).toBe(1200);
    const factorCode = (await latestMessage(ctx.db, 'emailonly1@example.com')).code!;
    expect(code(await check(client, 'email', factorCode))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
  });
});

describe.each(targets)('red team: CSRF whatever the spelling of the path ($name)', (target) => {
  const h = useHarness(target);

  test('/%61pi/, /API/, //api/, /api/./ without a token and from a foreign origin never act', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const victim = new Client(app);
    await victim.signIn('alexdemo1', PASSWORD);
    const before = await ctx.db.selectFrom('sessions').select('idle_expires_at').executeTakeFirstOrThrow();
    h.clock.advance(60_000);
    const cookie = [...victim.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    for (const url of [
      '/%61pi/user/session/extend',
      '/API/user/session/extend',
      '//api/user/session/extend',
      '/api/./user/session/extend',
      '/api/user/../user/session/extend',
      '/%2561pi/user/session/extend',
    ]) {
      for (const origin of ['https://evil.example', undefined]) {
        const r = await app.inject({
          method: 'POST',
          url,
          headers: { cookie, ...(origin ? { origin } : {}) },
        });
        expect([403, 404, 400], `${url} from ${origin}`).toContain(r.statusCode);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
      }
    }
    const after = await ctx.db.selectFrom('sessions').select('idle_expires_at').executeTakeFirstOrThrow();
    expect(new Date(after.idle_expires_at).getTime()).toBe(new Date(before.idle_expires_at).getTime());
  });
});

describe.each(targets)('red team: forwarded addresses ($name)', (target) => {
  const h = useHarness(target);

  test('behind one proxy, a spoofed left-most X-Forwarded-For does not change the client address', async () => {
    const { app, ctx } = await h.start({ TRUST_PROXY: '1', RATE_LIMIT_CLIENT_MAX: '3' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.inject({
        method: 'POST',
        url: api(paths.passwordAuthentication),
        remoteAddress: '10.0.0.2',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `203.0.113.${i + 10}, 198.51.100.7`,
          'x-xsrf-token': 'none',
        },
        payload: JSON.stringify({ username: 'alexdemo1', password: 'Wrong9Password' }),
      });
      answers.push(r.statusCode);
    }
    // CSRF refuses these, but the client address is what the logs show: the proxy's hop.
    const { logs } = await h.start({ TRUST_PROXY: '1' }).then(async (s) => {
      await s.app.inject({
        method: 'GET',
        url: api(paths.health),
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': '203.0.113.99, 198.51.100.7' },
      });
      return s;
    });
    expect(logs.some((l) => l.includes('"remoteAddress":"198.51.100.7"'))).toBe(true);
    expect(logs.some((l) => l.includes('203.0.113.99'))).toBe(false);
    expect(answers.every((s) => s === 403)).toBe(true);
  });

  test('the per-client limit holds against rotating spoofed addresses, and a prohibited network stays prohibited', async () => {
    const { app, ctx } = await h.start({
      TRUST_PROXY: '10.0.0.0/8',
      RATE_LIMIT_CLIENT_MAX: '3',
      PROHIBITED_NETWORKS: '198.51.100.0/24',
    });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const client = new Client(app, { remoteAddress: '10.0.0.2' });
      const r = await client.request({
        method: 'POST',
        url: api(paths.passwordAuthentication),
        body: { username: 'alexdemo1', password: 'Wrong9Password' },
        headers: { 'x-forwarded-for': `203.0.113.${i + 10}, 198.51.100.7` },
      });
      statuses.push(r.statusCode);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(3);

    const prohibited = new Client(app, { remoteAddress: '10.0.0.3' });
    const xff = { 'x-forwarded-for': '8.8.8.8, 198.51.100.9' };
    await prohibited.request({
      method: 'POST',
      url: api(paths.passwordAuthentication),
      body: { username: 'alexdemo1', password: PASSWORD },
      headers: xff,
    });
    const login = await prohibited.request({ method: 'POST', url: api(paths.sessionLogin), headers: xff });
    expect(code(login)).not.toBe(1200);
  });

  test('TRUST_PROXY=true (believe every hop) stops the start; hops and addresses are accepted', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /^Invalid setting TRUST_PROXY \(got "true"\): give the number of proxies/,
    );
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/^Invalid setting TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
    ]);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});

describe('red team: production mode refuses unsafe settings, one line each', () => {
  const safe: Record<string, string> = {
    NODE_ENV: 'production',
    SESSION_SECRET: productionSecret,
    ...productionMail,
    SMS_WEBHOOK_URL: 'https://sms-gateway.bank.example/messages',
  };
  const fails = (env: Record<string, string | undefined>) => {
    try {
      loadConfig(env);
      return 'started';
    } catch (error) {
      return (error as Error).message;
    }
  };

  test('a safe production configuration starts', () => {
    expect(fails(safe)).toBe('started');
  });

  test.each([
    [
      'the development secret',
      { SESSION_SECRET: 'development-only-secret-not-for-production-use' },
      /^Invalid setting SESSION_SECRET: is the development value/,
    ],
    ["'a' x 32", { SESSION_SECRET: 'a'.repeat(32) }, /^Invalid setting SESSION_SECRET: is too weak/],
    [
      'a repeated pattern',
      { SESSION_SECRET: 'abc123'.repeat(8) },
      /^Invalid setting SESSION_SECRET: is too weak/,
    ],
    [
      'a keyboard run',
      { SESSION_SECRET: '0123456789'.repeat(4) },
      /^Invalid setting SESSION_SECRET: is too weak/,
    ],
    ['a weak pepper', { OTP_PEPPER: 'x'.repeat(40) }, /^Invalid setting OTP_PEPPER: is too weak/],
    ['demo seeding', { SEED_DEMO: 'true' }, /^Invalid setting SEED_DEMO: cannot be true in production mode/],
    [
      'insecure cookies',
      { COOKIE_SECURE: 'false' },
      /^Invalid setting COOKIE_SECURE: cannot be false in production mode/,
    ],
    [
      'an http:// SMS webhook',
      { SMS_WEBHOOK_URL: 'http://sms-gateway.bank.example/messages' },
      /^Invalid setting SMS_WEBHOOK_URL: must be an https:\/\/ URL/,
    ],
    [
      'no DATABASE_URL',
      { DATABASE_URL: undefined },
      /^Invalid setting DATABASE_URL: is required in production mode/,
    ],
    [
      'no PUBLIC_ORIGIN',
      { PUBLIC_ORIGIN: undefined },
      /^Invalid setting PUBLIC_ORIGIN: is required in production mode/,
    ],
    [
      'an http:// PUBLIC_ORIGIN',
      { PUBLIC_ORIGIN: 'http://portal.bank.example' },
      /^Invalid setting PUBLIC_ORIGIN: must be an https:\/\/ origin/,
    ],
  ])('%s', (_name, change, message) => {
    const text = fails({ ...safe, ...change });
    expect(text).toMatch(message);
    expect(text.split('\n')).toHaveLength(1);
    // The value of a secret is never echoed.
    for (const value of Object.values(change))
      if (value && /SECRET|PEPPER/.test(text)) expect(text).not.toContain(value);
  });

  test('random secrets of 32 hex digits or base64 characters pass', () => {
    expect(fails({ ...safe, SESSION_SECRET: '582598a0d7df3a78b9de791b530b77fa' })).toBe('started');
    expect(fails({ ...safe, SESSION_SECRET: 'a8hVjBDvpiUlBVq7KGP2g8jp481l3PwX' })).toBe('started');
  });
});

describe.each(targets)('red team: a password reset and the devices that were trusted ($name)', (target) => {
  const h = useHarness(target);

  test('after a reset by recovery, a trusted device asks for the second factor again; other sessions end; the owner is told', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    // Sign in with the factor and trust this device.
    const device = await atFactor(app, 'allfactor1');
    const phone = (await contacts(device)).phone[0]!;
    expect(code(await sendSms(device, phone.value))).toBe(1200);
    expect(code(await check(device, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
    expect(code(await device.sessionLogin())).toBe(1200);
    expect(code(await trustDevice(device, true))).toBe(1200);
    // Another signed-in browser.
    const other = new Client(app);
    await other.signInPassword('allfactor1', PASSWORD);
    const again = new Client(app);
    again.cookies.set('GH_DEVICE', device.cookies.get('GH_DEVICE')!);
    expect(code(await again.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    expect(code(await again.sessionLogin())).toBe(1200);

    // Recovery and a new password, from a third browser.
    const recovery = new Client(app);
    expect(code(await identify(recovery, 'allfactor1'))).toBe(1200);
    expect(code(await sendCode(recovery, await maskedEmail(recovery)))).toBe(1200);
    expect(code(await checkCode(recovery, await latestCode(ctx.db, 'allfactor1@example.com')))).toBe(1200);
    const reset = await putPassword(recovery, { username: 'allfactor1', newPassword: 'Lantern6Bridge' });
    expect(code(reset)).toBe(1200);

    expect(await ctx.db.selectFrom('trusted_devices').selectAll().execute()).toEqual([]);
    expect((await again.session()).statusCode).toBe(401);
    const next = new Client(app);
    next.cookies.set('GH_DEVICE', device.cookies.get('GH_DEVICE')!);
    expect(code(await next.signInPassword('allfactor1', 'Lantern6Bridge'))).toBe(1200);
    expect(code(await next.sessionLogin())).toBe(1201);

    const notices = await ctx.db
      .selectFrom('outbox')
      .select(['text', 'code'])
      .where('recipient', '=', 'allfactor1@example.com')
      .where('code', 'is', null)
      .execute();
    expect(notices.map((n) => n.text.split('.')[0])).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/recover your Prime Portal account/),
        expect.stringMatching(/The password of your Prime Portal account was changed/),
      ]),
    );
    for (const n of notices) expect(n.text).not.toMatch(/Lantern6Bridge|\d{6}/);
  });

  test('a username change ends trusted devices and other sessions, and tells the owner', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await ctx.db
      .insertInto('trusted_devices')
      .values({
        account_id: account.id,
        device_key: 'k'.repeat(64),
        created_at: ctx.clock.now(),
        expires_at: new Date(ctx.clock.now().getTime() + 30 * DAY),
      })
      .execute();
    const other = new Client(app);
    await other.signIn('alexdemo1', PASSWORD);
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const r = await client.request({
      method: 'PUT',
      url: api(paths.changeUsername),
      body: { username: 'quietmoss42', password: PASSWORD },
    });
    expect(code(r)).toBe(1200);
    expect(await ctx.db.selectFrom('trusted_devices').selectAll().execute()).toEqual([]);
    expect((await other.session()).statusCode).toBe(401);
    expect((await client.session()).statusCode).toBe(200);
    const notice = await latestMessage(ctx.db, 'alexdemo1@example.com');
    expect(notice.text).toMatch(/The username of your Prime Portal account was changed/);
    expect(json(r).successData).toEqual({ username: 'quietmoss42' });
  });
});

/** The second red-team pass (after the fixes above): each of its findings, held to the fix. */
describe.each(targets)('red team, second pass ($name)', (target) => {
  const h = useHarness(target);

  test("a stranger's recovery code checks never spend the owner's code checks", async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    for (let round = 0; round < 3; round++) {
      const stranger = new Client(app, { remoteAddress: '198.51.100.66' });
      expect(code(await identify(stranger, 'allfactor1'))).toBe(1200);
      for (let i = 0; i < 10; i++) await checkCode(stranger, '000000');
    }
    const owner = await atFactor(app, 'allfactor1');
    const phone = (await contacts(owner)).phone[0]!;
    expect(code(await sendSms(owner, phone.value))).toBe(1200);
    expect(code(await check(owner, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
  });

  test('a right password first in a burst that then locks the account: its session does not outlive the lock', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '6' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const owner = new Client(app);
    await owner.get(api(paths.health));
    const burst = [
      owner.signInPassword('alexdemo1', PASSWORD).then(() => owner.sessionLogin()),
      ...Array.from({ length: 29 }, () => new Client(app).signInPassword('alexdemo1', 'Wrong9Password')),
    ];
    await Promise.all(burst);
    const row = await ctx.db
      .selectFrom('accounts')
      .select(['status', 'failed_logins'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'locked', failed_logins: 6 });
    expect((await owner.session()).statusCode).toBe(401);
  });

  test('client log collector: the recovery flow\'s username, a password-shaped word before "_", codes with separators', async () => {
    const { app, ctx, logs } = await h.start();
    await createAccount(ctx, { username: 'recoveruser', password: PASSWORD });
    const client = new Client(app);
    expect(code(await identify(client, 'recoveruser'))).toBe(1200);
    const r = await client.post(api(paths.clientLogs), {
      logs: [
        { level: 'warn', message: 'identify {"username":"recoveruser"}' },
        { level: 'warn', message: 'typed Lantern6Bridge_ then gave up' },
        { level: 'warn', message: 'codes 12 34 56 and 123-456 and ["1","2","3","4","5","6"]' },
      ],
    });
    expect(r.statusCode).toBe(204);
    const text = logs.join('\n');
    for (const leaked of ['recoveruser', 'Lantern6Bridge', '12 34 56', '123-456', '"4","5","6"']) {
      expect(text, leaked).not.toContain(leaked);
    }
  });

  test('a username change removes the saved entries of every device', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const attacker = new Client(app);
    await attacker.signInPassword('alexdemo1', PASSWORD);
    const saved = await attacker.request({
      method: 'PUT',
      url: api(paths.rememberUsername),
      body: { username: 'alexdemo1', operation: 'ADD' },
    });
    expect(code(saved)).toBe(1200);
    const owner = new Client(app);
    await owner.signIn('alexdemo1', PASSWORD);
    const changed = await owner.request({
      method: 'PUT',
      url: api(paths.changeUsername),
      body: { username: 'quietmoss42', password: PASSWORD },
    });
    expect(code(changed)).toBe(1200);
    const listed = json<{ usernames: Array<{ value: string }> }>(
      await attacker.get(api(paths.rememberUsername)),
    );
    expect(JSON.stringify(listed.successData ?? {})).not.toContain('quietmoss42');
  });

  test('a leaked password alone cannot change the password of an account with a second factor', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const body = { username: 'allfactor1', oldPassword: PASSWORD, newPassword: 'Lantern6Bridge' };
    const stranger = new Client(app);
    const refused = await postPassword(stranger, body);
    expect(refused.statusCode).toBe(401);
    expect(code(refused)).toBe(4401);
    // Even after the password step: the factor was not passed.
    await stranger.signInPassword('allfactor1', PASSWORD);
    expect((await postPassword(stranger, body)).statusCode).toBe(401);
    expect(code(await new Client(app).signInPassword('allfactor1', PASSWORD))).toBe(1200);
    // Signed in with the factor, the owner can.
    const owner = await atFactor(app, 'allfactor1');
    const phone = (await contacts(owner)).phone[0]!;
    expect(code(await sendSms(owner, phone.value))).toBe(1200);
    expect(code(await check(owner, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
    expect(code(await owner.sessionLogin())).toBe(1200);
    expect(code(await postPassword(owner, body))).toBe(1200);
  });

  test('per-address limits count an IPv6 client by its /64', async () => {
    const { app, ctx } = await h.start({ RATE_LIMIT_CLIENT_MAX: '3' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const statuses = [];
    for (let i = 1; i <= 6; i++) {
      const client = new Client(app, { remoteAddress: `2001:db8:1:2::${i.toString(16)}` });
      statuses.push((await client.signInPassword('alexdemo1', 'Wrong9Password')).statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
    // Another /64 is another client.
    const other = new Client(app, { remoteAddress: '2001:db8:1:3::1' });
    expect((await other.signInPassword('alexdemo1', 'Wrong9Password')).statusCode).toBe(200);
  });

  test('a masked address during a sign-in goes to recovery (a flow for the session account), not the factor', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'emailonly1', { emails: [{ value: 'emailonly1@example.com' }] });
    const client = await atFactor(app, 'emailonly1');
    const r = await sendCode(client, await maskedEmail(client));
    expect(code(r)).toBe(1200);
    expect(client.cookies.has('GH_RECOVERY')).toBe(true);
  });
});

describe('red team, second pass: production settings', () => {
  const safe: Record<string, string> = {
    NODE_ENV: 'production',
    SESSION_SECRET: productionSecret,
    ...productionMail,
    SMS_WEBHOOK_URL: 'https://sms-gateway.bank.example/messages',
  };
  test.each([
    [
      'the development secret with more',
      { SESSION_SECRET: 'development-only-secret-not-for-production-usex' },
      /^Invalid setting SESSION_SECRET/,
    ],
    [
      'words',
      { SESSION_SECRET: 'a-production-secret-of-at-least-32-characters' },
      /^Invalid setting SESSION_SECRET: is too weak/,
    ],
    [
      'the alphabet',
      { SESSION_SECRET: 'abcdefghijklmnopqrstuvwxyz0123456789' },
      /^Invalid setting SESSION_SECRET: is too weak/,
    ],
    [
      'a keyboard run',
      { OTP_PEPPER: 'qwertyuiopasdfghjklzxcvbnm1234567890' },
      /^Invalid setting OTP_PEPPER: is too weak/,
    ],
    [
      'a host name that starts with 127.',
      { SMS_WEBHOOK_URL: 'http://127.sms-gateway.example/send' },
      /^Invalid setting SMS_WEBHOOK_URL/,
    ],
    [
      'an http:// CORS origin',
      { CORS_ORIGINS: 'http://portal.bank.example' },
      /^Invalid setting CORS_ORIGINS: must list https:\/\/ origins/,
    ],
    [
      'an http:// allowed origin',
      { ALLOWED_ORIGINS: 'http://portal.bank.example' },
      /^Invalid setting ALLOWED_ORIGINS/,
    ],
  ])('%s is refused', (_name, change, message) => {
    expect(() => loadConfig({ ...safe, ...change })).toThrow(message);
  });

  test('TRUST_PROXY networks wider than /8 or /32 are refused (they would trust everyone)', () => {
    for (const value of ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0/0', '::/1', '10.0.0.0/7']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/^Invalid setting TRUST_PROXY/);
    }
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,2001:db8::/32' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
    ]);
  });
});
