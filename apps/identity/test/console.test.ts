import { consolePaths, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { StaffStore } from '../src/console/staff.ts';
import type { Context } from '../src/context.ts';
import { codeHash } from '../src/lib/otp.ts';
import { addStaff, CONSOLE_HOST, ConsoleClient, type StaffFixture, staffCode } from './support/console.ts';
import { atFactor, check, factorAccount, PASSWORD } from './support/factors.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  rememberSecret,
  setCookieLine,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * The representative console (issue 13; docs/decisions/028-representative-console.md): staff sign-in
 * with password and authenticator code, the staff session and its idle timeout, finding a customer,
 * issuing the temporary security code the widget's rep page takes, lifting blocks, the audit trail
 * and who may see it, per-staff limits, and that only a staff session opens any of it.
 */

const _SHA1 = { algorithm: 'SHA1', digits: 6 } as const;

describe.each(targets)('representative console ($name)', (target) => {
  const h = useHarness(target);

  beforeEach(async () => {
    await sql`truncate staff, staff_sessions, rep_codes, otp_counters cascade`.execute(h.db);
  });
  afterEach(() => {});

  const codeNow = (staff: StaffFixture) => staffCode(h, staff);

  async function signedIn(app: FastifyInstance, staff: StaffFixture) {
    const c = new ConsoleClient(app);
    expect(code(await c.signInPassword(staff.name))).toBe(1200);
    const done = await c.factor(codeNow(staff));
    expect(code(done)).toBe(1200);
    return c;
  }

  async function auditRows(ctx: Context) {
    return ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('staff_id', 'is not', null)
      .orderBy('at')
      .execute();
  }

  describe('staff sign-in', () => {
    test('password then authenticator code; the cookie is the console’s own, scoped to /api/console', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = new ConsoleClient(app);
      const first = await c.signInPassword('rita.rep');
      expect(code(first)).toBe(1200);
      expect(json(first).responseBaseInfo.status.message).toBe('Enter the code from your authenticator app.');
      const cookie = setCookieLine(first, 'GH_STAFF');
      expect(cookie).toMatch(/Path=\/api\/console/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      // Password alone opens nothing.
      expectFailureEnvelope(await c.lookup('nobody'), 401, 4401);

      const done = await c.factor(codeNow(rita));
      expect(code(done)).toBe(1200);
      expect(json(done).successData).toEqual({
        name: 'rita.rep',
        role: 'representative',
        idleMinutes: 15,
        warningSeconds: 120,
        codeMinutes: 10,
      });
      const session = await c.call('GET', consolePaths.consoleSession);
      expect(code(session)).toBe(1200);
      // No customer cookie was set, and the customer apps' CSRF cookie is not the console's.
      expect(setCookieLine(done, 'ET')).toBeUndefined();
      expect(setCookieLine(done, 'XSRF-TOKEN')).toBeUndefined();
    });

    test('a wrong password, an unknown name and a disabled member get one answer; the code is never accepted twice', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = new ConsoleClient(app);
      expectFailureEnvelope(await c.signInPassword('rita.rep', 'Wrong-Password-1'), 200, 1403);
      expectFailureEnvelope(await c.signInPassword('nobody.here'), 200, 1403);

      expect(code(await c.signInPassword('rita.rep'))).toBe(1200);
      const used = codeNow(rita);
      expect(code(await c.factor(used))).toBe(1200);
      // The same code in another sign-in, in the same 30 s: refused (replay).
      const other = new ConsoleClient(app);
      expect(code(await other.signInPassword('rita.rep'))).toBe(1200);
      expectFailureEnvelope(await other.factor(used), 200, 1428);

      await new StaffStore(ctx.db, ctx.clock, ctx.hasher, ctx.config).disable('rita.rep');
      expectFailureEnvelope(await c.call('GET', consolePaths.consoleSession), 401, 4401);
      expectFailureEnvelope(await c.signInPassword('rita.rep'), 200, 1403);
    });

    test('STAFF_LOCKOUT_FAILURES wrong authenticator codes after the right password lock the member for STAFF_LOCKOUT_MINUTES; wrong passwords never do', async () => {
      const { app, ctx } = await h.start({ STAFF_LOCKOUT_FAILURES: '3', STAFF_LOCKOUT_MINUTES: '15' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = new ConsoleClient(app);
      expect(code(await c.signInPassword('rita.rep', 'Wrong-Password-1'))).toBe(1403);
      expect(code(await c.signInPassword('rita.rep', 'Wrong-Password-2'))).toBe(1403);
      expect(code(await c.signInPassword('rita.rep'))).toBe(1200);
      expect(code(await c.factor('000000'))).toBe(1428);
      expect(code(await c.factor('000001'))).toBe(1428);
      const locked = await c.factor('000002');
      expectFailureEnvelope(locked, 200, 1491);
      expect(json(locked).responseBaseInfo.status.message).toContain('15 minutes');
      expect(code(await c.signInPassword('rita.rep'))).toBe(1491);
      h.clock.advance(15 * 60_000 + 1000);
      expect(code(await c.signInPassword('rita.rep'))).toBe(1200);
      expect(code(await c.factor(codeNow(rita)))).toBe(1200);
    });

    test('the staff session ends after STAFF_IDLE_MINUTES without a call; a call moves the limit', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = await signedIn(app, rita);
      h.clock.advance(14 * 60_000);
      expect(code(await c.call('GET', consolePaths.consoleSession))).toBe(1200);
      h.clock.advance(14 * 60_000);
      expect(code(await c.call('GET', consolePaths.consoleSession))).toBe(1200);
      h.clock.advance(15 * 60_000 + 1000);
      expectFailureEnvelope(await c.call('GET', consolePaths.consoleSession), 401, 4401);
      expectFailureEnvelope(await c.lookup('anyone'), 401, 4401);
      const row = await ctx.db
        .selectFrom('staff_sessions')
        .selectAll()
        .where('stage', '=', 'active')
        .executeTakeFirst();
      expect(row?.end_reason).toBe('idle');
    });

    test('“Stay signed in” (POST extend) moves the idle limit like any call, never past STAFF_ABSOLUTE_MINUTES; the answer names the warning’s lead', async () => {
      const { app, ctx } = await h.start({ STAFF_ABSOLUTE_MINUTES: '40', TIME_LIMIT_WARNING_SECONDS: '30' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = await signedIn(app, rita);
      h.clock.advance(14 * 60_000);
      const extended = await c.call('POST', consolePaths.consoleSessionExtend);
      expect(code(extended)).toBe(1200);
      expect(json(extended).responseBaseInfo.status.message).toBe('You are still signed in to the console.');
      expect(json(extended).successData).toEqual({
        name: 'rita.rep',
        role: 'representative',
        idleMinutes: 15,
        warningSeconds: 30,
        codeMinutes: 10,
      });
      // A burst (a key held down in several tabs): each answered, none a fault, one session still.
      const burst = await Promise.all(
        Array.from({ length: 50 }, () => c.call('POST', consolePaths.consoleSessionExtend)),
      );
      expect(burst.map(code)).toEqual(Array(50).fill(1200));
      const live = await ctx.db
        .selectFrom('staff_sessions')
        .select('id')
        .where('stage', '=', 'active')
        .where('ended_at', 'is', null)
        .execute();
      expect(live).toHaveLength(1);
      // 14 + 14 minutes: alive only because of the extend.
      h.clock.advance(14 * 60_000);
      expect(code(await c.call('POST', consolePaths.consoleSessionExtend))).toBe(1200);
      h.clock.advance(11 * 60_000);
      expect(code(await c.call('POST', consolePaths.consoleSessionExtend))).toBe(1200);
      // 39 + 1 minutes: one minute after an extend, but past the absolute limit.
      h.clock.advance(60_000 + 1000);
      expectFailureEnvelope(await c.call('POST', consolePaths.consoleSessionExtend), 401, 4401);
    });

    test('extend: no CSRF token (refused, nothing moved), a body that is not an object (400), a password-step or ended session (401): each in the envelope', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = await signedIn(app, rita);
      for (const payload of ['"stay"', '[1]', '42', '{"requestBaseInfo": 7}']) {
        const bad = await c.client.request({
          method: 'POST',
          url: api(consolePaths.consoleSessionExtend),
          payload,
          csrf: false,
          headers: { host: CONSOLE_HOST, 'content-type': 'application/json', 'x-xsrf-token': c.token },
        });
        expect(bad.statusCode, payload).toBe(400);
        expect(json(bad).responseBaseInfo.status.code, payload).toBeGreaterThan(0);
        expect(bad.body).not.toMatch(/at .*\.ts:\d+/);
      }
      h.clock.advance(10 * 60_000);
      const noToken = await c.client.request({
        method: 'POST',
        url: api(consolePaths.consoleSessionExtend),
        csrf: false,
        headers: { host: CONSOLE_HOST },
      });
      expectFailureEnvelope(noToken, 403, 4403);
      // The refused call moved nothing: 10 + 5 minutes after the last answered call, it has ended,
      // and an extend does not revive it.
      h.clock.advance(5 * 60_000 + 1000);
      expectFailureEnvelope(await c.call('POST', consolePaths.consoleSessionExtend), 401, 4401);
      expectFailureEnvelope(await c.call('GET', consolePaths.consoleSession), 401, 4401);
      const row = await ctx.db
        .selectFrom('staff_sessions')
        .select('end_reason')
        .where('stage', '=', 'active')
        .executeTakeFirst();
      expect(row?.end_reason).toBe('idle');
      // The password step alone cannot be stretched into a session.
      const half = new ConsoleClient(app);
      expect(code(await half.signInPassword('rita.rep'))).toBe(1200);
      expectFailureEnvelope(await half.call('POST', consolePaths.consoleSessionExtend), 401, 4401);
    });

    test('sign-out ends the session on the server', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = await signedIn(app, rita);
      const cookie = c.client.cookies.get('GH_STAFF')!;
      const out = await c.call('DELETE', consolePaths.consoleSession);
      expect(out.statusCode).toBe(204);
      // The old cookie, replayed, opens nothing.
      c.client.cookies.set('GH_STAFF', cookie);
      expectFailureEnvelope(await c.call('GET', consolePaths.consoleSession), 401, 4401);
    });
  });

  describe('authorization', () => {
    const calls: Array<[method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown]> = [
      ['GET', consolePaths.consoleSession],
      ['POST', consolePaths.consoleSessionExtend],
      ['POST', consolePaths.consoleFactor, { securityCode: '123456' }],
      ['POST', consolePaths.consoleCustomer, { username: 'alexdemo1' }],
      [
        'POST',
        consolePaths.consoleIssueCode,
        { username: 'alexdemo1', verification: 'callback', note: 'checked' },
      ],
      ['POST', consolePaths.consoleLift, { username: 'alexdemo1', action: 'unlock', reason: 'checked' }],
      ['GET', consolePaths.consoleAudit],
    ];

    test('an anonymous caller and a signed-in customer are refused on every console endpoint', async () => {
      const { app, ctx } = await h.start();
      await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
      const anonymous = new ConsoleClient(app);
      const customer = new ConsoleClient(app);
      await customer.client.signIn('alexdemo1', PASSWORD);
      expect(customer.client.cookies.get('ET')).toBeTruthy();
      for (const c of [anonymous, customer]) {
        for (const [method, path, body] of calls) {
          const response = await c.call(method, path, body);
          expectFailureEnvelope(response, 401, 4401);
        }
      }
      // Every console route is one of these, sign-in and sign-out aside.
      const served = app.routeDocs
        .filter((d) => d.path.startsWith('/console/'))
        .map((d) => `${d.method} ${d.path}`);
      expect(served.sort()).toEqual(
        [
          ...calls.map(([m, p]) => `${m} ${p}`),
          `POST ${consolePaths.consoleSession}`,
          `DELETE ${consolePaths.consoleSession}`,
        ].sort(),
      );
      expect(await auditRows(ctx)).toEqual([]);
    });

    test('a state-changing console call without the console’s CSRF token is refused', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const c = await signedIn(app, rita);
      const response = await c.client.request({
        method: 'POST',
        url: api(consolePaths.consoleCustomer),
        body: { username: 'alexdemo1' },
        csrf: false,
        headers: { host: CONSOLE_HOST },
      });
      expectFailureEnvelope(response, 403, 4403);
      // The customer apps' token does not open the console either.
      await c.client.get(api(paths.health));
      const withCustomerToken = await c.client.post(
        api(consolePaths.consoleCustomer),
        { username: 'alexdemo1' },
        { host: CONSOLE_HOST },
      );
      expectFailureEnvelope(withCustomerToken, 403, 4403);
    });
  });

  describe('customers', () => {
    test('found by exact username only: state, masked contacts, factors and recent events; the lookup is audited', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await factorAccount(ctx, 'carla0001', {
        phones: [{ value: '2025550143' }],
        emails: [{ value: 'carla@example.com' }],
      });
      const c = await signedIn(app, rita);
      const found = await c.lookup('CARLA0001');
      expect(code(found)).toBe(1200);
      const view = json<Record<string, unknown>>(found).successData!;
      expect(view).toMatchObject({
        username: 'carla0001',
        status: 'active',
        recoveryLockedUntil: null,
        forced: [],
        contacts: [
          { kind: 'phone', label: '(XXX) XXX-0143' },
          { kind: 'email', label: 'c****a@example.com' },
        ],
        liveCodeExpiresAt: null,
        staffAccount: false,
        ownAccount: false,
      });
      expect(found.body).not.toContain('2025550143');
      expect(found.body).not.toContain('carla@example.com');
      expectFailureEnvelope(await c.lookup('carla'), 200, 1404);
      expectFailureEnvelope(await c.lookup('carla000'), 200, 1404);
      const rows = await auditRows(ctx);
      expect(rows.filter((r) => r.event === 'console-lookup').map((r) => r.outcome)).toEqual([
        'success',
        'failure',
        'failure',
      ]);
    });
  });

  describe('temporary security code', () => {
    test('issued after a recorded verification; the customer signs in with it once; the same code is refused again', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const account = await factorAccount(ctx, 'carla0001');
      const c = await signedIn(app, rita);
      const issued = await c.issue('carla0001');
      expect(code(issued)).toBe(1200);
      const { code: repCode, expiresAt } = json<{ code: string; expiresAt: string }>(issued).successData!;
      expect(repCode).toMatch(/^\d{6}$/);
      const lifetime = new Date(expiresAt).getTime() - h.clock.now().getTime();
      expect(lifetime).toBeGreaterThan(10 * 60_000 - 5000);
      expect(lifetime).toBeLessThanOrEqual(10 * 60_000);
      // Hashed at rest: the code itself is nowhere in the table.
      const rows = await ctx.db.selectFrom('rep_codes').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(repCode);
      rememberSecret(repCode);

      const customer = await atFactor(app, 'carla0001');
      const ok = await check(customer, 'rep', repCode);
      expect(code(ok)).toBe(1200);
      expect(json(ok).successData).toMatchObject({ authenticated: true, factor: 'OTP-REP' });
      expect(code(await customer.sessionLogin())).toBe(1200);
      const factors = await ctx.db.selectFrom('session_factors').select('kind').execute();
      expect(factors.map((f) => f.kind)).toContain('OTP-REP');

      const again = await atFactor(app, 'carla0001');
      expectFailureEnvelope(await check(again, 'rep', repCode), 200, 1428);
      const audit = await auditRows(ctx);
      const issuedRow = audit.find((r) => r.event === 'rep-code-issued')!;
      expect(issuedRow.account_id).toBe(account.id);
      expect(issuedRow.detail).toMatchObject({
        staff: 'rita.rep',
        verification: 'callback',
        note: 'Called back on the number on file',
      });
    });

    test('a code issued for one customer is refused for another', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await factorAccount(ctx, 'carla0001');
      await factorAccount(ctx, 'dmitri001');
      const c = await signedIn(app, rita);
      const repCode = json<{ code: string }>(await c.issue('carla0001')).successData!.code;
      rememberSecret(repCode);
      const other = await atFactor(app, 'dmitri001');
      expectFailureEnvelope(await check(other, 'rep', repCode), 200, 1428);
      const owner = await atFactor(app, 'carla0001');
      expect(code(await check(owner, 'rep', repCode))).toBe(1200);
    });

    test('expires after REP_CODE_MINUTES (moved clock); issuing another replaces the live one', async () => {
      const { app, ctx } = await h.start({ REP_CODE_MINUTES: '10' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await factorAccount(ctx, 'carla0001');
      const c = await signedIn(app, rita);
      const first = json<{ code: string }>(await c.issue('carla0001')).successData!.code;
      h.clock.advance(10 * 60_000 + 1000);
      const customer = await atFactor(app, 'carla0001');
      expectFailureEnvelope(await check(customer, 'rep', first), 200, 1428);

      const second = json<{ code: string }>(await c.issue('carla0001')).successData!.code;
      const third = json<{ code: string }>(await c.issue('carla0001', 'Verified again')).successData!.code;
      const live = await ctx.db
        .selectFrom('rep_codes')
        .select('id')
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toHaveLength(1);
      if (second !== third) expectFailureEnvelope(await check(customer, 'rep', second), 200, 1428);
      h.clock.advance(9 * 60_000);
      expect(code(await check(customer, 'rep', third))).toBe(1200);
    });

    test('single use under a burst: of 100 simultaneous checks of the right code exactly one passes', async () => {
      const { app, ctx } = await h.start({
        CODE_CHECK_SESSION_MAX: '10000',
        CODE_CHECK_ACCOUNT_MAX: '10000',
        RECOVERY_CHECK_CLIENT_MAX: '10000',
      });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await factorAccount(ctx, 'carla0001');
      const c = await signedIn(app, rita);
      const repCode = json<{ code: string }>(await c.issue('carla0001')).successData!.code;
      // 10 browsers in the login transaction at once, 10 submissions each.
      const browsers = await Promise.all(Array.from({ length: 10 }, () => atFactor(app, 'carla0001')));
      const answers = await Promise.all(
        browsers.flatMap((b) => Array.from({ length: 10 }, () => check(b, 'rep', repCode))),
      );
      const codes = answers.map((r) => code(r));
      expect(codes.filter((x) => x === 1200)).toHaveLength(1);
      // The others: the code was used (1428), or the login they were in had completed (4401, 1401).
      expect(codes.filter((x) => ![1200, 1428, 1401, 4401].includes(x))).toEqual([]);
      const used = await ctx.db.selectFrom('rep_codes').select('used_at').execute();
      expect(used.filter((r) => r.used_at !== null)).toHaveLength(1);
      const signIns = await ctx.db.selectFrom('sessions').select('id').execute();
      expect(signIns).toHaveLength(1);
    });

    test('one live code per customer under a burst of issuances: the last one issued is the only one', async () => {
      const { app, ctx } = await h.start({ CONSOLE_CODE_MAX: '1000' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await factorAccount(ctx, 'carla0001');
      const c = await signedIn(app, rita);
      const answers = await Promise.all(Array.from({ length: 20 }, () => c.issue('carla0001')));
      expect(answers.map((r) => code(r))).toEqual(Array(20).fill(1200));
      const live = await ctx.db
        .selectFrom('rep_codes')
        .select(['code_hash', 'account_id'])
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toHaveLength(1);
      // The live code is one of those issued (its HMAC), and it signs the customer in.
      const codes = answers.map((r) => json<{ code: string }>(r).successData!.code);
      const hash = (c: string) => codeHash(ctx.config.otp.pepper, live[0]!.account_id, 'rep', c);
      const liveCode = codes.find((c) => hash(c) === live[0]!.code_hash);
      expect(liveCode).toBeDefined();
      const customer = await atFactor(app, 'carla0001');
      expect(code(await check(customer, 'rep', liveCode!))).toBe(1200);
    });

    test('wrong codes count per account: FACTOR_MAX_WRONG_TRIES end the login and refuse the right code', async () => {
      const { app, ctx } = await h.start({ FACTOR_MAX_WRONG_TRIES: '3' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await factorAccount(ctx, 'carla0001');
      const c = await signedIn(app, rita);
      const repCode = json<{ code: string }>(await c.issue('carla0001')).successData!.code;
      const wrong = String((Number(repCode) + 1) % 1_000_000).padStart(6, '0');
      const customer = await atFactor(app, 'carla0001');
      expect(code(await check(customer, 'rep', wrong))).toBe(1428);
      expect(code(await check(customer, 'rep', wrong))).toBe(1428);
      expect(code(await check(customer, 'rep', wrong))).toBe(1491);
      const next = await atFactor(app, 'carla0001');
      expect(code(await check(next, 'rep', repCode))).toBe(1491);
    });

    test('STEPUP: a signed-in customer proves the factor again with a code', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await createAccount(ctx, { username: 'carla0001', password: PASSWORD });
      const customer = new Client(app);
      await customer.signIn('carla0001', PASSWORD);
      const c = await signedIn(app, rita);
      const repCode = json<{ code: string }>(await c.issue('carla0001')).successData!.code;
      const stepped = await check(customer, 'rep', repCode);
      expect(code(stepped)).toBe(1200);
      expect(json<{ steppedUpAt?: string }>(stepped).successData?.steppedUpAt).toBeTruthy();
    });

    test('not for a locked or blocked account: the block is lifted first', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await createAccount(ctx, { username: 'blocked01', password: PASSWORD, status: 'blocked' });
      const c = await signedIn(app, rita);
      expectFailureEnvelope(await c.issue('blocked01'), 200, 1409);
      expect(await ctx.db.selectFrom('rep_codes').select('id').execute()).toEqual([]);
    });
  });

  describe('lifting blocks', () => {
    test('each action needs its state, tells the customer by e-mail and is audited with its reason', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const locked = await createAccount(ctx, {
        username: 'locked001',
        password: PASSWORD,
        status: 'locked',
      });
      const blocked = await createAccount(ctx, {
        username: 'blocked01',
        password: PASSWORD,
        status: 'blocked',
      });
      const c = await signedIn(app, rita);
      const customer = new Client(app);
      expect(code(await customer.signInPassword('locked001', PASSWORD))).toBe(1203);
      expect(code(await customer.signInPassword('blocked01', PASSWORD))).toBe(1401);

      const unlocked = await c.lift('locked001', 'unlock', 'Verified by call-back');
      expect(code(unlocked)).toBe(1200);
      // The answer shows the account as it is now.
      expect(json<{ status: string; failedLogins: number }>(unlocked).successData).toMatchObject({
        status: 'active',
        failedLogins: 0,
      });
      expectFailureEnvelope(await c.lift('locked001', 'unlock'), 200, 1409);
      expectFailureEnvelope(await c.lift('locked001', 'unblock'), 200, 1409);
      expect(code(await c.lift('blocked01', 'unblock', 'Fraud check cleared'))).toBe(1200);
      await customer.signIn('locked001', PASSWORD);
      await new Client(app).signIn('blocked01', PASSWORD);

      // Recovery by e-mail locked by a stranger's sends.
      await ctx.db
        .insertInto('otp_counters')
        .values({
          account_id: locked.id,
          channel: 'email',
          wrong_tries: 5,
          unentered_sends: 0,
          updated_at: h.clock.now(),
          locked_until: new Date(h.clock.now().getTime() + 3_600_000),
        })
        .execute();
      const before = json<{ recoveryLockedUntil: string | null }>(await c.lookup('locked001')).successData!;
      expect(before.recoveryLockedUntil).toBeTruthy();
      const opened = await c.lift('locked001', 'unlock-recovery', 'Customer asked');
      expect(code(opened)).toBe(1200);
      expect(
        json<{ recoveryLockedUntil: string | null }>(opened).successData!.recoveryLockedUntil,
      ).toBeNull();

      expect(
        code(await c.lift('blocked01', 'require-password-reset', 'Password seen in a phishing kit')),
      ).toBe(1200);
      expect(code(await new Client(app).signInPassword('blocked01', PASSWORD))).toBe(1205);

      const mails = await ctx.db.selectFrom('outbox').selectAll().orderBy('sent_at').execute();
      expect(mails.map((m) => [m.recipient, m.text.split('.')[0]])).toEqual([
        [
          'locked001@example.com',
          'A representative unlocked your Prime Portal account after too many failed passwords',
        ],
        ['blocked01@example.com', 'A representative lifted the security block on your Prime Portal account'],
        [
          'locked001@example.com',
          'A representative opened account recovery by e-mail for your Prime Portal account again',
        ],
        [
          'blocked01@example.com',
          'A representative asked that your Prime Portal account gets a new password: you will choose one at your next sign-in',
        ],
      ]);
      const rows = (await auditRows(ctx)).filter(
        (r) => r.event !== 'console-lookup' && r.event !== 'console-sign-in',
      );
      expect(
        rows.map((r) => [
          r.event,
          r.account_id,
          (r.detail as { reason?: string }).reason,
          (r.detail as { staff?: string }).staff,
        ]),
      ).toEqual([
        ['console-unlock', locked.id, 'Verified by call-back', 'rita.rep'],
        ['console-unblock', blocked.id, 'Fraud check cleared', 'rita.rep'],
        ['console-unlock-recovery', locked.id, 'Customer asked', 'rita.rep'],
        ['console-require-password-reset', blocked.id, 'Password seen in a phishing kit', 'rita.rep'],
      ]);
      for (const r of rows) expect(r.at).toBeTruthy();
    });

    test('a reason and a verification note are required', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      await createAccount(ctx, { username: 'locked001', password: PASSWORD, status: 'locked' });
      const c = await signedIn(app, rita);
      expectFailureEnvelope(
        await c.call('POST', consolePaths.consoleLift, { username: 'locked001', action: 'unlock' }),
        400,
        4400,
      );
      expectFailureEnvelope(await c.lift('locked001', 'unlock', '  '), 400, 4400);
      expectFailureEnvelope(
        await c.call('POST', consolePaths.consoleIssueCode, { username: 'locked001', note: 'x y z' }),
        400,
        4400,
      );
      expectFailureEnvelope(await c.issue('locked001', ''), 400, 4400);
    });
  });

  describe('who may act', () => {
    test('nobody acts on their own customer account; a representative not on a staff member’s, a supervisor may', async () => {
      const { app, ctx } = await h.start();
      await createAccount(ctx, { username: 'ritahome1', password: PASSWORD, status: 'locked' });
      await createAccount(ctx, { username: 'rayhome01', password: PASSWORD, status: 'locked' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative', 'ritahome1');
      await addStaff(ctx, 'ray.rep', 'representative', 'rayhome01');
      const sam = await addStaff(ctx, 'sam.super', 'supervisor', 'samhome01');
      const c = await signedIn(app, rita);
      const own = json<{ ownAccount: boolean; staffAccount: boolean }>(await c.lookup('ritahome1'))
        .successData!;
      expect(own).toMatchObject({ ownAccount: true, staffAccount: true });
      const refusedOwn = await c.lift('ritahome1', 'unlock');
      expectFailureEnvelope(refusedOwn, 200, 1403);
      expect(json(refusedOwn).responseBaseInfo.status.message).toBe(
        'You cannot act on your own customer account.',
      );
      expectFailureEnvelope(await c.issue('ritahome1'), 200, 1403);
      const refusedStaff = await c.lift('rayhome01', 'unlock');
      expectFailureEnvelope(refusedStaff, 200, 1403);
      expect(json(refusedStaff).responseBaseInfo.status.message).toMatch(/belongs to a staff member/);
      expect(
        (
          await ctx.db
            .selectFrom('accounts')
            .select('status')
            .where('username', 'in', ['ritahome1', 'rayhome01'])
            .execute()
        ).map((a) => a.status),
      ).toEqual(['locked', 'locked']);

      const s = await signedIn(app, sam);
      expect(code(await s.lift('rayhome01', 'unlock', 'Supervisor check'))).toBe(1200);
      const refused = (await auditRows(ctx)).filter((r) => r.event === 'console-refused');
      expect(refused).toHaveLength(3);
    });
  });

  describe('audit trail', () => {
    test('a supervisor sees and filters everyone’s actions; a representative only their own', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const ray = await addStaff(ctx, 'ray.rep', 'representative');
      const sam = await addStaff(ctx, 'sam.super', 'supervisor');
      await factorAccount(ctx, 'carla0001');
      await createAccount(ctx, { username: 'locked001', password: PASSWORD, status: 'locked' });
      const r1 = await signedIn(app, rita);
      const r2 = await signedIn(app, ray);
      await r1.issue('carla0001', 'Knew the last payment');
      await r2.lift('locked001', 'unlock', 'Call-back done');

      const mine = json<{ events: Array<{ staff: string; event: string }> }>(await r1.audit()).successData!
        .events;
      expect(mine.length).toBeGreaterThan(0);
      expect(new Set(mine.map((e) => e.staff))).toEqual(new Set(['rita.rep']));
      expectFailureEnvelope(await r1.audit('?staff=ray.rep'), 200, 1403);
      expect(code(await r1.audit('?staff=rita.rep'))).toBe(1200);

      const s = await signedIn(app, sam);
      const all = json<{
        events: Array<{ staff: string; event: string; customer: string | null; detail: string }>;
      }>(await s.audit()).successData!.events;
      expect(new Set(all.map((e) => e.staff))).toEqual(new Set(['rita.rep', 'ray.rep', 'sam.super']));
      const rays = json<{
        events: Array<{ staff: string; event: string; customer: string | null; detail: string }>;
      }>(await s.audit('?staff=ray.rep&event=console-unlock')).successData!.events;
      expect(rays).toEqual([
        expect.objectContaining({
          staff: 'ray.rep',
          event: 'console-unlock',
          customer: 'locked001',
          detail: 'Call-back done',
        }),
      ]);
      const carla = json<{ events: Array<{ event: string; detail: string }> }>(
        await s.audit('?customer=carla0001'),
      ).successData!.events;
      expect(carla).toEqual([
        expect.objectContaining({ event: 'rep-code-issued', detail: 'callback: Knew the last payment' }),
      ]);
    });

    test('every console action leaves a row with staff member, customer, time and what was said', async () => {
      const { app, ctx } = await h.start();
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const carla = await factorAccount(ctx, 'carla0001');
      const c = await signedIn(app, rita);
      await c.lookup('carla0001');
      await c.issue('carla0001');
      await c.call('DELETE', consolePaths.consoleSession);
      const rows = await auditRows(ctx);
      expect(rows.map((r) => r.event)).toEqual([
        'console-sign-in',
        'console-lookup',
        'rep-code-issued',
        'console-sign-out',
      ]);
      const staffId = (await ctx.db.selectFrom('staff').select('id').executeTakeFirstOrThrow()).id;
      for (const r of rows) {
        expect(r.staff_id).toBe(staffId);
        expect(r.request_id).toMatch(/^REQ/);
      }
      expect(rows[1]!.account_id).toBe(carla.id);
      expect(rows[2]!.account_id).toBe(carla.id);
    });
  });

  describe('limits', () => {
    test('lookups per staff member are limited, with an alert line in the log past the threshold', async () => {
      const { app, ctx, logs } = await h.start({ CONSOLE_LOOKUP_MAX: '4', CONSOLE_ALERT_PERCENT: '50' });
      const rita = await addStaff(ctx, 'rita.rep', 'representative');
      const ray = await addStaff(ctx, 'ray.rep', 'representative');
      const c = await signedIn(app, rita);
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push(code(await c.lookup('nobody01')));
      expect(codes).toEqual([1404, 1404, 1404, 1404, 4429]);
      const alerts = logs.filter((l) => l.includes('console alert'));
      expect(alerts).toHaveLength(3);
      expect(JSON.parse(alerts[0]!)).toMatchObject({
        alert: 'console-usage',
        staff: 'rita.rep',
        scope: 'lookups',
        hits: 3,
      });
      // Another member's count is their own.
      const other = await signedIn(app, ray);
      expect(code(await other.lookup('nobody01'))).toBe(1404);
    });
  });
});
