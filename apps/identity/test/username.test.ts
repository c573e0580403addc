import { paths, usernameStatus } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
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

const PASSWORD = 'Harbor7Lights';
const WRONG = 'Harbor7Lightz';
const url = api(paths.changeUsername);

const change = (client: Client, username: string, password = PASSWORD) =>
  client.request({ method: 'PUT', url, body: { username, password } });

describe.each(targets)('change username ($name)', (target) => {
  const h = useHarness(target);

  const account = (id: string) =>
    h.db
      .selectFrom('accounts')
      .select(['username', 'username_key', 'require_username_update', 'failed_logins', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  test('forced update in the login transaction: 1200, then session login completes; the old name no longer signs in', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, {
      username: 'forceupd01',
      password: PASSWORD,
      requireUsernameUpdate: true,
    });
    const client = new Client(app);
    expect(code(await client.signInPassword('forceupd01', PASSWORD))).toBe(1200);
    const login = await client.sessionLogin();
    expect(code(login)).toBe(1202);
    expect(json(login).callbacks).toEqual([{ name: 'PASSWORD', type: 'SETUP' }]);

    const r = await change(client, 'NewName42');
    expect(r.statusCode).toBe(200);
    const body = json<{ username: string }>(r);
    expect(body.responseBaseInfo.status).toEqual({ code: 1200, message: "You've changed your username" });
    expect(body.successData).toEqual({ username: 'NewName42' });
    expect(body.errorType).toBeUndefined();
    expect(await account(row.id)).toMatchObject({
      username: 'NewName42',
      username_key: 'newname42',
      require_username_update: false,
    });

    // The same login transaction continues and completes.
    const done = await client.sessionLogin();
    expect(code(done)).toBe(1200);
    expect(json(done).callbacks).toBeUndefined();
    expect(json(done).successData).toMatchObject({ authenticated: true, username: 'NewName42' });
    expect((await client.session()).statusCode).toBe(200);

    expect(code(await new Client(app).signInPassword('forceupd01', PASSWORD))).toBe(1403);
    expect(code(await new Client(app).signInPassword('newname42', PASSWORD))).toBe(1200);
    expect(code(await new Client(app).signInPassword('NEWNAME42', PASSWORD))).toBe(1200);
  });

  test('after a forced update session login says what is still due: a second factor, an expired password', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, {
      username: 'forcefac01',
      password: PASSWORD,
      requireUsernameUpdate: true,
      secondFactor: true,
    });
    await createAccount(ctx, {
      username: 'forceexp01',
      password: PASSWORD,
      requireUsernameUpdate: true,
      passwordState: 'temporary',
    });
    const factor = new Client(app);
    await factor.signInPassword('forcefac01', PASSWORD);
    expect(code(await change(factor, 'factorName7'))).toBe(1200);
    expect(code(await factor.sessionLogin())).toBe(1201);
    expect((await factor.session()).statusCode).toBe(401);

    const expired = new Client(app);
    await expired.signInPassword('forceexp01', PASSWORD);
    const before = await expired.sessionLogin();
    expect(json(before).callbacks).toEqual([
      { name: 'PASSWORD', type: 'EXPIRED' },
      { name: 'PASSWORD', type: 'SETUP' },
    ]);
    expect(code(await change(expired, 'expiredName7'))).toBe(1200);
    const after = await expired.sessionLogin();
    expect(code(after)).toBe(1202);
    expect(json(after).callbacks).toEqual([{ name: 'PASSWORD', type: 'EXPIRED' }]);
  });

  test('a signed-in change: 1200, and the new name signs in', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    expect(code(await change(client, '  Harbour2go '))).toBe(1200);
    expect(await account(row.id)).toMatchObject({ username: 'Harbour2go', username_key: 'harbour2go' });
    expect(json(await client.session()).successData).toMatchObject({ username: 'Harbour2go' });
    expect(code(await new Client(app).signInPassword('alexdemo1', PASSWORD))).toBe(1403);
    await new Client(app).signIn('harbour2go', PASSWORD);
  });

  test('401 (4401) without a session that may change the username', async () => {
    const { app, ctx } = await h.start();
    const plain = await createAccount(ctx, { username: 'plainuser1', password: PASSWORD });
    await createAccount(ctx, { username: 'factorusr1', password: PASSWORD, secondFactor: true });

    const body = expectFailureEnvelope(await change(new Client(app), 'NewName42'), 401, 4401);
    expect(body.responseBaseInfo.status.message).toBe('Your session has ended. Please sign in again.');

    // A login transaction of an account without a forced update.
    const transaction = new Client(app);
    await transaction.signInPassword('plainuser1', PASSWORD);
    expectFailureEnvelope(await change(transaction, 'NewName42'), 401, 4401);

    // A login transaction waiting for its second factor.
    const factor = new Client(app);
    await factor.signInPassword('factorusr1', PASSWORD);
    expect(code(await factor.sessionLogin())).toBe(1201);
    expectFailureEnvelope(await change(factor, 'NewName42'), 401, 4401);

    // Signed out.
    const out = new Client(app);
    await out.signIn('plainuser1', PASSWORD);
    await out.delete(api(paths.sessionLogout));
    expectFailureEnvelope(await change(out, 'NewName42'), 401, 4401);

    expect((await account(plain.id)).username).toBe('plainuser1');
  });

  test('a wrong current password: 1403 "Incorrect password", counted with failed logins; at the lockout 1203 and the sessions end', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '3' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const other = new Client(app);
    await other.signIn('alexdemo1', PASSWORD);

    const wrong = await change(client, 'NewName42', WRONG);
    expect(expectFailureEnvelope(wrong, 200, 1403).responseBaseInfo.status.message).toBe(
      'Incorrect password',
    );
    expect(await account(row.id)).toMatchObject({
      failed_logins: 1,
      status: 'active',
      username: 'alexdemo1',
    });

    // The same counter as password authentication.
    expect(code(await new Client(app).signInPassword('alexdemo1', WRONG))).toBe(1403);
    expect((await account(row.id)).failed_logins).toBe(2);

    const locked = await change(client, 'NewName42', WRONG);
    expect(expectFailureEnvelope(locked, 200, 1203).responseBaseInfo.status.message).toBe(
      "You've made too many login attempts. For security reasons, you'll need to reset your password.",
    );
    expect(await account(row.id)).toMatchObject({
      failed_logins: 3,
      status: 'locked',
      username: 'alexdemo1',
    });
    expect(client.cookies.has('ET')).toBe(false);
    expect((await client.session()).statusCode).toBe(401);
    expect((await other.session()).statusCode).toBe(401);
    expect(code(await new Client(app).signInPassword('alexdemo1', PASSWORD))).toBe(1203);
  });

  test('a right current password resets the failure count', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '3' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    await change(client, 'NewName42', WRONG);
    await change(client, 'NewName42', WRONG);
    expect((await account(row.id)).failed_logins).toBe(2);
    expect(code(await change(client, 'NewName42'))).toBe(1200);
    expect((await account(row.id)).failed_logins).toBe(0);
  });

  test('the username rules of the checklist: 1481, 1482, 1484, 1483, 1485 with the spec messages; nothing changes', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const cases: Array<[string, number, string]> = [
      ['short1a', 1481, 'Username must contain a minimum of 8 characters.'],
      ['waytoolongname99', 1482, 'Username contains more than maximum characters allowed.'],
      ['alex.demo1', 1484, 'Username contains invalid character.'],
      ['a13579246', 1483, 'Username must contain alpha characters'],
      [
        'alexx12345',
        1485,
        'Your new username did not meet all of the security guidelines. Please try again.',
      ],
      [
        'alexxxxxdemo',
        1485,
        'Your new username did not meet all of the security guidelines. Please try again.',
      ],
      [
        'harbor7lig',
        1485,
        'Your username cannot share more than 5 consecutive characters with your password.',
      ],
    ];
    for (const [username, expected, message] of cases) {
      // The server answers what the on-screen checklist's function says.
      expect(usernameStatus(username, PASSWORD), username).toBe(expected);
      const r = await change(client, username);
      expect(r.statusCode, username).toBe(200);
      expect(json(r).responseBaseInfo.status, username).toEqual({ code: expected, message });
      expect(json(r).errorType, username).toBe('APPLICATION_ERROR');
    }
    expect(await account(row.id)).toMatchObject({ username: 'alexdemo1', failed_logins: 0 });
  });

  test('the rules are checked after the password: a wrong password with a bad name is 1403', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    expect(code(await change(client, 'short', WRONG))).toBe(1403);
  });

  test('a taken username, in any case, or the current one: 1474', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'takenname1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    for (const username of ['takenname1', 'TakenName1', 'ALEXDEMO1']) {
      const r = await change(client, username);
      expect(expectFailureEnvelope(r, 200, 1474).responseBaseInfo.status.message).toBe(
        'The username you entered is already taken. Please try another one.',
      );
    }
    expect(code(await new Client(app).signInPassword('alexdemo1', PASSWORD))).toBe(1200);
  });

  test('simultaneous changes to the same new name: exactly one 1200, the others 1474', async () => {
    const { app, ctx } = await h.start();
    const clients: Client[] = [];
    for (const username of ['racerone1', 'racertwo1', 'racerthree1']) {
      await createAccount(ctx, { username, password: PASSWORD });
      const client = new Client(app);
      await client.signIn(username, PASSWORD);
      clients.push(client);
    }
    const answers = await Promise.all(
      clients.map((c, i) => change(c, ['Winner2go', 'winner2go', 'WINNER2GO'][i]!)),
    );
    expect(answers.map(code).sort()).toEqual([1200, 1474, 1474]);
    const owners = await h.db
      .selectFrom('accounts')
      .select('username')
      .where('username_key', '=', 'winner2go')
      .execute();
    expect(owners.length).toBe(1);
  });

  test('CSRF and the contract: 403 without the header, 400 without the password', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    expectFailureEnvelope(
      await client.request({
        method: 'PUT',
        url,
        body: { username: 'NewName42', password: PASSWORD },
        csrf: false,
      }),
      403,
      4403,
    );
    const r = await client.request({ method: 'PUT', url, body: { username: 'NewName42' } });
    expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
      'The request is not valid: password: is required',
    );
  });
});
