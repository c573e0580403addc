import { paths } from '@gatehouse/contract';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { AuditTrail } from '../src/audit/audit.ts';
import type { Context } from '../src/context.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { SessionStore } from '../src/services/sessions.ts';
import {
  atFactor,
  check,
  contacts,
  demoContacts,
  factorAccount,
  latestMessage,
  PASSWORD,
  sendEmail,
  sendSms,
} from './support/factors.ts';
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
import { checkCode, confirmed, latestCode, postPassword, putPassword } from './support/recovery.ts';

/**
 * Red team, issue 10 (journeys as records, session factors, the factor engine): attacks on the
 * single-use steps, the crossing of journeys, what ends them, the audit trail and database faults.
 * Each test is named after the property it holds; each failed on the code under review, or pins
 * behaviour that held then ('held:').
 */
describe.each(targets)('red team: journeys ($name)', (target) => {
  const h = useHarness(target);
  const NUMBER = '+12025550143';
  const NEW = 'Cedar5Brook';

  /** A second tab of the same browser: the same cookies, its own requests. */
  const tab = (app: Client['app'], from: Client) => {
    const copy = new Client(app);
    for (const [name, value] of from.cookies) copy.cookies.set(name, value);
    return copy;
  };

  const liveSessions = (accountId: string) =>
    h.db
      .selectFrom('sessions')
      .select('id')
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .execute();

  const auditCount = async (accountId: string, event: string) =>
    (
      await h.db
        .selectFrom('audit_events')
        .select('id')
        .where('account_id', '=', accountId)
        .where('event', '=', event)
        .execute()
    ).length;

  /**
   * Runs `during` (another request) in the gap before the next sign-in or rotation writes its
   * session. Sessions are written in a transaction under the account's row (SessionStore
   * .underAccount), so the gap is before that transaction: inside it, a change waits for it.
   */
  const beforeNextSessionCreate = (_ctx: Context, during: () => Promise<unknown>) => {
    // A sign-in writes its session in one statement (engine.signIn, built with insertFrom); a
    // step-up's rotation writes it under the account's row (underAccount). Whichever comes first.
    const originals = {
      underAccount: SessionStore.prototype.underAccount,
      insertFrom: SessionStore.prototype.insertFrom,
    };
    let fired = false;
    const undo = () => {
      SessionStore.prototype.underAccount = originals.underAccount;
      SessionStore.prototype.insertFrom = originals.insertFrom;
    };
    SessionStore.prototype.underAccount = async function (this: SessionStore, ...args) {
      if (!fired) {
        fired = true;
        undo();
        await during();
      }
      return originals.underAccount.apply(this, args) as never;
    } as typeof originals.underAccount;
    // insertFrom builds the statement synchronously; the sign-in then builds its audit rows (async)
    // and runs it: the change runs in between, before the statement.
    SessionStore.prototype.insertFrom = function (this: SessionStore, ...args) {
      if (!fired) {
        fired = true;
        undo();
        const auditInsertFrom = AuditTrail.prototype.insertFrom;
        const pending = during();
        AuditTrail.prototype.insertFrom = async function (this: AuditTrail, ...auditArgs) {
          AuditTrail.prototype.insertFrom = auditInsertFrom;
          await pending;
          return auditInsertFrom.apply(this, auditArgs);
        } as typeof auditInsertFrom;
        restore.push(() => {
          AuditTrail.prototype.insertFrom = auditInsertFrom;
        });
      }
      return originals.insertFrom.apply(this, args);
    } as typeof originals.insertFrom;
    restore.push(undo);
  };

  /**
   * The next session row written fails, as a database fault would, inside its transaction: a
   * step-up's rotation (create) throws; a sign-in's statement (insertFrom) fails in the database,
   * where the journey's step and every other row of the statement are written with it.
   */
  const failNextSessionCreate = () => {
    const originals = {
      create: SessionStore.prototype.create,
      insertFrom: SessionStore.prototype.insertFrom,
    };
    const undo = () => {
      SessionStore.prototype.create = originals.create;
      SessionStore.prototype.insertFrom = originals.insertFrom;
    };
    SessionStore.prototype.create = async () => {
      undo();
      throw new Error('connection reset (simulated)');
    };
    SessionStore.prototype.insertFrom = function (this: SessionStore, ...args) {
      undo();
      const built = originals.insertFrom.apply(this, args);
      return { ...built, session: sql`select id, account_id, context from sessions where 1 / 0 = 1` };
    } as typeof originals.insertFrom;
    restore.push(undo);
  };
  const restore: Array<() => void> = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  // --- findings -----------------------------------------------------------------------------------

  test('a password reset ends every other confirmed recovery journey of the account: none resets the password again', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'ownerdemo1', password: PASSWORD });
    // The attacker (a code intercepted once) confirms a recovery journey in their browser.
    const attacker = await confirmed(app, ctx.db, 'ownerdemo1');
    // The owner notices ("your account was recovered") and resets the password from their own browser.
    const owner = await confirmed(app, ctx.db, 'ownerdemo1', new Client(app));
    expect(code(await putPassword(owner, { newPassword: NEW }))).toBe(1200);
    // The reset must end every other recovery journey of the account, as it ends sessions and
    // sign-ins: the attacker's confirmed one must not set a password of their choosing afterwards.
    const again = await putPassword(attacker, { newPassword: 'Maple8Stone' });
    expect(again.statusCode).toBe(401);
    const left = await h.db
      .selectFrom('journeys')
      .select('state')
      .where('account_id', '=', account.id)
      .where('kind', '=', 'recovery')
      .where('state', '=', 'confirmed')
      .execute();
    expect(left).toHaveLength(0);
  });

  test('a signed-in change of password ends the account’s confirmed recovery journeys', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'ownerdemo2', password: PASSWORD });
    const attacker = await confirmed(app, ctx.db, 'ownerdemo2');
    const owner = new Client(app);
    await owner.signIn('ownerdemo2', PASSWORD);
    expect(
      code(await postPassword(owner, { username: 'ownerdemo2', oldPassword: PASSWORD, newPassword: NEW })),
    ).toBe(1200);
    // The owner still signed in; the attacker's journey must be of no use any more.
    expect(code(await owner.session())).toBe(1200);
    expect((await putPassword(attacker, { newPassword: 'Maple8Stone' })).statusCode).toBe(401);
  });

  test('a sign-in completing while a password change ends the account’s sessions does not come out signed in', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'racedemo1', password: PASSWORD });
    // The attacker (a leaked password) is at session login; the owner changes the password in the
    // moment between the journey's completion and the session row.
    const attacker = new Client(app);
    expect(code(await attacker.signInPassword('racedemo1', PASSWORD))).toBe(1200);
    beforeNextSessionCreate(ctx, async () => {
      const r = await postPassword(new Client(app), {
        username: 'racedemo1',
        oldPassword: PASSWORD,
        newPassword: NEW,
      });
      expect(code(r)).toBe(1200);
    });
    await attacker.sessionLogin();
    // Every interleaving must end with the attacker signed out: the change ends every session and
    // every sign-in in flight of the account.
    expect((await attacker.session()).statusCode).toBe(401);
    expect(await liveSessions(account.id)).toHaveLength(0);
  });

  test('a step-up rotation racing a password change leaves no session alive', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'racedemo2', demoContacts('racedemo2', h.clock.now()), {
      secondFactor: false,
    });
    // A stolen session steps up (e-mail code); the owner changes the password from another browser
    // between the old session's end and the rotated session's row.
    const attacker = new Client(app);
    await attacker.signIn('racedemo2', PASSWORD);
    expect(code(await sendEmail(attacker, (await contacts(attacker)).email[0]!.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, 'racedemo2@example.com')).code!;
    beforeNextSessionCreate(ctx, async () => {
      const r = await postPassword(new Client(app), {
        username: 'racedemo2',
        oldPassword: PASSWORD,
        newPassword: NEW,
      });
      expect(code(r)).toBe(1200);
    });
    await check(attacker, 'email', right);
    expect((await attacker.session()).statusCode).toBe(401);
    expect(await liveSessions(account.id)).toHaveLength(0);
  });

  test('a database fault while a step-up rotates the session keeps the customer signed in and the step unspent', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'faultdemo1', demoContacts('faultdemo1', h.clock.now()), {
      secondFactor: false,
    });
    const client = new Client(app);
    await client.signIn('faultdemo1', PASSWORD);
    expect(code(await sendEmail(client, (await contacts(client)).email[0]!.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, 'faultdemo1@example.com')).code!;
    failNextSessionCreate();
    const r = await check(client, 'email', right);
    expectFailureEnvelope(r, 500, 5000);
    // Nothing happened as far as the customer can tell, so nothing may have changed: the session
    // they had is still theirs (ending the old one and writing the new one is one transaction).
    expect(code(await client.session())).toBe(1200);
    expect(await liveSessions(account.id)).toHaveLength(1);
    // And an audit row saying a step-up factor passed, for a step-up that did not happen, is wrong
    // (the one factor-passed row is the password's, at sign-in).
    const passedRows = await h.db
      .selectFrom('audit_events')
      .select('detail')
      .where('account_id', '=', account.id)
      .where('event', '=', 'factor-passed')
      .execute();
    expect(passedRows.map((r) => r.detail.journey)).toEqual(['login']);
    expect(passedRows.map((r) => r.detail.factor)).toEqual(['password']);
  });

  test('a database fault while signing in after the factor leaves the login journey and its passed factor usable', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'faultdemo2', demoContacts('faultdemo2', h.clock.now()));
    const client = await atFactor(app, 'faultdemo2');
    expect(code(await sendSms(client, (await contacts(client)).phone[0]!.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    failNextSessionCreate();
    expectFailureEnvelope(await check(client, 'sms', right), 500, 5000);
    // The database is back: the same journey must complete (db-faults.test.ts: "let the same
    // journey complete once the database is back"), with the same code or a new one.
    expect(code(await client.sessionLogin())).toBe(1201);
  });

  test('a device bound at a sign-in racing a password change is not trusted after the change', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'devdemo01', demoContacts('devdemo01', h.clock.now()));
    // The owner, signed in with the factor, will change the password.
    const owner = await atFactor(app, 'devdemo01');
    expect(code(await sendSms(owner, (await contacts(owner)).phone[0]!.value))).toBe(1200);
    expect(code(await check(owner, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
    // The attacker (password and one code) signs in and asks to trust the device; the owner's change
    // lands right after the attacker's session is written, before the binding.
    const attacker = await atFactor(app, 'devdemo01');
    expect(code(await sendSms(attacker, (await contacts(attacker)).phone[0]!.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    // The sign-in (journey, session and audit rows; with a code, the code's check too) commits in
    // one statement; the change lands as soon as it returns.
    const signIn = ctx.engine.signInAfter.bind(ctx.engine);
    let fired = false;
    ctx.engine.signInAfter = async (...args) => {
      const session = await signIn(...args);
      if (!fired) {
        fired = true;
        const r = await postPassword(owner, {
          username: 'devdemo01',
          oldPassword: PASSWORD,
          newPassword: NEW,
        });
        expect(code(r)).toBe(1200);
      }
      return session;
    };
    expect(code(await check(attacker, 'sms', right, true))).toBe(1200);
    expect(fired).toBe(true);
    // "A password reset or change, a recovery and a username change end every binding of the account."
    const devices = await h.db
      .selectFrom('trusted_devices')
      .select('id')
      .where('account_id', '=', account.id)
      .execute();
    expect(devices).toHaveLength(0);
  });

  test('session login refusing a blocked account writes one audit row, as a prohibited one does', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'blockdemo1', password: PASSWORD });
    const client = new Client(app);
    expect(code(await client.signInPassword('blockdemo1', PASSWORD))).toBe(1200);
    // Support blocks the account while the sign-in is in flight.
    await h.db.updateTable('accounts').set({ status: 'blocked' }).where('id', '=', account.id).execute();
    expect(code(await client.sessionLogin())).toBe(1403);
    const rows = await h.db
      .selectFrom('audit_events')
      .select(['event', 'journey_id'])
      .where('account_id', '=', account.id)
      .where('event', '=', 'sign-in-failed')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.journey_id).not.toBeNull();
  });

  test('a step-up code sent near the end of its journey is accepted moments later and counts no wrong try', async () => {
    const { app, ctx } = await h.start({ LOGIN_FLOW_MINUTES: '30' });
    const account = await factorAccount(ctx, 'latedemo1', demoContacts('latedemo1', h.clock.now()), {
      secondFactor: false,
    });
    const client = new Client(app);
    await client.signIn('latedemo1', PASSWORD);
    // The portal reads the OTP screen (this opens the step-up journey); the customer is slow.
    const email = (await contacts(client)).email[0]!.value;
    h.clock.advance(29 * 60_000);
    expect(code(await sendEmail(client, email))).toBe(1200);
    const right = (await latestMessage(ctx.db, 'latedemo1@example.com')).code!;
    // Two minutes later, well inside the code's 30 minutes and the session's limits.
    h.clock.advance(2 * 60_000);
    const r = await check(client, 'email', right);
    expect(code(r)).toBe(1200);
    const counters = await h.db
      .selectFrom('otp_counters')
      .select('wrong_tries')
      .where('account_id', '=', account.id)
      .where('channel', '=', 'factor:email')
      .executeTakeFirst();
    expect(counters?.wrong_tries ?? 0).toBe(0);
  });

  // --- attacks that held (coverage the suites lack) ------------------------------------------------

  test('held: two factors completed at once on one step-up journey rotate the session once', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'twofact01', demoContacts('twofact01', h.clock.now()), {
      secondFactor: false,
    });
    const client = new Client(app);
    await client.signIn('twofact01', PASSWORD);
    const list = await contacts(client);
    expect(code(await sendSms(client, list.phone[0]!.value))).toBe(1200);
    expect(code(await sendEmail(client, list.email[0]!.value))).toBe(1200);
    const sms = (await latestMessage(ctx.db, NUMBER)).code!;
    const email = (await latestMessage(ctx.db, 'twofact01@example.com')).code!;
    const a = tab(app, client);
    const b = tab(app, client);
    const answers = await Promise.all([check(a, 'sms', sms), check(b, 'email', email)]);
    expect(answers.map(code).filter((c) => c === 1200)).toHaveLength(1);
    const winner = code(answers[0]!) === 1200 ? a : b;
    expect(code(await winner.session())).toBe(1200);
    expect(await liveSessions(account.id)).toHaveLength(1);
    expect(await auditCount(account.id, 'step-up')).toBe(1);
  });

  test('held: 100 session logins at once on one login journey sign in once', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'burstdemo1', password: PASSWORD });
    const client = new Client(app);
    expect(code(await client.signInPassword('burstdemo1', PASSWORD))).toBe(1200);
    const answers = await Promise.all(Array.from({ length: 100 }, () => tab(app, client).sessionLogin()));
    expect(answers.map(code).filter((c) => c === 1200)).toHaveLength(1);
    expect(await liveSessions(account.id)).toHaveLength(1);
    expect(await auditCount(account.id, 'sign-in')).toBe(1);
  });

  test('held: the right recovery code 60 times at once confirms once; a journey confirmed, then expired, is not consumed', async () => {
    const { app, ctx } = await h.start({ RECOVERY_FLOW_MINUTES: '10' });
    const account = await createAccount(ctx, { username: 'burstdemo2', password: PASSWORD });
    const client = new Client(app);
    expect(code(await client.post(api(paths.identifyUsername), { username: 'burstdemo2' }))).toBe(1200);
    const masked = json<{ email: Array<{ value: string }> }>(
      await client.get(`${api(paths.identityAttributes)}?attributes=email`),
    ).successData!.email[0]!.value;
    expect(code(await sendEmail(client, masked))).toBe(1200);
    const right = await latestCode(ctx.db, 'burstdemo2@example.com');
    const answers = await Promise.all(Array.from({ length: 60 }, () => checkCode(tab(app, client), right)));
    expect(answers.map(code).filter((c) => c === 1200)).toHaveLength(1);
    expect(await auditCount(account.id, 'recovery-confirmed')).toBe(1);
    h.clock.advance(10 * 60_000);
    expect((await putPassword(client, { newPassword: NEW })).statusCode).toBe(401);
  });

  test('held: 50 first step-up calls at once share one step-up journey', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'burstdemo3', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('burstdemo3', PASSWORD);
    const session = (await ctx.sessions.load(client.cookies.get('ET')))!;
    const opened = await Promise.all(Array.from({ length: 50 }, () => ctx.journeys.openStepUp(session)));
    expect(new Set(opened.map((j) => j.id)).size).toBe(1);
    // A login journey's token is no session, and a session's token is no login journey.
    expect(await ctx.journeys.byToken('login', client.cookies.get('ET'))).toBeNull();
    expect(sha256(client.cookies.get('ET')!)).toBe(session.id);
  });
  test('held: a factor code crosses no journey: login code refused in a step-up and in another browser of the account', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'crossdemo1', demoContacts('crossdemo1', h.clock.now()));
    const one = await atFactor(app, 'crossdemo1');
    const two = await atFactor(app, 'crossdemo1');
    expect(code(await sendSms(one, (await contacts(one)).phone[0]!.value))).toBe(1200);
    const forOne = (await latestMessage(ctx.db, NUMBER)).code!;
    // Another login journey of the same account, and a recovery journey of the same browser.
    expect(code(await check(two, 'sms', forOne))).toBe(1428);
    expect(code(await checkCode(one, forOne))).not.toBe(1200);
    // The code still works for its own journey (a refused crossing does not spend it).
    expect(code(await check(one, 'sms', forOne))).toBe(1200);
    // And a signed-in session's step-up: the login code, now used, is refused there too.
    expect(code(await check(one, 'sms', forOne))).not.toBe(1200);
    expect(await liveSessions(account.id)).toHaveLength(1);
  });
});
