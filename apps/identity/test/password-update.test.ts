import { describe, expect, test } from 'vitest';
import { commonPasswordCount, isCommonPassword } from '../src/lib/common-passwords.ts';
import {
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  targets,
  useHarness,
} from './support/harness.ts';
import {
  atCodeStep,
  confirmed,
  identify,
  passwordStatus,
  postPassword,
  putPassword,
} from './support/recovery.ts';

const PASSWORD = 'Harbor7Lights';
const NEW = 'Maple4Canyon';
const SUPPORT = 'loginsupport@primeservices.example';
const notConfirmed = 'Cannot access this page without OTP confirmation';

describe('common-password list', () => {
  test('a data file of a few thousand entries, compared lower-cased', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(3000);
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword('passw0rd')).toBe(true);
    expect(isCommonPassword('maple4canyon')).toBe(false);
  });
});

describe.each(targets)('password status and update ($name)', (target) => {
  const h = useHarness(target);

  const accountRow = (id: string) =>
    h.db
      .selectFrom('accounts')
      .select(['password_hash', 'password_state', 'status', 'failed_logins', 'password_enrollment_state'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const history = (id: string) =>
    h.db
      .selectFrom('password_history')
      .select(['password_hash', 'created_at'])
      .where('account_id', '=', id)
      .orderBy('created_at', 'desc')
      .execute();

  test('password status after a confirmed code: 1200 normal, 1205 expired, 1201 temporary, 1203 locked', async () => {
    const { app, ctx } = await h.start();
    const cases: Array<[string, Parameters<typeof createAccount>[1], number, string]> = [
      ['normal001', { username: 'normal001', password: PASSWORD }, 1200, 'Success'],
      [
        'expired01',
        { username: 'expired01', password: PASSWORD, passwordState: 'expired' },
        1205,
        'Your current password is not strong enough, or has expired.',
      ],
      [
        'temppass01',
        { username: 'temppass01', password: PASSWORD, passwordState: 'temporary' },
        1201,
        'Your password is temporary and must be replaced.',
      ],
      [
        'locked001',
        { username: 'locked001', password: PASSWORD, status: 'locked' },
        1203,
        "You've made too many login attempts. For security reasons, you'll need to reset your password.",
      ],
    ];
    for (const [username, input, expected, message] of cases) {
      await createAccount(ctx, input);
      const client = await confirmed(app, h.db, username);
      const r = await passwordStatus(client, { username });
      expect(r.statusCode).toBe(200);
      expect(json(r).responseBaseInfo.status).toEqual({ code: expected, message });
    }
  });

  test('password status without a confirmed code: 401 "Cannot access this page without OTP confirmation"; another username 1403', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const none = expectFailureEnvelope(await passwordStatus(new Client(app)), 401, 4401);
    expect(none.responseBaseInfo.status.message).toBe(notConfirmed);
    const { client } = await atCodeStep(app, 'alexdemo1');
    expectFailureEnvelope(await passwordStatus(client), 401, 4401);
    expectFailureEnvelope(await putPassword(client, { newPassword: NEW }), 401, 4401);
    expectFailureEnvelope(await postPassword(client, { password: NEW }), 401, 4401);

    const done = await confirmed(app, h.db, 'alexdemo1');
    expect(code(await passwordStatus(done, { username: 'ALEXDEMO1' }))).toBe(1200);
    expect(json(await passwordStatus(done, { username: 'someoneelse' })).responseBaseInfo.status).toEqual({
      code: 1403,
      message: 'The information provided is invalid. Please try again.',
    });
  });

  test('PUT after a confirmed code: 1200; the new password signs in, the old one does not; history, sessions and the flow', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const before = await accountRow(row.id);
    const signedIn = new Client(app);
    await signedIn.signIn('alexdemo1', PASSWORD);

    const client = await confirmed(app, h.db, 'alexdemo1');
    const r = await putPassword(client, { username: 'alexdemo1', newPassword: NEW });
    expect(r.statusCode).toBe(200);
    expect(json(r).responseBaseInfo.status).toEqual({ code: 1200, message: 'Password changed successfully' });
    expect(json(r).errorType).toBeUndefined();

    const after = await accountRow(row.id);
    expect(after.password_hash).toMatch(/^\$argon2id\$/);
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(after).toMatchObject({ password_state: 'ok', status: 'active', failed_logins: 0 });
    expect((await history(row.id)).map((x) => x.password_hash)).toEqual([before.password_hash]);

    // The other session of the account ended; the flow is used up and its cookie cleared.
    expect((await signedIn.session()).statusCode).toBe(401);
    expect(client.cookies.has('GH_RECOVERY')).toBe(false);
    const [flow] = await h.db.selectFrom('journeys').select('state').where('kind', '=', 'recovery').execute();
    expect(flow!.state).toBe('consumed');

    expect(code(await new Client(app).signInPassword('alexdemo1', PASSWORD))).toBe(1403);
    await new Client(app).signIn('alexdemo1', NEW);
  });

  test('one confirmed flow sets one password: a second PUT, or two at once, get 401', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = await confirmed(app, h.db, 'alexdemo1');
    const copy = new Client(app);
    for (const [name, value] of client.cookies) copy.cookies.set(name, value);
    const results = await Promise.all([
      putPassword(client, { newPassword: NEW }),
      putPassword(copy, { newPassword: 'Cedar5Brook' }),
    ]);
    expect(results.map(code).sort()).toEqual([1200, 4401]);
    expectFailureEnvelope(await putPassword(copy, { newPassword: 'River8Stone' }), 401, 4401);
  });

  test('every rule failure is HTTP 400 with the code and its message; nothing changes and the flow stays usable', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await ctx.db
      .updateTable('accounts')
      .set({ birth_date: '1985-07-24', tax_id: '918-27-3645' })
      .where('id', '=', row.id)
      .execute();
    const before = await accountRow(row.id);
    const client = await confirmed(app, h.db, 'alexdemo1');
    const cases: Array<[string, number, string]> = [
      ['Ab1', 1471, 'Password length requirements not met.'],
      ['Maple4CanyonMaple4Can', 1471, 'Password length requirements not met.'],
      ['maple4canyon', 1489, 'Passwords need at least one uppercase letter.'],
      ['MAPLE4CANYON', 1488, 'Passwords need at least one lowercase letter.'],
      ['MapleCanyon', 1487, 'Passwords need at least one number.'],
      ['Maple4 Canyon', 1490, 'Password cannot contain any special characters'],
      ['Maple4Canyon₹', 1490, 'Password cannot contain any special characters'],
      ['Maple4Canyon!', 1490, 'Password cannot contain any special characters'],
      ['Maple111111Cy', 1475, 'Passwords cannot have more than 5 instances of a single number or letter.'],
      ['Maple12345Cy', 1472, 'Passwords cannot have more than 5 sequential numbers.'],
      ['Maple98765Cy', 1472, 'Passwords cannot have more than 5 sequential numbers.'],
      ['Password1', 1486, 'Password is too common.'],
      ['PASSW0RD', 1488, 'Passwords need at least one lowercase letter.'],
      ['Passw0rd', 1486, 'Password is too common.'],
      ['Maple19850724', 1427, "Passwords cannot contain the user's birth date."],
      ['Maple07241985', 1427, "Passwords cannot contain the user's birth date."],
      ['Maple24071985', 1427, "Passwords cannot contain the user's birth date."],
      ['Maple072485x', 1427, "Passwords cannot contain the user's birth date."],
      ['Maple918273645', 1473, "Passwords cannot contain the user's SSN, Tax ID, G number, or username."],
      ['MapleAlexDemo1', 1473, "Passwords cannot contain the user's SSN, Tax ID, G number, or username."],
      ['Maple4Alexd', 1474, 'Passwords cannot share more than 5 characters with usernames.'],
      [PASSWORD, 1450, 'Your new password cannot match any of your 6 previous passwords. Please try again.'],
    ];
    for (const [newPassword, expected, message] of cases) {
      const r = await putPassword(client, { newPassword });
      const body = expectFailureEnvelope(r, 400, expected);
      expect(body.responseBaseInfo.status.message, newPassword).toBe(message);
    }
    // Four characters shared with the username are allowed, and the flow still works.
    expect(code(await putPassword(client, { newPassword: 'Maple4Alex' }))).toBe(1200);
    expect((await accountRow(row.id)).password_hash).not.toBe(before.password_hash);
  });

  test('1450 against the current password and the 6 newest previous ones; a 7th older one is allowed; history keeps 6', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const previous = [
      'Older1Pass',
      'Cedar5Brook',
      'River8Stone',
      'Autumn3Field',
      'Winter6Cloud',
      'Orchid2Vale',
      'Birch9Meadow',
    ];
    // previous[0] is the oldest; six newer ones follow it.
    for (const [i, password] of previous.entries()) {
      await ctx.db
        .insertInto('password_history')
        .values({
          account_id: row.id,
          password_hash: await ctx.hasher.hash(password),
          created_at: new Date(Date.UTC(2024, 0, 1 + i)),
        })
        .execute();
    }
    const client = await confirmed(app, h.db, 'alexdemo1');
    for (const reused of [PASSWORD, ...previous.slice(1)]) {
      expectFailureEnvelope(await putPassword(client, { newPassword: reused }), 400, 1450);
    }
    expect(code(await putPassword(client, { newPassword: previous[0]! }))).toBe(1200);
    const kept = await history(row.id);
    expect(kept).toHaveLength(6);
    // The newest entry is the password just replaced.
    expect(await ctx.hasher.verify(kept[0]!.password_hash, PASSWORD)).toBe(true);
    await new Client(app).signIn('alexdemo1', previous[0]!);
  });

  test('POST { password } replaces a temporary password: enrollment state CREATE, and sign-in completes without callbacks', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, {
      username: 'temppass01',
      password: PASSWORD,
      passwordState: 'temporary',
    });
    const client = await confirmed(app, h.db, 'temppass01');
    expect(code(await passwordStatus(client))).toBe(1201);
    const r = await postPassword(client, { password: NEW });
    expect(json(r).responseBaseInfo.status).toEqual({ code: 1200, message: 'Password changed successfully' });
    expect(await accountRow(row.id)).toMatchObject({
      password_state: 'ok',
      password_enrollment_state: 'CREATE',
    });
    const signIn = new Client(app);
    expect(code(await signIn.signInPassword('temppass01', NEW))).toBe(1200);
    const login = await signIn.sessionLogin();
    expect(code(login)).toBe(1200);
    expect(json(login).callbacks).toBeUndefined();
  });

  test('an expired password reset by PUT: status ok, and session login has no PASSWORD/EXPIRED callback any more', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, {
      username: 'expired01',
      password: PASSWORD,
      passwordState: 'expired',
    });
    const client = await confirmed(app, h.db, 'expired01');
    expect(code(await putPassword(client, { newPassword: NEW }))).toBe(1200);
    expect(await accountRow(row.id)).toMatchObject({ password_state: 'ok', password_enrollment_state: null });
    const signIn = new Client(app);
    expect(code(await signIn.signInPassword('expired01', NEW))).toBe(1200);
    expect(code(await signIn.sessionLogin())).toBe(1200);
  });

  test('a reset unlocks a locked account; a security block stays (1491 with the support address)', async () => {
    const { app, ctx } = await h.start();
    const locked = await createAccount(ctx, { username: 'locked001', password: PASSWORD, status: 'locked' });
    await ctx.db.updateTable('accounts').set({ failed_logins: 6 }).where('id', '=', locked.id).execute();
    const client = await confirmed(app, h.db, 'locked001');
    expect(code(await putPassword(client, { newPassword: NEW }))).toBe(1200);
    expect(await accountRow(locked.id)).toMatchObject({ status: 'active', failed_logins: 0 });
    await new Client(app).signIn('locked001', NEW);

    // Blocked for security after the code was confirmed: the update refuses.
    const other = await createAccount(ctx, { username: 'blocklate1', password: PASSWORD });
    const late = await confirmed(app, h.db, 'blocklate1');
    await ctx.db.updateTable('accounts').set({ status: 'blocked' }).where('id', '=', other.id).execute();
    const r = await putPassword(late, { newPassword: NEW });
    expect(json(r).responseBaseInfo.status).toEqual({
      code: 1491,
      message: `Please contact ${SUPPORT} for assistance (status code 1491).`,
    });
    expect((await accountRow(other.id)).status).toBe('blocked');
  });

  test('POST { username, oldPassword, newPassword } without a code: the old password proves it; a wrong one counts as a failed sign-in', async () => {
    const { app, ctx } = await h.start({ LOGIN_LOCKOUT_FAILURES: '3' });
    const row = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    const wrong = await postPassword(client, {
      username: 'alexdemo1',
      oldPassword: 'Wrong1Pass',
      newPassword: NEW,
    });
    expect(json(wrong).responseBaseInfo.status).toEqual({
      code: 1403,
      message: "You've entered an incorrect username or password. Please try again.",
    });
    expect((await accountRow(row.id)).failed_logins).toBe(1);
    expect(
      code(await postPassword(client, { username: 'nobody0001', oldPassword: PASSWORD, newPassword: NEW })),
    ).toBe(1403);

    // The policy applies here too.
    expectFailureEnvelope(
      await postPassword(client, { username: 'alexdemo1', oldPassword: PASSWORD, newPassword: PASSWORD }),
      400,
      1450,
    );
    const ok = await postPassword(client, { username: 'alexdemo1', oldPassword: PASSWORD, newPassword: NEW });
    expect(code(ok)).toBe(1200);
    expect((await accountRow(row.id)).failed_logins).toBe(0);
    await new Client(app).signIn('alexdemo1', NEW);

    // The lockout of sign-in applies.
    for (let i = 0; i < 2; i++) {
      await postPassword(client, {
        username: 'alexdemo1',
        oldPassword: 'Wrong1Pass',
        newPassword: 'Cedar5Brook',
      });
    }
    const locked = await postPassword(client, {
      username: 'alexdemo1',
      oldPassword: 'Wrong1Pass',
      newPassword: 'Cedar5Brook',
    });
    expect(code(locked)).toBe(1203);
    expect((await accountRow(row.id)).status).toBe('locked');
  });

  test('a signed-in change by old password keeps its own session and ends the others', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const own = new Client(app);
    await own.signIn('alexdemo1', PASSWORD);
    const other = new Client(app);
    await other.signIn('alexdemo1', PASSWORD);
    expect(
      code(await postPassword(own, { username: 'alexdemo1', oldPassword: PASSWORD, newPassword: NEW })),
    ).toBe(1200);
    expect((await own.session()).statusCode).toBe(200);
    expect((await other.session()).statusCode).toBe(401);
  });

  test('the 400 body is the envelope the portal reads; malformed bodies are 4400, not policy codes', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = await confirmed(app, h.db, 'alexdemo1');
    expectFailureEnvelope(await putPassword(client, {}), 400, 4400);
    expectFailureEnvelope(await postPassword(client, { password: NEW, extra: true }), 400, 4400);
    const r = await putPassword(client, { newPassword: 'short' });
    const body = expectFailureEnvelope(r, 400, 1471);
    expect(body.error).toEqual({ code: 1471, message: 'Password length requirements not met.' });
    // A different user's flow cannot set this one's password.
    expect(code(await putPassword(client, { username: 'otheruser1', newPassword: NEW }))).toBe(1403);
    await identify(new Client(app), 'alexdemo1');
  });
});
