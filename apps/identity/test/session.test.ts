import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  productionMail,
  productionSecret,
  setCookieLine,
  targets,
  useHarness,
} from './support/harness.ts';

const PASSWORD = 'Harbor7Lights';
const HOUR = 3_600_000;

describe.each(targets)('session login ($name)', (target) => {
  const h = useHarness(target);

  test('a password-only account: 1200 with no callbacks, authenticated', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    expect(code(await client.signInPassword('alexdemo1', PASSWORD))).toBe(1200);
    const login = await client.sessionLogin();
    expect(login.statusCode).toBe(200);
    const body = json<{ authenticated: boolean; username: string }>(login);
    expect(body.responseBaseInfo.status).toEqual({ code: 1200, message: 'User authenticated' });
    expect(body.callbacks).toBeUndefined();
    expect(body.errorType).toBeUndefined();
    expect(body.successData).toMatchObject({ authenticated: true, username: 'alexdemo1' });

    const guard = await client.session();
    expect(guard.statusCode).toBe(200);
    expect(code(guard)).toBe(1200);
    expect(json(guard).successData).toMatchObject({ authenticated: true, username: 'alexdemo1' });
  });

  test('expired and temporary passwords: 1202 with PASSWORD/EXPIRED; forced username update: PASSWORD/SETUP', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'expired01', password: PASSWORD, passwordState: 'expired' });
    await createAccount(ctx, { username: 'temppass01', password: PASSWORD, passwordState: 'temporary' });
    await createAccount(ctx, { username: 'forceupd01', password: PASSWORD, requireUsernameUpdate: true });
    for (const [username, first, callback] of [
      ['expired01', 1205, { name: 'PASSWORD', type: 'EXPIRED' }],
      ['temppass01', 1200, { name: 'PASSWORD', type: 'EXPIRED' }],
      ['forceupd01', 1200, { name: 'PASSWORD', type: 'SETUP' }],
    ] as const) {
      const client = new Client(app);
      expect(code(await client.signInPassword(username, PASSWORD))).toBe(first);
      const login = await client.sessionLogin();
      expect(code(login), username).toBe(1202);
      expect(json(login).callbacks, username).toEqual([callback]);
      expect(json(login).successData).toMatchObject({ authenticated: false });
      // Not signed in: the route guard refuses.
      expect((await client.session()).statusCode).toBe(401);
    }
  });

  test('an account with a second factor due: 1201, not signed in', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'otponly01', password: PASSWORD, secondFactor: true });
    const client = new Client(app);
    await client.signInPassword('otponly01', PASSWORD);
    const login = await client.sessionLogin();
    expect(code(login)).toBe(1201);
    expect(json(login).successData).toMatchObject({ authenticated: false });
    expect(json(login).callbacks).toBeUndefined();
    expect(code(await client.sessionLogin())).toBe(1201);
    expect((await client.session()).statusCode).toBe(401);
  });

  test('no login transaction: 401 envelope with code 1401', async () => {
    const { app } = await h.start();
    const login = await new Client(app).sessionLogin();
    const body = expectFailureEnvelope(login, 401, 1401);
    expect(body.responseBaseInfo.status.message).toBe('Please try logging in again.');
  });

  test('an account blocked after the password step: 1403 and the transaction ends', async () => {
    const { app, ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signInPassword('alexdemo1', PASSWORD);
    await h.db.updateTable('accounts').set({ status: 'blocked' }).where('id', '=', account.id).execute();
    expect(code(await client.sessionLogin())).toBe(1403);
    expectFailureEnvelope(await client.sessionLogin(), 401, 1401);
  });

  test('the session cookie ET: HttpOnly, Path=/, SameSite=Lax, not Secure in development', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    const password = await client.signInPassword('alexdemo1', PASSWORD);
    const login = await client.sessionLogin();
    for (const r of [password, login]) {
      const et = setCookieLine(r, 'ET')!;
      expect(et).toBeDefined();
      expect(et).toMatch(/; HttpOnly/);
      expect(et).toMatch(/; Path=\/(;|$)/);
      expect(et).toMatch(/; SameSite=Lax/);
      expect(et).not.toMatch(/; Secure/);
      // The CSRF cookie is readable by the page; the session cookie is not.
      expect(setCookieLine(r, 'XSRF-TOKEN')).not.toMatch(/HttpOnly/);
    }
  });

  test('the session cookie is Secure with COOKIE_SECURE=true and in production mode', async () => {
    const envs: Array<Record<string, string>> = [
      { COOKIE_SECURE: 'true' },
      {
        NODE_ENV: 'production',
        SESSION_SECRET: productionSecret,
        ...productionMail,
      },
    ];
    for (const env of envs) {
      const { app, ctx } = await h.start(env);
      await createAccount(ctx, { username: `alex${env.NODE_ENV ? 'prod' : 'sec'}01`, password: PASSWORD });
      const client = new Client(app);
      const r = await client.signInPassword(`alex${env.NODE_ENV ? 'prod' : 'sec'}01`, PASSWORD);
      expect(code(r)).toBe(1200);
      // Production gives the HttpOnly cookies the __Host- prefix (COOKIE_HOST_PREFIX).
      const session = env.NODE_ENV ? '__Host-ET' : 'ET';
      expect(setCookieLine(r, session)).toMatch(/; Secure/);
      expect(setCookieLine(r, session)).toMatch(/; HttpOnly/);
      expect(setCookieLine(r, 'XSRF-TOKEN')).toMatch(/; Secure/);
    }
  });

  test('__Host- cookies: Secure, Path=/, no Domain; the prefixed session works and the plain name is ignored', async () => {
    const { app, ctx } = await h.start({ COOKIE_SECURE: 'true', COOKIE_HOST_PREFIX: 'true' });
    await createAccount(ctx, { username: 'alexhost01', password: PASSWORD });
    const client = new Client(app);
    const r = await client.signInPassword('alexhost01', PASSWORD);
    const first = await new Client(app).get(api(paths.health));
    for (const [name, line] of [
      ['__Host-ET', setCookieLine(r, '__Host-ET')],
      ['__Host-GH_DEVICE', setCookieLine(first, '__Host-GH_DEVICE')],
    ] as const) {
      expect(line, name).toMatch(/; Secure/);
      expect(line, name).toMatch(/; Path=\//);
      expect(line, name).not.toMatch(/Domain=/i);
    }
    expect(setCookieLine(r, 'ET')).toBeUndefined();
    expect(code(await client.sessionLogin())).toBe(1200);
    // A cookie planted under the plain name (by a sibling subdomain) is not a session.
    const planted = new Client(app);
    await planted.get(api(paths.health));
    planted.cookies.set('ET', client.cookies.get('__Host-ET')!);
    expect((await planted.session()).statusCode).toBe(401);
    // The prefix needs Secure cookies.
    expect(() => loadConfig({ COOKIE_HOST_PREFIX: 'true' })).toThrow(
      /^Invalid setting COOKIE_HOST_PREFIX: the __Host- prefix needs Secure cookies/,
    );
  });

  test('a new token at sign-in: the password-step token no longer works', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signInPassword('alexdemo1', PASSWORD);
    const before = client.cookies.get('ET')!;
    await client.sessionLogin();
    const after = client.cookies.get('ET')!;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect((await client.session()).statusCode).toBe(200);

    // A client holding the pre-sign-in token is not signed in, and cannot continue the transaction.
    const stale = new Client(app);
    stale.cookies.set('ET', before);
    expectFailureEnvelope(await stale.session(), 401, 4401);
    expectFailureEnvelope(await stale.sessionLogin(), 401, 1401);
  });

  test('the token is not stored: the session row is keyed by its hash', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const token = client.cookies.get('ET')!;
    const rows = await h.db.selectFrom('sessions').select('id').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.id).not.toContain(token);
  });

  test('logout: 204, then the session is refused, even with the old token', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const token = client.cookies.get('ET')!;
    const logout = await client.delete(api(paths.sessionLogout));
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    expect(client.cookies.has('ET')).toBe(false);
    expectFailureEnvelope(await client.session(), 401, 4401);

    const replay = new Client(app);
    replay.cookies.set('ET', token);
    expectFailureEnvelope(await replay.session(), 401, 4401);
    const row = await h.db.selectFrom('sessions').select(['end_reason']).executeTakeFirstOrThrow();
    expect(row.end_reason).toBe('logout');
  });

  test('logout needs the CSRF header too', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    expectFailureEnvelope(
      await client.request({ method: 'DELETE', url: api(paths.sessionLogout), csrf: false }),
      403,
      4403,
    );
    expect((await client.session()).statusCode).toBe(200);
  });

  test('idle timeout: refused after 4 hours without activity', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    h.clock.advance(4 * HOUR - 60_000);
    expect((await client.session()).statusCode).toBe(200);
    // That request was activity: 3h59 more is still inside the idle limit.
    h.clock.advance(4 * HOUR - 60_000);
    expect((await client.session()).statusCode).toBe(200);
    h.clock.advance(4 * HOUR + 1000);
    expectFailureEnvelope(await client.session(), 401, 4401);
    // Once ended, it stays ended.
    expect((await client.session()).statusCode).toBe(401);
  });

  test('SESSION_IDLE_MINUTES moves the idle limit', async () => {
    const { app, ctx } = await h.start({ SESSION_IDLE_MINUTES: '15' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    h.clock.advance(16 * 60_000);
    expect((await client.session()).statusCode).toBe(401);
  });

  test('absolute timeout: refused after 12 hours even with activity', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    for (let hour = 1; hour < 12; hour++) {
      h.clock.advance(HOUR);
      expect((await client.session()).statusCode, `hour ${hour}`).toBe(200);
      const extend = await client.post(api(paths.sessionExtend));
      expect(extend.statusCode).toBe(204);
    }
    h.clock.advance(HOUR);
    expectFailureEnvelope(await client.session(), 401, 4401);
  });

  test('the idle limit never runs past the absolute limit', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    type Times = { idleExpiresAt: string; absoluteExpiresAt: string; signedInAt: string };
    for (let i = 0; i < 3; i++) {
      h.clock.advance(3 * HOUR);
      expect((await client.session()).statusCode).toBe(200);
    }
    // Nine hours in, activity moved the idle limit to the absolute limit, not to 13 hours.
    const data = json<Times>(await client.session()).successData!;
    const signedIn = new Date(data.signedInAt).getTime();
    expect(new Date(data.absoluteExpiresAt).getTime() - signedIn).toBe(12 * HOUR);
    expect(new Date(data.idleExpiresAt).getTime()).toBe(new Date(data.absoluteExpiresAt).getTime());
  });

  test('the login transaction expires after LOGIN_FLOW_MINUTES', async () => {
    const { app, ctx } = await h.start({ LOGIN_FLOW_MINUTES: '30' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signInPassword('alexdemo1', PASSWORD);
    h.clock.advance(31 * 60_000);
    expectFailureEnvelope(await client.sessionLogin(), 401, 1401);
  });

  test('a session started on one instance continues on another', async () => {
    const one = await h.start();
    const two = await h.start({}, { db: await h.another() });
    await createAccount(one.ctx, { username: 'alexdemo1', password: PASSWORD });
    const first = new Client(one.app);
    await first.signInPassword('alexdemo1', PASSWORD);
    const second = new Client(two.app);
    for (const [name, value] of first.cookies) second.cookies.set(name, value);
    expect(code(await second.sessionLogin())).toBe(1200);
    expect((await second.session()).statusCode).toBe(200);
  });

  test('8 simultaneous session logins on one login transaction sign in once', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const first = new Client(app);
    await first.signInPassword('alexdemo1', PASSWORD);
    const clients = Array.from({ length: 8 }, () => {
      const c = new Client(app);
      for (const [name, value] of first.cookies) c.cookies.set(name, value);
      return c;
    });
    const answers = await Promise.all(clients.map((c) => c.sessionLogin()));
    expect(answers.filter((r) => r.statusCode === 200 && code(r) === 1200).length).toBe(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) expectFailureEnvelope(r, 401, 1401);
    const live = await h.db.selectFrom('sessions').select('id').where('ended_at', 'is', null).execute();
    expect(live.length).toBe(1);
  });

  test('SESSION_CTX on session login: the readable SESSION_SCTX cookie and successData.context', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signInPassword('alexdemo1', PASSWORD);
    const login = await client.sessionLogin({ SESSION_CTX: 'PRIMESRVPORTAL', eventtype: 'LOGIN' });
    expect(json(login).successData).toMatchObject({ context: 'PRIMESRVPORTAL' });
    const line = setCookieLine(login, 'SESSION_SCTX')!;
    expect(line).toMatch(/^SESSION_SCTX=PRIMESRVPORTAL;/);
    expect(line).not.toMatch(/HttpOnly/);
    const logout = await client.delete(api(paths.sessionLogout));
    expect(setCookieLine(logout, 'SESSION_SCTX')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(setCookieLine(logout, 'ET')).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  test('session update and extend need a signed-in session', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    expectFailureEnvelope(
      await client.post(api(paths.sessionUpdate), { context: 'PRIMESRVPORTAL' }),
      401,
      4401,
    );
    expectFailureEnvelope(await client.post(api(paths.sessionExtend)), 401, 4401);
  });

  test('session update records the host context', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    expect((await client.post(api(paths.sessionUpdate), { context: 'PRIMESRVPORTAL' })).statusCode).toBe(204);
    const row = await h.db
      .selectFrom('sessions')
      .select('context')
      .where('ended_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(row.context).toBe('PRIMESRVPORTAL');
  });
});
