import { paths } from '@gatehouse/contract';
import { describe, expect, test, vi } from 'vitest';
import { api, Client, code, createAccount, json, targets, useHarness } from './support/harness.ts';

const PASSWORD = 'Harbor7Lights';
const WRONG = 'Harbor7Lightz';

describe.each(targets)('password authentication ($name)', (target) => {
  const h = useHarness(target);

  const failures = async (username: string) =>
    await h.db
      .selectFrom('accounts')
      .select(['failed_logins', 'status'])
      .where('username', '=', username)
      .executeTakeFirstOrThrow();

  test('right password 1200 and a session cookie; wrong password and unknown user 1403 with equal bodies', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });

    const right = await new Client(app).signInPassword('alexdemo1', PASSWORD);
    expect(right.statusCode).toBe(200);
    expect(code(right)).toBe(1200);
    expect(right.cookies.find((c) => c.name === 'ET')?.value).toBeTruthy();

    const wrong = await new Client(app).signInPassword('alexdemo1', WRONG);
    const unknown = await new Client(app).signInPassword('nobody0001', WRONG);
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(200);
      expect(code(r)).toBe(1403);
      expect(r.cookies.find((c) => c.name === 'ET')).toBeUndefined();
    }
    const strip = (r: typeof wrong) => {
      const body = json(r);
      return { ...body, responseBaseInfo: { ...body.responseBaseInfo, requestId: '' } };
    };
    expect(strip(wrong)).toEqual(strip(unknown));
    expect(json(wrong).responseBaseInfo.requestId).not.toBe(json(unknown).responseBaseInfo.requestId);
    expect(json(wrong).error).toEqual({
      code: 1403,
      message: "You've entered an incorrect username or password. Please try again.",
    });
  });

  test('an account blocked while its password is compared answers as blocked (1401), not as a lockout', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'midblock01', password: PASSWORD });
    const compare = ctx.hasher.verifyOrBurn.bind(ctx.hasher);
    vi.spyOn(ctx.hasher, 'verifyOrBurn').mockImplementation(async (hash, password) => {
      const right = await compare(hash, password);
      // Support blocks the account while the hash runs.
      await h.db
        .updateTable('accounts')
        .set({ status: 'blocked' })
        .where('username', '=', 'midblock01')
        .execute();
      return right;
    });
    const answer = await new Client(app).signInPassword('midblock01', PASSWORD);
    expect(code(answer)).toBe(1401);
    expect(json(answer).redirectPath).toBe('/blocked');
    expect(answer.cookies.find((c) => c.name === 'ET')?.value).toBeFalsy();
    expect(await failures('midblock01')).toEqual({ failed_logins: 0, status: 'blocked' });
  });

  test('a password changed under every compare counts nothing and answers 503 (try again), not a wrong password', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'churning01', password: PASSWORD });
    const hashes = await Promise.all([1, 2, 3].map(() => ctx.hasher.hash(PASSWORD)));
    const compare = ctx.hasher.verifyOrBurn.bind(ctx.hasher);
    vi.spyOn(ctx.hasher, 'verifyOrBurn').mockImplementation(async (hash, password) => {
      const right = await compare(hash, password);
      // The password is changed again (to the same words, a new hash) while each compare runs.
      const next = hashes.shift();
      if (next)
        await h.db
          .updateTable('accounts')
          .set({ password_hash: next })
          .where('username', '=', 'churning01')
          .execute();
      return right;
    });
    const answer = await new Client(app).signInPassword('churning01', PASSWORD);
    expect(answer.statusCode).toBe(503);
    expect(json(answer).error?.code).toBe(5003);
    expect(await failures('churning01')).toEqual({ failed_logins: 0, status: 'active' });
  });

  test('usernames match case-insensitively', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    expect(code(await new Client(app).signInPassword('AlexDemo1', PASSWORD))).toBe(1200);
  });

  test('expired password 1205; temporary password 1200; blocked 1401; closed account 4000', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'expired01', password: PASSWORD, passwordState: 'expired' });
    await createAccount(ctx, { username: 'temppass01', password: PASSWORD, passwordState: 'temporary' });
    await createAccount(ctx, { username: 'blocked01', password: PASSWORD, status: 'blocked' });
    await createAccount(ctx, { username: 'closed001', password: PASSWORD, status: 'disabled' });

    const expired = await new Client(app).signInPassword('expired01', PASSWORD);
    expect(code(expired)).toBe(1205);
    expect(expired.cookies.find((c) => c.name === 'ET')?.value).toBeTruthy();
    expect(code(await new Client(app).signInPassword('temppass01', PASSWORD))).toBe(1200);

    const blocked = await new Client(app).signInPassword('blocked01', PASSWORD);
    expect(code(blocked)).toBe(1401);
    expect(json(blocked).errorType).toBe('APPLICATION_ERROR');
    expect(blocked.cookies.find((c) => c.name === 'ET')).toBeUndefined();
    // The state of an account is only told to someone who knows its password.
    expect(code(await new Client(app).signInPassword('blocked01', WRONG))).toBe(1403);

    const closed = await new Client(app).signInPassword('closed001', PASSWORD);
    expect(code(closed)).toBe(4000);
    expect(json(closed).responseBaseInfo.status.message).toBe(
      "You've entered an incorrect username or password. Please try again.",
    );
  });

  test('a locked account answers 1203 only to the right password', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'locked001', password: PASSWORD, status: 'locked' });
    expect(code(await new Client(app).signInPassword('locked001', WRONG))).toBe(1403);
    const right = await new Client(app).signInPassword('locked001', PASSWORD);
    expect(code(right)).toBe(1203);
    expect(right.cookies.find((c) => c.name === 'ET')).toBeUndefined();
  });

  test('locks after LOGIN_LOCKOUT_FAILURES wrong attempts, and the lock survives a restart', async () => {
    const first = await h.start({ LOGIN_LOCKOUT_FAILURES: '3' });
    await createAccount(first.ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(first.app);
    expect(code(await client.signInPassword('alexdemo1', WRONG))).toBe(1403);
    expect(code(await client.signInPassword('alexdemo1', WRONG))).toBe(1403);
    expect(code(await client.signInPassword('alexdemo1', WRONG))).toBe(1203);
    expect(await failures('alexdemo1')).toEqual({ failed_logins: 3, status: 'locked' });
    expect(code(await client.signInPassword('alexdemo1', PASSWORD))).toBe(1203);
    await first.app.close();

    // A new instance on the same database: still locked.
    const second = await h.start({ LOGIN_LOCKOUT_FAILURES: '3' });
    expect(code(await new Client(second.app).signInPassword('alexdemo1', PASSWORD))).toBe(1203);
  });

  test('locking an account ends its sessions elsewhere', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '2' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const owner = new Client(app);
    await owner.signIn('alexdemo1', PASSWORD);
    expect((await owner.session()).statusCode).toBe(200);
    const attacker = new Client(app, { remoteAddress: '203.0.113.9' });
    expect(code(await attacker.signInPassword('alexdemo1', WRONG))).toBe(1403);
    expect(code(await attacker.signInPassword('alexdemo1', WRONG))).toBe(1203);
    expect((await owner.session()).statusCode).toBe(401);
  });

  test('a right password resets the failure count', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '3' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signInPassword('alexdemo1', WRONG);
    await client.signInPassword('alexdemo1', WRONG);
    expect(code(await client.signInPassword('alexdemo1', PASSWORD))).toBe(1200);
    expect((await failures('alexdemo1')).failed_logins).toBe(0);
    expect(code(await client.signInPassword('alexdemo1', WRONG))).toBe(1403);
    expect(await failures('alexdemo1')).toEqual({ failed_logins: 1, status: 'active' });
  });

  test('8 simultaneous wrong passwords count 8 failures', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '20' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => new Client(app).signInPassword('alexdemo1', WRONG)),
    );
    expect(answers.map(code)).toEqual(Array(8).fill(1403));
    expect(await failures('alexdemo1')).toEqual({ failed_logins: 8, status: 'active' });
  });

  test('8 simultaneous wrong passwords past the lockout limit: the limit compared, the account locked', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '6' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const answers = (
      await Promise.all(Array.from({ length: 8 }, () => new Client(app).signInPassword('alexdemo1', WRONG)))
    ).map(code);
    expect(answers.filter((c) => c === 1403).length).toBeGreaterThanOrEqual(5);
    expect(answers.filter((c) => c === 1203).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((c) => c === 1403 || c === 1203)).toBe(true);
    // Each attempt reserves its place before the hash is compared: no more than the limit are.
    expect(await failures('alexdemo1')).toEqual({ failed_logins: 6, status: 'locked' });
  });

  test('passwords are stored as argon2id with the default parameters', async () => {
    const { ctx } = await h.start({ ARGON2_MEMORY_KIB: '', ARGON2_ITERATIONS: '' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    expect(row.password_hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(await ctx.hasher.verify(row.password_hash, PASSWORD)).toBe(true);
    expect(await ctx.hasher.verify(row.password_hash, WRONG)).toBe(false);
  });

  test('the request is checked against the contract', async () => {
    const { app } = await h.start();
    const r = await new Client(app).post(api(paths.passwordAuthentication), { username: 'alexdemo1' });
    expect(r.statusCode).toBe(400);
    expect(json(r).responseBaseInfo.status).toEqual({
      code: 4400,
      message: 'The request is not valid: password: is required',
    });
  });
});
