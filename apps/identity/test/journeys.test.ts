import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { OuterHandleInTransaction } from '../src/db/pglite-dialect.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { cleanUp } from '../src/services/cleanup.ts';
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
  expectFailureEnvelope,
  freshPGliteClient,
  json,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Journeys as records (issue 10; docs/decisions/008-journeys-as-records.md): any instance continues
 * any journey, the clock ends them, a step completes once, sessions record the factors that proved
 * them, the e-mail path serves the factor and recovery side by side, every security event leaves an
 * audit row, and what has run its time is cleaned up.
 */
describe.each(targets)('journeys ($name)', (target) => {
  const h = useHarness(target);
  const NUMBER = '+12025550143';

  /** Moves a browser (its cookies) to another instance. */
  const moveTo = (app: Client['app'], from: Client) => {
    const moved = new Client(app);
    for (const [name, value] of from.cookies) moved.cookies.set(name, value);
    return moved;
  };

  const auditOf = async (accountId: string) =>
    (
      await h.db
        .selectFrom('audit_events')
        .select(['event', 'outcome', 'journey_id', 'client_ip', 'detail'])
        .where('account_id', '=', accountId)
        .orderBy('at')
        .execute()
    ).map((r) => `${r.event}:${r.outcome}`);

  test('a login journey started on one instance is finished on another', async () => {
    const first = await h.start();
    await factorAccount(first.ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const client = await atFactor(first.app, 'allfactor1');
    expect(code(await sendSms(client, (await contacts(client)).phone[0]!.value))).toBe(1200);

    const second = await h.start({}, { db: await h.another() });
    const moved = moveTo(second.app, client);
    const r = await check(moved, 'sms', (await latestMessage(first.ctx.db, NUMBER)).code!);
    expect(code(r)).toBe(1200);
    expect(code(await moved.sessionLogin())).toBe(1200);
    // And back on the first: the signed-in session is the same row for both.
    expect(code(await moveTo(first.app, moved).session())).toBe(1200);
  });

  test('a journey expired by the clock is refused with the spec answers (1401 at session login, 4401 for a factor)', async () => {
    const { app, ctx } = await h.start({ LOGIN_FLOW_MINUTES: '5' });
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    const phone = (await contacts(client)).phone[0]!.value;
    expect(code(await sendSms(client, phone))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    h.clock.advance(5 * 60_000 + 1);
    expectFailureEnvelope(await check(client, 'sms', right), 401, 4401);
    expectFailureEnvelope(await client.sessionLogin(), 401, 1401);

    // Before the factor too: a password journey left alone for its time is over.
    const other = new Client(app);
    expect(code(await other.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    h.clock.advance(5 * 60_000 + 1);
    expectFailureEnvelope(await other.sessionLogin(), 401, 1401);
  });

  test('two concurrent completions of one step: exactly one succeeds, across two instances', async () => {
    const first = await h.start();
    const second = await h.start({}, { db: await h.another() });
    await factorAccount(first.ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const client = await atFactor(first.app, 'allfactor1');
    const { journey } = (await first.ctx.engine.resolve(
      // The engine reads the ET cookie as a request would.
      { cookies: { ET: client.cookies.get('ET')! }, ip: '127.0.0.1' } as never,
    ))!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? second : first).ctx.journeys.transition(journey, ['factor'], 'completed'),
      ),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);

    // Through HTTP: the right code submitted 8 times at once on both instances signs in once.
    const next = await atFactor(first.app, 'allfactor1');
    expect(code(await sendSms(next, (await contacts(next)).phone[0]!.value))).toBe(1200);
    const right = (await latestMessage(first.ctx.db, NUMBER)).code!;
    const codes = (
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => check(i % 2 ? moveTo(second.app, next) : next, 'sms', right)),
      )
    ).map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(1);
    const sessions = await h.db
      .selectFrom('sessions')
      .innerJoin('session_factors', 'session_factors.session_id', 'sessions.id')
      .select('sessions.id')
      .where('session_factors.kind', '=', 'OTP-SMS')
      .where('sessions.ended_at', 'is', null)
      .execute();
    expect(sessions).toHaveLength(1);
  });

  test('step-up is recorded on the session with its factor and time; "proved in the last N minutes" is a query', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'stepuser01', demoContacts('stepuser01', h.clock.now()), {
      secondFactor: false,
    });
    const client = new Client(app);
    await client.signIn('stepuser01', PASSWORD);
    const sessionId = () => sha256(client.cookies.get('ET')!);
    expect(await ctx.sessions.provedSince(sessionId(), { withinMs: 15 * 60_000 })).toBeNull();

    h.clock.advance(60_000);
    const before = h.clock.now().getTime();
    expect(code(await sendEmail(client, (await contacts(client)).email[0]!.value))).toBe(1200);
    const r = await check(client, 'email', (await latestMessage(ctx.db, 'stepuser01@example.com')).code!);
    expect(code(r)).toBe(1200);
    const at = new Date(json<{ steppedUpAt: string }>(r).successData!.steppedUpAt);
    expect(at.getTime()).toBeGreaterThanOrEqual(before);
    expect(at.getTime()).toBeLessThanOrEqual(h.clock.now().getTime());

    const factors = await ctx.sessions.factors(sessionId());
    expect(factors.map((f) => [f.journeyKind, f.kind, f.level])).toEqual([
      ['login', 'password', 1],
      ['stepup', 'OTP-EMAIL', 2],
    ]);
    expect(factors[1]!.verifiedAt.toISOString()).toBe(at.toISOString());
    expect(json<{ steppedUpAt: string }>(await client.session()).successData!.steppedUpAt).toBe(
      at.toISOString(),
    );
    // The policy question, as a query: proved by e-mail within 15 minutes, yes; by text, no.
    expect(
      await ctx.sessions.provedSince(sessionId(), { withinMs: 15 * 60_000, kinds: ['OTP-EMAIL'] }),
    ).toEqual(at);
    expect(
      await ctx.sessions.provedSince(sessionId(), { withinMs: 15 * 60_000, kinds: ['OTP-SMS'] }),
    ).toBeNull();
    h.clock.advance(16 * 60_000);
    expect(await ctx.sessions.provedSince(sessionId(), { withinMs: 15 * 60_000 })).toBeNull();
    const journey = await h.db
      .selectFrom('journeys')
      .selectAll()
      .where('kind', '=', 'stepup')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(journey.state).toBe('completed');
    expect(journey.factors.map((f) => f.kind)).toEqual(['OTP-EMAIL']);
    // A session that stepped up but did not pass a factor at sign-in cannot bind its device.
    expectFailureEnvelope(await trustDevice(client, true), 200, 1403);
  });

  test('the e-mail path completes the factor while a recovery journey of the same browser is open', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    // A recovery journey opened in this browser (the portal's username screen), with a code sent.
    expect(code(await client.post(api(paths.identifyUsername), { username: 'allfactor1' }))).toBe(1200);
    const masked = json<{ email: Array<{ value: string }> }>(
      await client.get(`${api(paths.identityAttributes)}?attributes=email`),
    ).successData!.email[0]!.value;
    expect(code(await sendEmail(client, masked))).toBe(1200);
    const recoveryCode = (await latestMessage(ctx.db, 'allfactor1@example.com')).code!;
    // Then the factor's code by e-mail (the contact id): the newest live code decides the path.
    expect(code(await sendEmail(client, (await contacts(client)).email[0]!.value))).toBe(1200);
    const factorCode = (await latestMessage(ctx.db, 'allfactor1@example.com')).code!;
    expect(factorCode).not.toBe(recoveryCode);
    expect(code(await check(client, 'email', factorCode))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
    // The recovery journey is untouched by it: still open, not confirmed.
    const recovery = await h.db
      .selectFrom('journeys')
      .select('state')
      .where('token_hash', '=', sha256(client.cookies.get('GH_RECOVERY')!))
      .executeTakeFirstOrThrow();
    expect(recovery.state).toBe('code_sent');
  });

  test('and recovery completes by e-mail while a login journey of the same browser waits for its factor', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    // The factor's code is sent first...
    expect(code(await sendEmail(client, (await contacts(client)).email[0]!.value))).toBe(1200);
    const factorCode = (await latestMessage(ctx.db, 'allfactor1@example.com')).code!;
    // ...then the customer turns to recovery in the same browser: its code is the newest.
    expect(code(await client.post(api(paths.identifyUsername), { username: 'allfactor1' }))).toBe(1200);
    const masked = json<{ email: Array<{ value: string }> }>(
      await client.get(`${api(paths.identityAttributes)}?attributes=email`),
    ).successData!.email[0]!.value;
    expect(code(await sendEmail(client, masked))).toBe(1200);
    const recoveryCode = (await latestMessage(ctx.db, 'allfactor1@example.com')).code!;
    const confirmed = await check(client, 'email', recoveryCode);
    expect(json(confirmed).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'Your one-time code is confirmed.',
    });
    // The login journey did not move; its own code still completes it.
    expect(code(await client.sessionLogin())).toBe(1201);
    const [login] = await h.db
      .selectFrom('journeys')
      .select(['state', 'id'])
      .where('kind', '=', 'login')
      .where('account_id', '=', account.id)
      .execute();
    expect(login!.state).toBe('factor');
    const codeRow = await h.db
      .selectFrom('otp_codes')
      .select(['journey_id', 'purpose'])
      .where('journey_id', '=', login!.id)
      .executeTakeFirstOrThrow();
    expect(codeRow.purpose).toBe('factor');
    expect(factorCode).not.toBe(recoveryCode);
  });

  test('audit rows for every security event, with journey and address, and never a secret', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '2' });
    const account = await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const client = new Client(app);
    // A failed sign-in, then a sign-in with a text code (a wrong one first), a trusted device.
    expect(code(await client.signInPassword('allfactor1', 'Wrong7Password'))).toBe(1403);
    await atFactor(app, 'allfactor1', client);
    expect(code(await sendSms(client, (await contacts(client)).phone[0]!.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    expect(code(await check(client, 'sms', right === '000000' ? '111111' : '000000'))).toBe(1428);
    expect(code(await check(client, 'sms', right, true))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
    // A step-up by e-mail, then the device is no longer trusted, then sign out.
    expect(code(await sendEmail(client, (await contacts(client)).email[0]!.value))).toBe(1200);
    expect(
      code(await check(client, 'email', (await latestMessage(ctx.db, 'allfactor1@example.com')).code!)),
    ).toBe(1200);
    expect(code(await trustDevice(client, false))).toBe(1200);
    expect((await client.delete(api(paths.sessionLogout))).statusCode).toBe(204);
    // Recovery: identify, code, confirm, reset the password.
    const recovery = new Client(app);
    expect(code(await recovery.post(api(paths.identifyUsername), { username: 'allfactor1' }))).toBe(1200);
    const masked = json<{ email: Array<{ value: string }> }>(
      await recovery.get(`${api(paths.identityAttributes)}?attributes=email`),
    ).successData!.email[0]!.value;
    expect(code(await sendEmail(recovery, masked))).toBe(1200);
    expect(
      code(await check(recovery, 'email', (await latestMessage(ctx.db, 'allfactor1@example.com')).code!)),
    ).toBe(1200);
    const reset = await recovery.request({
      method: 'PUT',
      url: api(paths.passwordEnrollment),
      body: { newPassword: 'Harbor8Lights' },
    });
    expect(code(reset)).toBe(1200);
    // Two wrong passwords lock the account.
    expect(code(await new Client(app).signInPassword('allfactor1', 'Wrong7Password'))).toBe(1403);
    expect(code(await new Client(app).signInPassword('allfactor1', 'Wrong7Password'))).toBe(1203);

    expect(await auditOf(account.id)).toEqual([
      'sign-in-failed:failure',
      'factor-passed:success', // the password
      'code-issued:success',
      'factor-failed:failure',
      'factor-passed:success', // OTP-SMS
      'sign-in:success',
      'trusted-device-bound:success',
      'code-issued:success',
      'factor-passed:success', // OTP-EMAIL, step-up
      'step-up:success',
      'trusted-device-revoked:success',
      'sign-out:success',
      'recovery-started:success',
      'code-issued:success',
      'recovery-confirmed:success',
      'password-changed:success',
      'sign-in-failed:failure',
      'lockout:failure',
    ]);
    const rows = await h.db
      .selectFrom('audit_events')
      .selectAll()
      .where('account_id', '=', account.id)
      .execute();
    for (const row of rows) {
      expect(row.client_ip).toBeTruthy();
      expect(row.request_id).toMatch(/^REQ|^req-|\w+/);
    }
    // Journey ids tie the sign-in's events together.
    const signIn = rows.filter((r) => ['code-issued', 'factor-failed', 'sign-in'].includes(r.event));
    expect(new Set(signIn.slice(0, 3).map((r) => r.journey_id)).size).toBe(1);
    // Never a secret: no code, password or token in any row.
    const text = JSON.stringify(rows);
    for (const secret of [
      right,
      PASSWORD,
      'Harbor8Lights',
      'Wrong7Password',
      client.cookies.get('ET') ?? 'none',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  test('username changes and a recovery lock are audited too', async () => {
    const { app, ctx } = await h.start({ OTP_SENDS_BEFORE_BLOCK: '1' });
    const account = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const changed = await client.request({
      method: 'PUT',
      url: api(paths.changeUsername),
      body: { username: 'alexdemo22', password: PASSWORD },
    });
    expect(code(changed)).toBe(1200);
    const recovery = new Client(app);
    expect(code(await recovery.post(api(paths.identifyUsername), { username: 'alexdemo22' }))).toBe(1200);
    const masked = json<{ email: Array<{ value: string }> }>(
      await recovery.get(`${api(paths.identityAttributes)}?attributes=email`),
    ).successData!.email[0]!.value;
    expect(code(await sendEmail(recovery, masked))).toBe(1200);
    expect(code(await sendEmail(recovery, masked))).toBe(1491);
    expect(
      (await auditOf(account.id)).filter((e) => !e.startsWith('factor-passed') && !e.startsWith('sign-in')),
    ).toEqual([
      'username-changed:success',
      'recovery-started:success',
      'code-issued:success',
      'recovery-locked:failure',
    ]);
  });

  test('expired journeys, codes and sessions are cleaned up; live ones stay', async () => {
    const { app, ctx } = await h.start({ AUDIT_RETENTION_DAYS: '1' });
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', h.clock.now()));
    const old = await atFactor(app, 'allfactor1');
    expect(code(await sendSms(old, (await contacts(old)).phone[0]!.value))).toBe(1200);
    const signedIn = new Client(app);
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await signedIn.signIn('alexdemo1', PASSWORD);
    const count = async (table: 'journeys' | 'otp_codes' | 'sessions' | 'audit_events') =>
      Number(
        (
          await h.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await cleanUp(ctx)).toMatchObject({ journeys: 0, codes: 0, sessions: 0 });

    // Two days later: the login journey, its code and the session (idle 4 h) are a day past their time.
    h.clock.advance(2 * DAY);
    const fresh = await atFactor(app, 'allfactor1');
    const deleted = await cleanUp(ctx);
    expect(deleted.journeys).toBeGreaterThanOrEqual(2); // both login journeys of two days ago
    expect(deleted.codes).toBe(1);
    expect(deleted.sessions).toBe(1);
    expect(deleted.audit).toBeGreaterThan(0);
    expect(await count('otp_codes')).toBe(0);
    expect(await count('sessions')).toBe(0);
    // The fresh journey lives on and continues.
    expect(await count('journeys')).toBe(1);
    expect(code(await fresh.sessionLogin())).toBe(1201);
  });
});

describe('the PGlite transaction trap (docs/decisions/003)', () => {
  test('the outer handle inside a transaction is refused at once, not a deadlock; other callers wait their turn', async () => {
    const { db } = await freshPGliteClient();
    try {
      const started = Date.now();
      await expect(
        db.transaction().execute(async (tx) => {
          await tx.selectFrom('accounts').select('id').execute();
          await db.selectFrom('accounts').select('id').execute();
        }),
      ).rejects.toBeInstanceOf(OuterHandleInTransaction);
      expect(Date.now() - started).toBeLessThan(2000);
      // A caller outside the transaction (another request) is served after it, as before.
      let inside = false;
      const outside = db.transaction().execute(async (tx) => {
        inside = true;
        await tx.selectFrom('accounts').select('id').execute();
        // wait: holds the transaction open for 50 ms, so that the other caller has to queue behind it
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      const other = db.selectFrom('accounts').select('id').execute();
      await Promise.all([outside, other]);
      expect(inside).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});
