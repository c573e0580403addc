import { paths } from '@gatehouse/contract';
import { type KyselyPlugin, PostgresQueryCompiler } from 'kysely';
import { describe, expect, test } from 'vitest';
import { prepared } from './support/device.ts';
import { api, Client, code, createAccount, json, targets, useHarness } from './support/harness.ts';
import { attributes, identify, maskedEmail, sendCode } from './support/recovery.ts';

/**
 * The two locks a stranger could chain (issue 22, finding 8 and build point 7;
 * docs/decisions/034-locks-a-stranger-can-chain.md): six wrong passwords locked the owner's sign-in
 * and four recovery sends locked recovery for a day, twelve requests in all. The owner's own
 * browser is a client of its own at the password step and lifts a lock that wrong passwords
 * caused; a completed sign-in lifts the recovery lock. Brute force is still stopped: strangers
 * together get LOGIN_LOCKOUT_FAILURES tries, the owner's browser as many more, and no more.
 */

const PASSWORD = 'Harbor7Lights';
const WRONG = 'Wrong9Password';
const LIMIT = 6;

describe.each(targets)('the locks a stranger can chain ($name)', (target) => {
  const h = useHarness(target);

  const accountRow = (username: string) =>
    h.db
      .selectFrom('accounts')
      .select(['status', 'failed_logins'])
      .where('username_key', '=', username)
      .executeTakeFirstOrThrow();
  const lifted = (accountId: string) =>
    h.db
      .selectFrom('audit_events')
      .select('detail')
      .where('account_id', '=', accountId)
      .where('event', '=', 'lock-lifted')
      .orderBy('at')
      .execute();

  test('twelve requests from a stranger no longer lock the owner out of sign-in and recovery; 100 strangers at once still get only LOGIN_LOCKOUT_FAILURES tries', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: String(LIMIT) });
    const account = await createAccount(ctx, { username: 'chainowner1', password: PASSWORD });
    // The owner has signed in on this browser before (and signed out).
    const owner = new Client(app, { remoteAddress: '198.51.100.20' });
    await owner.signIn('chainowner1', PASSWORD);
    expect((await owner.delete(api(paths.sessionLogout))).statusCode).toBe(204);

    // The chain: six wrong passwords, then recovery opened and four codes sent without entry.
    const stranger = new Client(app, { remoteAddress: '203.0.113.9' });
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++) answers.push(code(await stranger.signInPassword('chainowner1', WRONG)));
    expect(answers).toEqual([1403, 1403, 1403, 1403, 1403, 1203]);
    expect(await accountRow('chainowner1')).toEqual({ status: 'locked', failed_logins: LIMIT });
    expect(code(await identify(stranger, 'chainowner1'))).toBe(1200);
    const masked = await maskedEmail(stranger);
    const sends: number[] = [];
    for (let i = 0; i < 4; i++) sends.push(code(await sendCode(stranger, masked)));
    expect(sends).toEqual([1200, 1200, 1200, 1491]);

    // Both locks hold for every other browser: the right password from a new one is the lockout.
    const newBrowser = new Client(app, { remoteAddress: '198.51.100.21' });
    expect(code(await newBrowser.signInPassword('chainowner1', PASSWORD))).toBe(1203);
    expect(code(await identify(newBrowser, 'chainowner1'))).toBe(1200);
    expect(code(await sendCode(newBrowser, masked))).toBe(1491);

    // The owner's own browser signs in at once, and that lifts both locks.
    expect(code(await owner.signInPassword('chainowner1', PASSWORD))).toBe(1200);
    expect(code(await owner.sessionLogin())).toBe(1200);
    expect((await owner.session()).statusCode).toBe(200);
    expect(await accountRow('chainowner1')).toEqual({ status: 'active', failed_logins: 0 });
    expect((await lifted(account.id)).map((r) => r.detail)).toEqual([
      { lock: 'password', by: 'known device' },
      { lock: 'recovery', by: 'sign-in' },
    ]);
    // Recovery works again, from any browser (once the per-account send rate's 15 minutes have passed).
    h.clock.advance(16 * 60_000);
    const elsewhere = new Client(app, { remoteAddress: '198.51.100.22' });
    expect(code(await identify(elsewhere, 'chainowner1'))).toBe(1200);
    expect(code(await attributes(elsewhere))).toBe(1200);
    expect(code(await sendCode(elsewhere, masked))).toBe(1200);
    expect(code(await elsewhere.signInPassword('chainowner1', PASSWORD))).toBe(1200);

    // A real brute force is still stopped: 100 strangers at once (the right password among them
    // after the lock) get LOGIN_LOCKOUT_FAILURES tries in all, and the owner's session ends.
    const signedIn = new Client(app, { remoteAddress: '198.51.100.23' });
    await signedIn.signIn('chainowner1', PASSWORD);
    const burst = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        new Client(app, { remoteAddress: `203.0.113.${i + 100}` }).signInPassword('chainowner1', WRONG),
      ),
    );
    const burstAnswers = burst.map(code);
    expect(burstAnswers.filter((c) => c === 1203)).toHaveLength(1);
    expect(burstAnswers.filter((c) => c === 1403)).toHaveLength(99);
    expect(await accountRow('chainowner1')).toEqual({ status: 'locked', failed_logins: LIMIT });
    expect((await signedIn.session()).statusCode).toBe(401);
    expect(code(await new Client(app).signInPassword('chainowner1', PASSWORD))).toBe(1203);
  });

  test("the owner's browser counts its own wrong passwords; a burst of 100 from it gets LOGIN_LOCKOUT_FAILURES of its own, as many on the account, then the lock", async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: String(LIMIT) });
    const account = await createAccount(ctx, { username: 'chainowner3', password: PASSWORD });
    const browser = new Client(app);
    await browser.signIn('chainowner3', PASSWORD);
    expect((await browser.delete(api(paths.sessionLogout))).statusCode).toBe(204);
    // A few typos on the owner's browser are its own: the account's count does not move.
    for (let i = 0; i < LIMIT - 1; i++) {
      expect(code(await browser.signInPassword('chainowner3', WRONG))).toBe(1403);
    }
    expect(await accountRow('chainowner3')).toEqual({ status: 'active', failed_logins: 0 });
    expect(code(await browser.signInPassword('chainowner3', PASSWORD))).toBe(1200);
    // Strangers' failures still count on the account.
    const stranger = new Client(app, { remoteAddress: '203.0.113.50' });
    for (let i = 0; i < 2; i++) await stranger.signInPassword('chainowner3', WRONG);
    expect(await accountRow('chainowner3')).toEqual({ status: 'active', failed_logins: 2 });
    expect(code(await new Client(app).signInPassword('chainowner3', PASSWORD))).toBe(1200);

    // Someone at the owner's browser guessing: 100 wrong passwords at once.
    await browser.get(api(paths.health));
    const attempt = prepared(app, browser, api(paths.passwordAuthentication), {
      username: 'chainowner3',
      password: WRONG,
    });
    const answers = (await Promise.all(Array.from({ length: 100 }, () => attempt()))).map(code);
    // Six on the browser's own count (after which it is no longer known), six on the account's.
    expect(answers.filter((c) => c === 1203)).toHaveLength(1);
    expect(answers.filter((c) => c === 1403)).toHaveLength(99);
    expect(await accountRow('chainowner3')).toEqual({ status: 'locked', failed_logins: LIMIT });
    const guessed = await h.db
      .selectFrom('audit_events')
      .select('event')
      .where('account_id', '=', account.id)
      .where('event', 'in', ['sign-in-failed', 'lockout'])
      .execute();
    expect(guessed).toHaveLength(LIMIT - 1 + 2 + 100);
    expect(code(await browser.signInPassword('chainowner3', PASSWORD))).toBe(1203);

    // A lock that wrong passwords did not cause (support, a fraud report) is not the browser's to lift.
    await createAccount(ctx, { username: 'chainowner5', password: PASSWORD });
    const other = new Client(app);
    await other.signIn('chainowner5', PASSWORD);
    await h.db
      .updateTable('accounts')
      .set({ status: 'locked' })
      .where('username_key', '=', 'chainowner5')
      .execute();
    expect(code(await other.signInPassword('chainowner5', PASSWORD))).toBe(1203);
    // Nor is one that follows a failures lock support lifted (the flag left behind, the count cleared).
    await h.db
      .updateTable('accounts')
      .set({ status: 'locked', locked_by_failures: true, failed_logins: 0 })
      .where('username_key', '=', 'chainowner5')
      .execute();
    expect(code(await other.signInPassword('chainowner5', PASSWORD))).toBe(1203);
  });
});

describe.each(targets)('the password step: known and unknown usernames ($name)', (target) => {
  const h = useHarness(target);

  test('a wrong password for a known username and any password for an unknown one run the same statements', async () => {
    const statements: string[] = [];
    const compiler = new PostgresQueryCompiler();
    const recorder: KyselyPlugin = {
      transformQuery(args) {
        statements.push(compiler.compileQuery(args.node, args.queryId).sql);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const { app, ctx } = await h.start({}, { db: h.db.withPlugin(recorder) });
    await createAccount(ctx, { username: 'timinguser1', password: PASSWORD });
    const client = new Client(app);
    await client.get(api(paths.health));
    const run = async (username: string) => {
      statements.length = 0;
      const r = await client.signInPassword(username, WRONG);
      expect(code(r)).toBe(1403);
      return [...statements];
    };
    const known = await run('timinguser1');
    const unknown = await run('timinguser9');
    // The rate limits with the account and its known device, then the count (issue 25).
    expect(known).toHaveLength(2);
    expect(unknown).toEqual(known);
    // The answers are the same too (the request id aside).
    const a = json(await client.signInPassword('timinguser1', WRONG));
    const b = json(await client.signInPassword('timinguser9', WRONG));
    expect({ ...a, responseBaseInfo: a.responseBaseInfo.status }).toEqual({
      ...b,
      responseBaseInfo: b.responseBaseInfo.status,
    });
  });
});
