import { describe, expect, test } from 'vitest';
import { sha256 } from '../src/lib/crypto.ts';
import {
  atFactor,
  check,
  contacts,
  DAY,
  demoContacts,
  factorAccount,
  latestMessage,
  PASSWORD,
  sendSms,
  trustDevice,
} from './support/factors.ts';
import { Client, code, expectFailureEnvelope, json, targets, useHarness } from './support/harness.ts';
import { wrongCode } from './support/recovery.ts';

const NUMBER = '+12025550143';
type App = Parameters<typeof atFactor>[0];

describe.each(targets)('trusted device ($name)', (target) => {
  const h = useHarness(target);

  async function setup(env: Record<string, string> = {}) {
    const started = await h.start(env);
    await factorAccount(started.ctx, 'allfactor1', demoContacts('allfactor1', started.ctx.clock.now()));
    return started;
  }

  /** Login transaction, text code, right code (optionally with bindDevice): signed in by the factor. */
  async function passFactor(app: App, client: Client, db: typeof h.db, bindDevice?: boolean) {
    await atFactor(app, 'allfactor1', client);
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const r = await check(client, 'sms', (await latestMessage(db, NUMBER)).code!, bindDevice);
    expect(code(r)).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
    return r;
  }

  /** A new sign-in on the same device (same GH_DEVICE cookie, nothing else). */
  const sameDevice = (app: App, client: Client) => {
    const next = new Client(app);
    next.cookies.set('GH_DEVICE', client.cookies.get('GH_DEVICE')!);
    return next;
  };

  test('bound after the factor: the next sign-in on this device skips it (1200); another device does not', async () => {
    const { app, ctx } = await setup();
    const client = new Client(app);
    await passFactor(app, client, ctx.db);
    const r = await trustDevice(client, true);
    expect(r.statusCode).toBe(200);
    const body = json<{ trusted: boolean; expiresAt: string }>(r);
    expect(body.responseBaseInfo.status).toEqual({ code: 1200, message: 'This device is trusted.' });
    expect(body.successData!.trusted).toBe(true);
    expect(new Date(body.successData!.expiresAt).getTime() - h.clock.now().getTime()).toBeGreaterThan(
      30 * DAY - 60_000,
    );
    const [row] = await ctx.db.selectFrom('trusted_devices').selectAll().execute();
    expect(row!.device_key).toBe(sha256(client.cookies.get('GH_DEVICE')!));

    const next = sameDevice(app, client);
    expect(code(await next.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    const login = await next.sessionLogin();
    expect(code(login)).toBe(1200);
    expect(json(login).successData).toMatchObject({ authenticated: true });
    const factors = await ctx.db
      .selectFrom('session_factors')
      .select('kind')
      .where('session_id', '=', sha256(next.cookies.get('ET')!))
      .orderBy('verified_at')
      .orderBy('level')
      .execute();
    expect(factors.map((f) => f.kind)).toEqual(['password', 'TRUSTED-DEVICE']);
    // A session that skipped the factor cannot extend the trust by itself.
    expectFailureEnvelope(await trustDevice(next, true), 200, 1403);

    // Another device (its own GH_DEVICE cookie) still has the factor due.
    await atFactor(app, 'allfactor1');
  });

  test('bindDevice true in the code check binds too; bindDevice false removes the binding', async () => {
    const { app, ctx } = await setup();
    const client = new Client(app);
    const r = await passFactor(app, client, ctx.db, true);
    expect(json<{ trustedDeviceExpiresAt: string }>(r).successData!.trustedDeviceExpiresAt).toMatch(
      /^\d{4}-/,
    );
    const next = sameDevice(app, client);
    await next.signInPassword('allfactor1', PASSWORD);
    expect(code(await next.sessionLogin())).toBe(1200);

    const removed = await trustDevice(next, false);
    expect(json(removed).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'This device is not trusted.',
    });
    expect(json(removed).successData).toEqual({ trusted: false });
    expect(await ctx.db.selectFrom('trusted_devices').selectAll().execute()).toEqual([]);
    await atFactor(app, 'allfactor1', sameDevice(app, client));
  });

  test('the trust ends after TRUST_DEVICE_DAYS', async () => {
    const { app, ctx } = await setup({ TRUST_DEVICE_DAYS: '2' });
    const client = new Client(app);
    await passFactor(app, client, ctx.db, true);
    h.clock.advance(DAY);
    const within = sameDevice(app, client);
    await within.signInPassword('allfactor1', PASSWORD);
    expect(code(await within.sessionLogin())).toBe(1200);
    h.clock.advance(DAY);
    await atFactor(app, 'allfactor1', sameDevice(app, client));
  });

  test('no binding without a factor passed at sign-in (password-only account), nor without a session', async () => {
    const { app, ctx } = await setup();
    await factorAccount(ctx, 'pwdonly001', {}, { secondFactor: false });
    const client = new Client(app);
    await client.signIn('pwdonly001', PASSWORD);
    const body = expectFailureEnvelope(await trustDevice(client, true), 200, 1403);
    expect(body.responseBaseInfo.status.message).toBe(
      'A device can only be trusted right after a second factor at sign-in.',
    );
    expectFailureEnvelope(await trustDevice(new Client(app), true), 401, 4401);
    // In the login transaction (factor due, not passed): 401, nothing bound.
    expectFailureEnvelope(await trustDevice(await atFactor(app, 'allfactor1'), true), 401, 4401);
    expect(await ctx.db.selectFrom('trusted_devices').selectAll().execute()).toEqual([]);
  });

  /** `count` copies of a browser (its cookies), for a burst on one login journey. */
  const copies = (app: App, client: Client, count: number) =>
    Array.from({ length: count }, () => {
      const copy = new Client(app);
      for (const [name, value] of client.cookies) copy.cookies.set(name, value);
      return copy;
    });

  test('held (issue 25, one statement decides): 40 session logins at once on a trusted device sign in once; on another device the factor is due once and nothing signs in', async () => {
    const { app, ctx } = await setup();
    const client = new Client(app);
    await passFactor(app, client, ctx.db, true);
    const sessionsOf = async () =>
      (await ctx.db.selectFrom('sessions').select('id').where('ended_at', 'is', null).execute()).length;
    const before = await sessionsOf();

    const trusted = sameDevice(app, client);
    expect(code(await trusted.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    const answers = await Promise.all(copies(app, trusted, 40).map((c) => c.sessionLogin()));
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(1);
    for (const r of answers.filter((a) => code(a) !== 1200)) expectFailureEnvelope(r, 401, 1401);
    expect(await sessionsOf()).toBe(before + 1);

    const other = new Client(app);
    expect(code(await other.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    const due = await Promise.all(copies(app, other, 40).map((c) => c.sessionLogin()));
    // The journey moves to 'factor' once: a call that read it before the move and lost answers
    // 1401, every other says the factor is due; none signs in.
    expect(due.filter((r) => code(r) === 1201).length).toBeGreaterThanOrEqual(1);
    for (const r of due.filter((a) => code(a) !== 1201)) expectFailureEnvelope(r, 401, 1401);
    expect(await sessionsOf()).toBe(before + 1);
    const [journey] = await ctx.db
      .selectFrom('journeys')
      .select(['state'])
      .where('kind', '=', 'login')
      .orderBy('created_at', 'desc')
      .limit(1)
      .execute();
    expect(journey!.state).toBe('factor');
    // And the factor is still what it takes: the code signs that browser in.
    const phone = (await contacts(other)).phone[0]!;
    expect(code(await sendSms(other, phone.value))).toBe(1200);
    expect(code(await check(other, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
  });

  test('step-up is never skipped by a trusted device: the code is still required', async () => {
    const { app, ctx } = await setup();
    const client = new Client(app);
    await passFactor(app, client, ctx.db, true);
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    expect(code(await check(client, 'sms', wrongCode(right)))).toBe(1428);
    expect(code(await check(client, 'sms', right))).toBe(1200);
  });
});
