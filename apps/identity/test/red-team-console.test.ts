import { paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeEach, describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { addStaff, ConsoleClient, type StaffFixture, staffCode } from './support/console.ts';
import { PASSWORD } from './support/factors.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Red-team review of the representative console (issue 13). Finding 1: a console action and its audit
 * row were written apart, so a fault on the audit insert left a live temporary security code or a
 * lifted block that no audit row names. Now both are one transaction: no audit row, no action.
 *
 * (Fixtures below as in console.test.ts.) The representative console (issue 13; docs/decisions/028-representative-console.md): staff sign-in
 * with password and authenticator code, the staff session and its idle timeout, finding a customer,
 * issuing the temporary security code the widget's rep page takes, lifting blocks, the audit trail
 * and who may see it, per-staff limits, and that only a staff session opens any of it.
 */

const _SHA1 = { algorithm: 'SHA1', digits: 6 } as const;

describe.each(targets)('red team: representative console ($name)', (target) => {
  const h = useHarness(target);

  beforeEach(async () => {
    await sql`truncate staff, staff_sessions, rep_codes, otp_counters cascade`.execute(h.db);
  });

  const codeNow = (staff: StaffFixture) => staffCode(h, staff);
  async function signedIn(app: FastifyInstance, staff: StaffFixture) {
    const c = new ConsoleClient(app);
    expect(code(await c.signInPassword(staff.name))).toBe(1200);
    expect(code(await c.factor(codeNow(staff)))).toBe(1200);
    return c;
  }
  /**
   * The audit insert of one event fails (a fault on that statement); everything else works. The
   * trail and every trail it hands a transaction (withDb) fail alike.
   */
  function failAuditOf(ctx: Context, event: string) {
    const proto = Object.getPrototypeOf(ctx.audit) as Context['audit'];
    const failing = (trail: Context['audit']) => {
      const record = proto.record.bind(trail);
      trail.record = async (request, entry) => {
        if (entry.event === event) throw new Error('simulated fault on the audit insert');
        return record(request, entry);
      };
      return trail;
    };
    failing(ctx.audit);
    ctx.audit.withDb = (db) => failing(proto.withDb.call(ctx.audit, db));
  }
  /** The audit works again. */
  function restoreAudit(ctx: Context) {
    const proto = Object.getPrototypeOf(ctx.audit) as Context['audit'];
    ctx.audit.record = proto.record.bind(ctx.audit);
    ctx.audit.withDb = proto.withDb.bind(ctx.audit);
  }

  test('no temporary security code is issued without its audit row', async () => {
    const { app, ctx } = await h.start();
    const rita = await addStaff(ctx, 'rita.rep', 'representative');
    const customer = await createAccount(ctx, { username: 'customer01', password: PASSWORD });
    const c = await signedIn(app, rita);
    failAuditOf(ctx, 'rep-code-issued');
    const issued = await c.issue('customer01');
    expect(issued.statusCode).not.toBe(200);
    expect(JSON.stringify(json(issued))).not.toMatch(/"code":"\d{6}"/);
    const codes = await ctx.db
      .selectFrom('rep_codes')
      .selectAll()
      .where('account_id', '=', customer.id)
      .execute();
    expect(codes).toEqual([]);
  });

  test('a code issued before survives a failed re-issue (the old one is not revoked unaudited)', async () => {
    const { app, ctx } = await h.start();
    const rita = await addStaff(ctx, 'rita.rep', 'representative');
    const customer = await createAccount(ctx, { username: 'customer01', password: PASSWORD });
    const c = await signedIn(app, rita);
    expect(code(await c.issue('customer01'))).toBe(1200);
    const first = await ctx.db
      .selectFrom('rep_codes')
      .select('id')
      .where('account_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    failAuditOf(ctx, 'rep-code-issued');
    expect((await c.issue('customer01')).statusCode).not.toBe(200);
    const live = await ctx.db
      .selectFrom('rep_codes')
      .selectAll()
      .where('account_id', '=', customer.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live.map((r) => r.id)).toEqual([first.id]);
  });

  test('no block is lifted without its audit row', async () => {
    const { app, ctx } = await h.start();
    const rita = await addStaff(ctx, 'rita.rep', 'representative');
    const blocked = await createAccount(ctx, {
      username: 'blocked01',
      password: PASSWORD,
      status: 'blocked',
    });
    const c = await signedIn(app, rita);
    failAuditOf(ctx, 'console-unblock');
    expect((await c.lift('blocked01', 'unblock')).statusCode).not.toBe(200);
    const row = await ctx.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', blocked.id)
      .executeTakeFirst();
    expect(row?.status).toBe('blocked');
    // And once the audit works again, the same lift goes through with its row.
    restoreAudit(ctx);
    expect(code(await c.lift('blocked01', 'unblock'))).toBe(1200);
    const audited = await ctx.db
      .selectFrom('audit_events')
      .select('event')
      .where('account_id', '=', blocked.id)
      .where('event', '=', 'console-unblock')
      .execute();
    expect(audited).toHaveLength(1);
  });

  test('a representative whose own customer account changed its username still cannot act on it', async () => {
    const { app, ctx } = await h.start();
    const rita = await addStaff(ctx, 'rita.rep', 'representative', 'ritacust1');
    await createAccount(ctx, { username: 'ritacust1', password: PASSWORD, status: 'active' });
    const customer = new Client(app);
    await customer.signIn('ritacust1', PASSWORD);
    const renamed = await customer.request({
      method: 'PUT',
      url: api(paths.changeUsername),
      body: { username: 'ritacust22', password: PASSWORD },
    });
    expect(code(renamed)).toBe(1200);
    const c = await signedIn(app, rita);
    const looked = json<{ ownAccount: boolean }>(await c.lookup('ritacust22'));
    expect(looked.successData?.ownAccount).toBe(true);
    expectFailureEnvelope(await c.issue('ritacust22'), 200, 1403);
    expectFailureEnvelope(await c.lift('ritacust22', 'require-password-reset'), 200, 1403);
    // Another representative sees a staff member's account, and may not act on it either.
    const rob = await addStaff(ctx, 'rob.rep', 'representative');
    const other = await signedIn(app, rob);
    expectFailureEnvelope(await other.issue('ritacust22'), 200, 1403);
  });

  test('a required password reset never stands while the customer stays signed in', async () => {
    const { app, ctx } = await h.start();
    const rita = await addStaff(ctx, 'rita.rep', 'representative');
    const account = await createAccount(ctx, { username: 'customer01', password: PASSWORD });
    const customer = new Client(app);
    await customer.signIn('customer01', PASSWORD);
    const c = await signedIn(app, rita);
    // Ending the sessions fails once (a fault after the reset was written).
    const endAll = ctx.sessions.endAllForAccount.bind(ctx.sessions);
    let failOnce = true;
    ctx.sessions.endAllForAccount = async (...args) => {
      if (failOnce) {
        failOnce = false;
        throw new Error('simulated fault ending the sessions');
      }
      return endAll(...args);
    };
    const first = await c.lift('customer01', 'require-password-reset');
    // Whatever the first answer, a retry leaves the reset required and no session alive.
    if (code(first) !== 1200) await c.lift('customer01', 'require-password-reset');
    const state = await ctx.db
      .selectFrom('accounts')
      .select('password_state')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(state.password_state).toBe('expired');
    const alive = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('account_id', '=', account.id)
      .where('ended_at', 'is', null)
      .execute();
    expect(alive).toEqual([]);
  });

  test('wrong passwords answer alike for a staff name and an unknown one (no enumeration)', async () => {
    const { app, ctx } = await h.start();
    await addStaff(ctx, 'rita.rep', 'representative');
    const answers = async (name: string) => {
      const c = new ConsoleClient(app);
      const seen: number[] = [];
      for (let i = 0; i < ctx.config.console.lockoutFailures + 1; i++) {
        seen.push(code(await c.signInPassword(name, 'Wrong-Password-1')));
      }
      return seen;
    };
    const staffAnswers = await answers('rita.rep');
    expect(staffAnswers).toContain(1403);
    expect(await answers('nobody.here')).toEqual(staffAnswers);
  });
});
