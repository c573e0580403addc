import { headers as headerNames, paths } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { DeviceApp, TestDevice } from './support/device.ts';
import { atFactor, factorAccount } from './support/factors.ts';
import { api, type Client, code, json, targets, useHarness } from './support/harness.ts';

/**
 * Red team of push approval and the device API (issue 11; decision 022): push fatigue across
 * journeys, the device calls as a denial-of-service lever, and what the device is shown.
 */

const CONTENT = JSON.stringify({
  deviceInfo: { browserName: 'Firefox', osName: 'Linux' },
  time: '2026-11-23T17:00:00.000Z',
  host: 'portal.bank.example',
  journey: 'LOGIN',
});
const sendBody = {
  transactionDescription: 'Sign-in request',
  secureTransactionContent: CONTENT,
  localizedPushKey: 'PUSH_LOGIN',
};

/** A request as one browser makes it (its cookies and CSRF token as they are now), not yet sent. */
function prepared(app: FastifyInstance, client: Client, url: string, body: unknown) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const headers = {
    cookie,
    [headerNames.csrf]: client.cookies.get('XSRF-TOKEN')!,
    'content-type': 'application/json',
  };
  return () => app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
}

describe.each(targets)('red team: push and device ($name)', (target) => {
  const h = useHarness(target);

  async function start(env: Record<string, string> = {}, username = 'pushuser01') {
    const { app, ctx, logs } = await h.start(env);
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, username);
    const credential = await device.enrol(ctx, account.id);
    return { app, ctx, logs, device, account, credential, phone: new DeviceApp(app, device) };
  }
  const pushCount = async () => (await h.db.selectFrom('push_transactions').select('id').execute()).length;

  test('push fatigue: 100 sends at once across 34 login journeys of one account create exactly PUSH_ACCOUNT_MAX pushes', async () => {
    const { app, account } = await start({ PUSH_ACCOUNT_MAX: '10', PUSH_ACCOUNT_WINDOW_MINUTES: '60' });
    const browsers: Client[] = [];
    for (let i = 0; i < 34; i++) browsers.push(await atFactor(app, 'pushuser01'));
    const calls = Array.from({ length: 100 }, (_, i) =>
      prepared(app, browsers[i % 34]!, api(paths.pushAuthentication), sendBody),
    );
    const codes = (await Promise.all(calls.map((call) => call()))).map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(10);
    expect(codes.filter((c) => c === 1491)).toHaveLength(90);
    expect(await pushCount()).toBe(10);
    const limited = await h.db
      .selectFrom('audit_events')
      .select('event')
      .where('account_id', '=', account.id)
      .where('event', '=', 'push-limited')
      .execute();
    expect(limited.length).toBeGreaterThan(0);

    // The window passes: a new journey may send again.
    h.clock.advance(61 * 60_000);
    const later = await atFactor(app, 'pushuser01');
    expect(code(await later.post(api(paths.pushAuthentication), sendBody))).toBe(1200);
  }, 60_000);

  test("push fatigue: over the account limit a new journey's first send is 1491 and audited", async () => {
    const { app } = await start({ PUSH_ACCOUNT_MAX: '1' });
    const browser = await atFactor(app, 'pushuser01');
    expect(code(await browser.post(api(paths.pushAuthentication), sendBody))).toBe(1200);
    const second = await atFactor(app, 'pushuser01');
    expect(code(await second.post(api(paths.pushAuthentication), sendBody))).toBe(1491);
    expect(await pushCount()).toBe(1);
  });
});
