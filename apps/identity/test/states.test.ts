import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, parseNetwork } from '../src/config.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  setCookieLine,
  targets,
  useHarness,
} from './support/harness.ts';

const PASSWORD = 'Harbor7Lights';
const HOUR = 3_600_000;
const PROHIBITED_MESSAGE = "You can't access this website right now";

describe.each(targets)('account states at session login ($name)', (target) => {
  const h = useHarness(target);

  test('maintenance: 1202 with IDENTITY/MAINTENANCE, not signed in', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'maintain01', password: PASSWORD, maintenance: true });
    const client = new Client(app);
    expect(code(await client.signInPassword('maintain01', PASSWORD))).toBe(1200);
    const login = await client.sessionLogin();
    expect(login.statusCode).toBe(200);
    expect(code(login)).toBe(1202);
    expect(json(login).callbacks).toEqual([{ name: 'IDENTITY', type: 'MAINTENANCE' }]);
    expect(json(login).successData).toMatchObject({ authenticated: false });
    expect((await client.session()).statusCode).toBe(401);
  });

  test('a prohibited account: 1403 with redirectPath /prohibited; the login transaction ends', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'prohibit01', password: PASSWORD });
    await h.db.updateTable('accounts').set({ prohibited: true }).where('id', '=', row.id).execute();
    const client = new Client(app);
    expect(code(await client.signInPassword('prohibit01', PASSWORD))).toBe(1200);
    const login = await client.sessionLogin();
    const body = expectFailureEnvelope(login, 200, 1403);
    expect(body.responseBaseInfo.status.message).toBe(PROHIBITED_MESSAGE);
    expect(body.redirectPath).toBe('/prohibited');
    expect(body.successData).toBeUndefined();
    expect(setCookieLine(login, 'ET')).toMatch(/Expires=Thu, 01 Jan 1970/);
    // The login journey ended there, with the reason; no session was ever created.
    const ended = await h.db
      .selectFrom('journeys')
      .select(['state', 'data', 'completed_at'])
      .where('account_id', '=', row.id)
      .where('kind', '=', 'login')
      .executeTakeFirstOrThrow();
    expect(ended.state).toBe('ended');
    expect(ended.data.endReason).toBe('prohibited');
    expect(ended.completed_at).not.toBeNull();
    expect(await h.db.selectFrom('sessions').select('id').where('account_id', '=', row.id).execute()).toEqual(
      [],
    );
    expect((await client.session()).statusCode).toBe(401);
    expectFailureEnvelope(await client.sessionLogin(), 401, 1401);
  });

  test('PROHIBITED_NETWORKS: a client in a listed IPv4 or IPv6 network gets 1403 /prohibited; others sign in', async () => {
    const { app, ctx } = await h.start({
      PROHIBITED_NETWORKS: '203.0.113.0/24, 2001:db8:bad::/48,192.0.2.7',
    });
    await createAccount(ctx, { username: 'traveler01', password: PASSWORD });
    for (const address of ['203.0.113.9', '2001:db8:bad::5', '::ffff:203.0.113.200', '192.0.2.7']) {
      const client = new Client(app, { remoteAddress: address });
      expect(code(await client.signInPassword('traveler01', PASSWORD)), address).toBe(1200);
      const login = await client.sessionLogin();
      const body = expectFailureEnvelope(login, 200, 1403);
      expect(body.responseBaseInfo.status.message, address).toBe(PROHIBITED_MESSAGE);
      expect(body.redirectPath, address).toBe('/prohibited');
      expect((await client.session()).statusCode, address).toBe(401);
    }
    for (const address of ['203.0.114.9', '2001:db8:bae::5', '192.0.2.8', '127.0.0.1']) {
      const client = new Client(app, { remoteAddress: address });
      await client.signInPassword('traveler01', PASSWORD);
      expect(code(await client.sessionLogin()), address).toBe(1200);
    }
  });

  test('without PROHIBITED_NETWORKS (the default) any address signs in', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'traveler01', password: PASSWORD });
    const client = new Client(app, { remoteAddress: '203.0.113.9' });
    await client.signIn('traveler01', PASSWORD);
  });

  test('an account locked after the password step: session login 1403, the transaction ends', async () => {
    const { app, ctx } = await h.start();
    const row = await createAccount(ctx, { username: 'lockedlat1', password: PASSWORD });
    const client = new Client(app);
    await client.signInPassword('lockedlat1', PASSWORD);
    await h.db.updateTable('accounts').set({ status: 'locked' }).where('id', '=', row.id).execute();
    const login = await client.sessionLogin();
    expect(expectFailureEnvelope(login, 200, 1403).redirectPath).toBeUndefined();
    expectFailureEnvelope(await client.sessionLogin(), 401, 1401);
    // Password authentication then says 1203 (password.test.ts covers the lockout itself).
    expect(code(await new Client(app).signInPassword('lockedlat1', PASSWORD))).toBe(1203);
  });
});

describe.each(targets)('session update and extend ($name)', (target) => {
  const h = useHarness(target);

  const times = async () => {
    const row = await h.db
      .selectFrom('sessions')
      .select(['idle_expires_at', 'absolute_expires_at', 'created_at'])
      .where('ended_at', 'is', null)
      .executeTakeFirstOrThrow();
    return {
      idle: new Date(row.idle_expires_at).getTime(),
      absolute: new Date(row.absolute_expires_at).getTime(),
      created: new Date(row.created_at).getTime(),
    };
  };

  test('204 when signed in; 401 (4401) with only a login transaction, or none', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'factorusr1', password: PASSWORD, secondFactor: true });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    for (const path of [paths.sessionUpdate, paths.sessionExtend]) {
      const r = await client.post(api(path));
      expect(r.statusCode, path).toBe(204);
      expect(r.body, path).toBe('');
    }

    const transaction = new Client(app);
    await transaction.signInPassword('factorusr1', PASSWORD);
    expect(code(await transaction.sessionLogin())).toBe(1201);
    for (const path of [paths.sessionUpdate, paths.sessionExtend]) {
      expectFailureEnvelope(await transaction.post(api(path)), 401, 4401);
      expectFailureEnvelope(await new Client(app).post(api(path)), 401, 4401);
    }
  });

  test('extend moves the idle limit to now + SESSION_IDLE_MINUTES, never past the absolute limit', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const start = await times();
    expect(start.idle - start.created).toBe(4 * HOUR);

    h.clock.advance(HOUR);
    expect((await client.post(api(paths.sessionExtend))).statusCode).toBe(204);
    const extended = await times();
    expect(extended.idle - start.created).toBeGreaterThanOrEqual(5 * HOUR);
    expect(extended.idle - start.created).toBeLessThan(5 * HOUR + 60_000);
    expect(extended.absolute).toBe(start.absolute);

    // 10 hours in (with activity on the way), extending reaches the absolute limit and stops there.
    for (let i = 0; i < 3; i++) {
      h.clock.advance(3 * HOUR);
      expect((await client.post(api(paths.sessionExtend))).statusCode).toBe(204);
    }
    const late = await times();
    expect(late.idle).toBe(late.absolute);
    expect(late.absolute - late.created).toBe(12 * HOUR);

    // Past the absolute limit extend cannot help.
    h.clock.advance(2 * HOUR + 1000);
    expectFailureEnvelope(await client.post(api(paths.sessionExtend)), 401, 4401);
  });

  test('update records activity too: the session survives past the first idle limit', async () => {
    const { app, ctx } = await h.start({ SESSION_IDLE_MINUTES: '30' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    h.clock.advance(20 * 60_000);
    expect((await client.post(api(paths.sessionUpdate), { context: 'PRIMESRVPORTAL' })).statusCode).toBe(204);
    h.clock.advance(20 * 60_000);
    expect((await client.session()).statusCode).toBe(200);
    h.clock.advance(31 * 60_000);
    expectFailureEnvelope(await client.post(api(paths.sessionUpdate)), 401, 4401);
  });
});

describe('PROHIBITED_NETWORKS setting', () => {
  const fails = (value: string) => {
    try {
      loadConfig({ PROHIBITED_NETWORKS: value });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`loadConfig accepted PROHIBITED_NETWORKS=${value}`);
  };

  test('empty by default; CIDR ranges and single addresses of both families', () => {
    expect(loadConfig({}).prohibitedNetworks).toEqual([]);
    expect(
      loadConfig({ PROHIBITED_NETWORKS: ' 10.0.0.0/8 , 2001:db8::/32,192.0.2.1,::1 ' }).prohibitedNetworks,
    ).toEqual([
      { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { address: '2001:db8::', prefix: 32, family: 'ipv6' },
      { address: '192.0.2.1', prefix: 32, family: 'ipv4' },
      { address: '::1', prefix: 128, family: 'ipv6' },
    ]);
    expect(parseNetwork('0.0.0.0/0')).toEqual({ address: '0.0.0.0', prefix: 0, family: 'ipv4' });
  });

  test('a bad entry stops the start with one line naming the setting and the entry', () => {
    for (const bad of [
      '10.0.0.0/33',
      '2001:db8::/129',
      'example.com',
      '10.0.0/8',
      '10.0.0.0/',
      'fe80::1%eth0/64',
    ]) {
      const message = fails(`192.0.2.0/24,${bad}`);
      expect(message).toBe(
        `Invalid setting PROHIBITED_NETWORKS (got "${bad}"): each entry must be an IPv4 or IPv6 network in CIDR form, such as 203.0.113.0/24 or 2001:db8::/32`,
      );
    }
  });

  test('REMEMBER_MAX and CLIENT_LOG_RATE_MAX: defaults and bounds', () => {
    expect(loadConfig({})).toMatchObject({ rememberMax: 5, clientLogRateMax: 30 });
    expect(loadConfig({ REMEMBER_MAX: '3', CLIENT_LOG_RATE_MAX: '100' })).toMatchObject({
      rememberMax: 3,
      clientLogRateMax: 100,
    });
    expect(() => loadConfig({ REMEMBER_MAX: '0' })).toThrow(/^Invalid setting REMEMBER_MAX/);
    expect(() => loadConfig({ CLIENT_LOG_RATE_MAX: 'many' })).toThrow(/^Invalid setting CLIENT_LOG_RATE_MAX/);
  });
});
