import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  atFactor,
  check,
  contacts,
  demoContacts,
  factorAccount,
  latestMessage,
  PASSWORD,
  sendSms,
  trustDevice,
} from './support/factors.ts';
import {
  api,
  baseEnv,
  Client,
  code,
  expectFailureEnvelope,
  json,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * The device-risk step (widget spec §7: 'A device-risk script and a real-time-communication beacon
 * (polling every 10 seconds) are loaded by a third-party step'; docs/decisions/045-device-risk-step.md).
 */
const NUMBER = '+12025550143';
const beacon = api(paths.deviceRiskBeacon);
const ON = {
  RISK_SCRIPT_URL: 'https://risk.provider.example/profile.js',
  RISK_BEACON_URL: 'https://rtc.provider.example/beacon',
};
type App = Parameters<typeof atFactor>[0];

const csp = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  ) as Record<string, string[]>;

describe.each(targets)('device-risk step ($name)', (target) => {
  const h = useHarness(target);

  async function setup(env: Record<string, string> = {}) {
    const started = await h.start(env);
    await factorAccount(started.ctx, 'allfactor1', demoContacts('allfactor1', started.ctx.clock.now()));
    return started;
  }

  /** Signs in by the text code with the trust box ticked, and binds the device: the next sign-in skips the factor. */
  async function trustThisDevice(app: App, client: Client, db: typeof h.db) {
    await atFactor(app, 'allfactor1', client);
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    expect(code(await check(client, 'sms', (await latestMessage(db, NUMBER)).code!, true))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
    expect(json<{ trusted: boolean }>(await trustDevice(client, true)).successData!.trusted).toBe(true);
  }

  const sameDevice = (app: App, client: Client) => {
    const next = new Client(app);
    next.cookies.set('GH_DEVICE', client.cookies.get('GH_DEVICE')!);
    return next;
  };

  test('off by default: no provider in the CSP, and the beacon answers 404 in the envelope', async () => {
    const { app } = await setup();
    const policy = csp(
      (await app.inject({ method: 'GET', url: '/nope' })).headers['content-security-policy'],
    );
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    const client = new Client(app);
    expect(code(await client.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    expectFailureEnvelope(await client.post(beacon, { provider: 'acme', score: 10 }), 404, 4404);
  });

  test("on: the provider's script origin joins script-src and its beacon's connect-src; one URL alone stops the start", async () => {
    const { app } = await setup(ON);
    const policy = csp(
      (await app.inject({ method: 'GET', url: '/nope' })).headers['content-security-policy'],
    );
    expect(policy['script-src']).toEqual(["'self'", 'https://risk.provider.example']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://rtc.provider.example']);
    await expect(h.start({ RISK_SCRIPT_URL: ON.RISK_SCRIPT_URL })).rejects.toThrow(
      /RISK_BEACON_URL: the device-risk step needs both/,
    );
  });

  test("the beacon records the signals on this browser's login journey (the latest wins); none without a login in progress", async () => {
    const { app, ctx } = await setup(ON);
    const stranger = new Client(app);
    expectFailureEnvelope(await stranger.post(beacon, { provider: 'acme', score: 10 }), 401, 1401);

    const client = new Client(app);
    expect(code(await client.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    const first = await client.post(beacon, { provider: 'acme', score: 12, reasons: ['new_ip'] });
    expect(first.statusCode).toBe(204);
    const second = await client.post(beacon, {
      provider: 'acme',
      score: 40,
      reasons: ['vpn', 'new_ip'],
      reference: 'sess-1',
    });
    expect(second.statusCode).toBe(204);
    const [journey] = await ctx.db
      .selectFrom('journeys')
      .select(['kind', 'data'])
      .where('kind', '=', 'login')
      .execute();
    expect((journey!.data as { risk?: unknown }).risk).toEqual({
      provider: 'acme',
      score: 40,
      reasons: ['vpn', 'new_ip'],
      reference: 'sess-1',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  test('the beacon takes only the contract schema, within its size, and is rate limited per client', async () => {
    const { app } = await setup({ ...ON, RISK_BEACON_RATE_MAX: '3' });
    const client = new Client(app);
    expect(code(await client.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    for (const bad of [
      { provider: 'acme', score: 101 },
      { provider: 'acme', score: 5.5 },
      { provider: '<script>', score: 5 },
      { provider: 'acme', score: 5, reasons: ['a b'] },
      { provider: 'acme', score: 5, reasons: Array(11).fill('x') },
      { provider: 'acme', score: 5, extra: 'field' },
      { score: 5 },
    ]) {
      expectFailureEnvelope(await client.post(beacon, bad), 400, 4400);
    }
    const big = await client.post(beacon, { provider: 'acme', score: 5, reference: 'x'.repeat(3000) });
    expectFailureEnvelope(big, 400, 4400);
    expect(json(big).responseBaseInfo.status.message).toBe('The request body is larger than 2048 bytes.');

    const limited = new Client(app);
    expect(code(await limited.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await limited.post(beacon, { provider: 'acme', score: 5 }));
    expect(answers.map((r) => r.statusCode)).toEqual([204, 204, 204, 429]);
    expect(answers[3]!.headers['retry-after']).toBeDefined();
  });

  test('a risky journey owes its second factor on a trusted device; a calm one skips it as before; the demand is audited', async () => {
    const { app, ctx } = await setup({ ...ON, RISK_SECOND_FACTOR_SCORE: '60' });
    const client = new Client(app);
    await trustThisDevice(app, client, ctx.db);

    const calm = sameDevice(app, client);
    expect(code(await calm.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    expect((await calm.post(beacon, { provider: 'acme', score: 59 })).statusCode).toBe(204);
    const skipped = await calm.sessionLogin();
    expect(code(skipped)).toBe(1200);
    expect(json(skipped).successData).toMatchObject({ authenticated: true });

    const risky = sameDevice(app, client);
    expect(code(await risky.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    expect(
      (await risky.post(beacon, { provider: 'acme', score: 60, reasons: ['emulator'] })).statusCode,
    ).toBe(204);
    const due = await risky.sessionLogin();
    expect(code(due)).toBe(1201);
    expect(json<{ authenticated: boolean; authenticators: unknown[] }>(due).successData).toMatchObject({
      authenticated: false,
    });
    expect(json<{ authenticators: unknown[] }>(due).successData!.authenticators.length).toBeGreaterThan(0);
    const audit = await ctx.db
      .selectFrom('audit_events')
      .select(['event', 'detail'])
      .where('event', '=', 'device-risk-factor-due')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ provider: 'acme', score: 60, reasons: 'emulator' });
  });

  test('with the step off, the same trusted device skips the factor whatever a browser claims', async () => {
    const { app, ctx } = await setup();
    const client = new Client(app);
    await trustThisDevice(app, client, ctx.db);
    const next = sameDevice(app, client);
    expect(code(await next.signInPassword('allfactor1', PASSWORD))).toBe(1200);
    expect((await next.post(beacon, { provider: 'acme', score: 100 })).statusCode).toBe(404);
    expect(code(await next.sessionLogin())).toBe(1200);
  });
});

describe("the portal's env.json carries the step the service's settings name", () => {
  /** The service serving a built portal whose env.json names its environment. */
  async function portal(env: Record<string, string>) {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-env-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
    writeFileSync(join(dir, 'env.json'), JSON.stringify({ name: 'uat' }));
    const db = await targets.find((t) => t.name === 'pglite')!.open();
    const { app } = await buildApp({
      config: loadConfig({ ...baseEnv, SERVE_APPS: 'true', ...env }),
      db,
      logStream: { write: () => {} },
      staticSites: [{ prefix: '/', dir }],
    });
    return {
      get: () => app.inject({ method: 'GET', url: '/env.json' }),
      close: async () => {
        await app.close();
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  test("on: the built file's fields and the two addresses, revalidated on every load", async () => {
    const served = await portal(ON);
    try {
      const r = await served.get();
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.json()).toEqual({
        name: 'uat',
        deviceRisk: { scriptUrl: ON.RISK_SCRIPT_URL, beaconUrl: ON.RISK_BEACON_URL },
      });
    } finally {
      await served.close();
    }
  });

  test('off: the built file as it is', async () => {
    const served = await portal({});
    try {
      expect((await served.get()).json()).toEqual({ name: 'uat' });
    } finally {
      await served.close();
    }
  });
});
