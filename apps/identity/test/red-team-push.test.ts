import { headers as headerNames, paths } from '@gatehouse/contract';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { TestClock } from '../src/lib/clock.ts';
import { DeviceApp, prepared, pushContent, pushSendBody, TestDevice } from './support/device.ts';
import { atFactor, demoContacts, factorAccount, proveTextCode } from './support/factors.ts';
import {
  api,
  Client,
  code,
  expectFailureEnvelope,
  json,
  onOwnPGlite,
  productionMail,
  productionSecret,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Red team of push approval and the device API (issue 11; decision 022): push fatigue across
 * journeys, the device calls as a denial-of-service lever, and what the device is shown.
 */

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
      prepared(app, browsers[i % 34]!, api(paths.pushAuthentication), pushSendBody),
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
    expect(code(await later.post(api(paths.pushAuthentication), pushSendBody))).toBe(1200);
  }, 60_000);

  test("push fatigue: over the account limit a new journey's first send is 1491 and audited", async () => {
    const { app } = await start({ PUSH_ACCOUNT_MAX: '1' });
    const browser = await atFactor(app, 'pushuser01');
    expect(code(await browser.post(api(paths.pushAuthentication), pushSendBody))).toBe(1200);
    const second = await atFactor(app, 'pushuser01');
    expect(code(await second.post(api(paths.pushAuthentication), pushSendBody))).toBe(1491);
    expect(await pushCount()).toBe(1);
  });

  test('device calls are rate limited per client address before any proof is checked: a burst of made-up proofs holds exactly', async () => {
    const { app } = await start({ DEVICE_CLIENT_MAX: '5', DEVICE_CLIENT_WINDOW_SECONDS: '60' });
    const stranger = await TestDevice.create(h.clock);
    const page = new Client(app, { remoteAddress: '203.0.113.9' });
    await page.get(api(paths.health));
    const proof = await stranger.proof('pushes');
    const answer = await stranger.answerBody('00000000-0000-4000-8000-000000000000', 'APPROVE');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? page.post(api(paths.devicePushes), { proof })
          : page.post(api(paths.devicePushAnswer), answer),
      ),
    );
    const limited = results.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(35);
    for (const r of limited) {
      expectFailureEnvelope(r, 429, 4429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The five let in were checked and refused as ever (a made-up proof 1403, an unknown push 1404).
    const passed = results.filter((r) => r.statusCode !== 429).map(code);
    expect(passed).toHaveLength(5);
    for (const c of passed) expect([1403, 1404]).toContain(c);
    // Another address is counted on its own; the window passing lets this one in again.
    const other = new Client(app, { remoteAddress: '198.51.100.7' });
    expect(code(await other.post(api(paths.devicePushes), { proof }))).toBe(1403);
    h.clock.advance(61_000);
    expect(code(await page.post(api(paths.devicePushes), { proof: await stranger.proof('pushes') }))).toBe(
      1403,
    );
  });

  test('open device streams: at most DEVICE_STREAMS_PER_KEY per key (the oldest closes), DEVICE_STREAMS_MAX in all (a new one is refused with 503)', async () => {
    const { app, ctx, device } = await start({ DEVICE_STREAMS_PER_KEY: '2', DEVICE_STREAMS_MAX: '3' });
    const second = await TestDevice.create(h.clock);
    const third = await TestDevice.create(h.clock);
    await second.enrol(ctx, (await factorAccount(ctx, 'pushuser02')).id);
    await third.enrol(ctx, (await factorAccount(ctx, 'pushuser03')).id);
    // On the customers' host: 127.0.0.1 is the console's own host in development (console/gate.ts).
    const address = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
    const health = await fetch(`${address}/api${paths.health}`);
    const cookies = health.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length);
    const headers = {
      cookie: cookies.join('; '),
      [headerNames.csrf]: xsrf,
      'content-type': 'application/json',
    };
    const open = async (d: TestDevice) => {
      const response = await fetch(`${address}/api${paths.deviceStream}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ proof: await d.proof('stream') }),
      });
      if (response.status !== 200) return { response, ended: Promise.resolve(true) };
      const reader = response.body!.getReader();
      const ended = (async () => {
        for (;;) if ((await reader.read()).done) return true;
      })();
      return { response, ended };
    };
    const a1 = await open(device);
    const a2 = await open(device);
    expect([a1.response.status, a2.response.status]).toEqual([200, 200]);
    // A third stream of the same key (the same proof's key, a replay or a reconnect) closes the oldest.
    const a3 = await open(device);
    expect(a3.response.status).toBe(200);
    expect(await a1.ended).toBe(true);
    const b1 = await open(second);
    expect(b1.response.status).toBe(200);
    // Three open in all: another key's stream is refused, with the envelope and Retry-After.
    const c1 = await open(third);
    expect(c1.response.status).toBe(503);
    expect(c1.response.headers.get('retry-after')).toBe('30');
    expect((await c1.response.json()).responseBaseInfo.status.code).toBe(5003);
    await app.close();
    expect(await Promise.all([a2.ended, a3.ended, b1.ended])).toEqual([true, true, true]);
  });

  test("the device shows the host the send came from and the server time, never the widget's claims", async () => {
    const { app, phone } = await start({ ALLOWED_ORIGINS: 'https://portal.bank.example' });
    const lying = JSON.stringify({
      deviceInfo: { browserName: 'Chrome', osName: 'Windows' },
      time: '2020-01-01T00:00:00.000Z',
      host: 'portal.bank.example',
      journey: 'LOGIN',
    });
    // A page on an allowed origin (the browser writes Origin) claims another host and time.
    const fromPortal = await atFactor(
      app,
      'pushuser01',
      new Client(app, { origin: 'https://portal.bank.example' }),
    );
    const first = await fromPortal.post(api(paths.pushAuthentication), {
      ...pushSendBody,
      secureTransactionContent: lying.replace('portal.bank.example', 'www.bank.example'),
    });
    expect(code(first)).toBe(1200);
    // A caller without Origin (not a browser) claims the bank's portal: the device shows the Host it addressed.
    const scripted = await atFactor(app, 'pushuser01');
    const second = await scripted.post(api(paths.pushAuthentication), {
      ...pushSendBody,
      secureTransactionContent: lying,
    });
    expect(code(second)).toBe(1200);
    const listed = await phone.pushes();
    const pushes = json<{
      pushes: Array<{ id: string; createdAt: string; content: Record<string, string> }>;
    }>(listed).successData!.pushes;
    const byId = (r: typeof first) => pushes.find((p) => p.id === json<{ id: string }>(r).successData!.id)!;
    // The browser is the server's reading of the send's User-Agent (this client's names none), never
    // the widget's 'Chrome' (decision 032, push-text.test.ts).
    expect(byId(first).content).toMatchObject({ host: 'portal.bank.example', browserName: '' });
    expect(byId(second).content.host).toBe('localhost');
    for (const p of pushes) expect(p.content.time).toBe(p.createdAt);
  });

  /**
   * A browser signed in with a text code, then stepped up with it (the security page's step-up,
   * which registering a device needs: decision 030).
   */
  async function signedInWithCode(app: FastifyInstance, username: string) {
    const browser = await atFactor(app, username);
    for (let i = 0; i < 2; i++) await proveTextCode(h.db, browser);
    return browser;
  }

  test('20 concurrent registrations of one key to one account make exactly one registration', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'reguser001', demoContacts('reguser001', new Date(0)));
    const browser = await signedInWithCode(app, 'reguser001');
    const device = await TestDevice.create(h.clock);
    const body = { publicKey: device.publicKey, name: 'My phone', proof: await device.proof('register') };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => prepared(app, browser, api(paths.deviceRegister), body)()),
    );
    expect(results.map(code)).toEqual(Array(20).fill(1200));
    const rows = await h.db.selectFrom('credentials').select('id').where('kind', '=', 'push').execute();
    expect(rows).toHaveLength(1);
    const ids = new Set(
      results.map((r) => json<{ registration: { id: string } }>(r).successData!.registration.id),
    );
    expect([...ids]).toEqual([rows[0]!.id]);
  });

  test('answers racing the expiry: past it, 20 answers and 20 polls at once: every answer 1410, one push-expired row', async () => {
    const { app, device, account } = await start();
    const browser = await atFactor(app, 'pushuser01');
    const sent = json<{ id: string; number?: string }>(
      await browser.post(api(paths.pushAuthentication), pushSendBody),
    ).successData!;
    h.clock.advance(120_001);
    const answer = await device.answerBody(sent.id, 'APPROVE', sent.number);
    const page = new Client(app);
    await page.get(api(paths.health));
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => page.post(api(paths.devicePushAnswer), answer)),
      ...Array.from({ length: 20 }, () => prepared(app, browser, api(paths.pushStatus), { id: sent.id })()),
    ]);
    expect(results.slice(0, 20).map(code)).toEqual(Array(20).fill(1410));
    expect(results.slice(20).map((r) => json<{ status: string }>(r).successData?.status)).toEqual(
      Array(20).fill('EXPIRED_PENDING'),
    );
    const expired = await h.db
      .selectFrom('audit_events')
      .select('event')
      .where('account_id', '=', account.id)
      .where('event', '=', 'push-expired')
      .execute();
    expect(expired).toHaveLength(1);
    expect((await h.db.selectFrom('sessions').select('id').execute()).length).toBe(0);
  });

  test('an answer racing a new send of the same journey: the answer wins and is approved, or loses to the withdrawal (1410); never both', async () => {
    const { app, device } = await start();
    for (let i = 0; i < 6; i++) {
      const browser = await atFactor(app, 'pushuser01');
      const first = json<{ id: string; number?: string }>(
        await browser.post(api(paths.pushAuthentication), pushSendBody),
      ).successData!;
      const page = new Client(app);
      await page.get(api(paths.health));
      const [answered, resent] = await Promise.all([
        page.post(api(paths.devicePushAnswer), await device.answerBody(first.id, 'APPROVE', first.number)),
        prepared(app, browser, api(paths.pushAuthentication), pushSendBody)(),
      ]);
      expect(code(resent)).toBe(1200);
      const row = await h.db
        .selectFrom('push_transactions')
        .select('status')
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      if (code(answered) === 1200) expect(row.status).toBe('APPROVED');
      else {
        expect(code(answered)).toBe(1410);
        expect(row.status).toBe('EXPIRED');
      }
    }
  });

  test('12 polls racing with bindDevice after an approval: one session, one trusted device', async () => {
    const { app, device, account } = await start();
    const browser = await atFactor(app, 'pushuser01');
    const sent = json<{ id: string; number?: string }>(
      await browser.post(api(paths.pushAuthentication), pushSendBody),
    ).successData!;
    const page = new Client(app);
    await page.get(api(paths.health));
    expect(
      code(
        await page.post(
          api(paths.devicePushAnswer),
          await device.answerBody(sent.id, 'APPROVE', sent.number),
        ),
      ),
    ).toBe(1200);
    const polls = await Promise.all(
      Array.from({ length: 12 }, () =>
        prepared(app, browser, api(paths.pushStatus), { id: sent.id, bindDevice: true })(),
      ),
    );
    expect(polls.map((r) => json<{ status: string }>(r).successData?.status)).toEqual(
      Array(12).fill('COMPLETED_SUCCESSFUL'),
    );
    const live = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('account_id', '=', account.id)
      .execute();
    expect(live).toHaveLength(1);
    const trusted = await h.db
      .selectFrom('trusted_devices')
      .select('account_id')
      .where('account_id', '=', account.id)
      .execute();
    expect(trusted).toHaveLength(1);
  });

  test('production mode: the demo claim route is absent (404 envelope) even with a valid proof for a demo name', async () => {
    const { app } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      COOKIE_SECURE: 'true',
      ...productionMail,
    });
    const device = await TestDevice.create(h.clock);
    // A page with a valid CSRF pair, so the refusal is the route's absence and not the CSRF check.
    const r = await new Client(app).post(api(paths.devDemoDeviceClaim), {
      username: 'pushuser1',
      publicKey: device.publicKey,
      proof: await device.proof('claim:pushuser1'),
    });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(typeof JSON.parse(r.body).responseBaseInfo.status.code).toBe('number');
  });

  test("the push's text is the server's, by journey: a caller's transactionDescription never reaches the device or the webhook", async () => {
    const { app, phone } = await start();
    const browser = await atFactor(app, 'pushuser01');
    const r = await browser.post(api(paths.pushAuthentication), {
      ...pushSendBody,
      transactionDescription: 'Security alert: tap Yes to block a fraudulent sign-in',
    });
    expect(code(r)).toBe(1200);
    const pushes = json<{ pushes: Array<{ description: string }> }>(await phone.pushes()).successData!.pushes;
    expect(pushes.map((p) => p.description)).toEqual(['Sign-in request']);
  });
});

/** A device enrolled to 'pushuser01', and a browser at that login's factor that sent it a push. */
async function pushSent(app: FastifyInstance, ctx: Context, clock: TestClock) {
  const device = await TestDevice.create(clock);
  const account = await factorAccount(ctx, 'pushuser01', demoContacts('pushuser01', new Date(0)));
  await device.enrol(ctx, account.id);
  const browser = await atFactor(app, 'pushuser01');
  const sent = json<{ id: string; number?: string }>(
    await browser.post(api(paths.pushAuthentication), pushSendBody),
  ).successData!;
  return { device, account, browser, sent };
}

describe('red team: push and device calls on a closed database (PGlite)', () => {
  test('send, poll, answer, list, stream and register answer 503/5003 in the envelope; nothing half-written', async () => {
    const clock = new TestClock();
    await onOwnPGlite(
      async ({ pglite, app, ctx }) => {
        const { device, browser, sent } = await pushSent(app, ctx, clock);
        const phone = new DeviceApp(app, device);
        await phone.client.get(api(paths.health));
        const answerBody = await device.answerBody(sent.id, 'APPROVE', sent.number);
        const pushesProof = await device.proof('pushes');
        const streamProof = await device.proof('stream');
        const registerBody = {
          publicKey: device.publicKey,
          name: 'Phone',
          proof: await device.proof('register'),
        };
        await pglite.close();
        const unavailable = (r: Awaited<ReturnType<typeof browser.post>>) =>
          expectFailureEnvelope(r, 503, 5003);
        unavailable(await browser.post(api(paths.pushAuthentication), pushSendBody));
        unavailable(await browser.post(api(paths.pushStatus), { id: sent.id }));
        unavailable(await phone.client.post(api(paths.devicePushAnswer), answerBody));
        unavailable(await phone.client.post(api(paths.devicePushes), { proof: pushesProof }));
        unavailable(await phone.client.post(api(paths.deviceStream), { proof: streamProof }));
        unavailable(await browser.post(api(paths.deviceRegister), registerBody));
      },
      { clock },
    );
  });
});

describe.each(targets)('red team: hostile bodies on the push and device routes ($name)', (target) => {
  const h = useHarness(target);
  const b64 = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${min},${max}}$`));
  const weird = fc.oneof(
    fc.string(),
    fc.constantFrom('', '\u0000', 'null', '{}', '[]', '9'.repeat(400), '\u202e\u0000<script>'),
    fc.integer(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
  );
  const time = fc.oneof(
    fc
      .date({ noInvalidDate: false })
      .map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())),
    fc.constantFrom('1970-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '2026-02-30T25:61:00Z', 'now'),
    weird,
  );

  test('never a 5xx, always the envelope', { timeout: 120_000 }, async () => {
    const { app, ctx } = await h.start();
    const { device, browser, sent } = await pushSent(app, ctx, h.clock);
    const jwk = fc.oneof(
      fc.record({ kty: fc.constant('EC'), crv: fc.constant('P-256'), x: b64(43, 43), y: b64(43, 43) }),
      fc.record({ kty: weird, crv: weird, x: weird, y: weird }),
      fc.constant({ ...device.publicKey, y: device.publicKey.x }),
      weird,
    );
    const proof = fc.oneof(
      fc.record({
        key: fc.oneof(fc.constant(device.key), b64(0, 60), weird),
        time,
        signature: fc.oneof(b64(0, 200), weird),
      }),
      weird,
    );
    const content = fc.oneof(
      weird,
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constant(`${'['.repeat(5000)}${']'.repeat(5000)}`),
      fc.constant(
        JSON.stringify({
          deviceInfo: { browserName: '\u0000', osName: 'x'.repeat(10_000) },
          time: 1,
          host: {},
          journey: [],
        }),
      ),
      fc.constant(JSON.stringify({ ...JSON.parse(pushContent), host: '\u0000evil\u202e' })),
    );
    const call = fc.oneof(
      fc.record({
        path: fc.constant(paths.pushAuthentication),
        body: fc.record({
          transactionDescription: weird,
          secureTransactionContent: content,
          localizedPushKey: weird,
        }),
      }),
      fc.record({
        path: fc.constant(paths.pushStatus),
        body: fc.record({ id: fc.oneof(fc.constant(sent.id), fc.uuid(), weird), bindDevice: weird }),
      }),
      fc.record({
        path: fc.constant(paths.devicePushAnswer),
        body: fc.record({
          id: fc.oneof(fc.constant(sent.id), weird),
          decision: fc.oneof(fc.constantFrom('APPROVE', 'DECLINE', 'FRAUD'), weird),
          number: weird,
          key: fc.oneof(fc.constant(device.key), weird),
          signature: fc.oneof(b64(0, 120), weird),
        }),
      }),
      fc.record({
        path: fc.constantFrom(paths.devicePushes, paths.deviceRegistrations, paths.deviceStream),
        body: fc.record({ proof }),
      }),
      fc.record({
        path: fc.constant(paths.deviceRegister),
        body: fc.record({ publicKey: jwk, name: weird, proof }),
      }),
      fc.record({
        path: fc.constantFrom(paths.deviceRename, paths.deviceRemove),
        body: fc.record({ id: fc.oneof(fc.uuid(), weird), name: weird, proof }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(call, async ({ path, body }) => {
        const r = await browser.post(api(path), body);
        const context = `${path} -> ${r.statusCode} ${r.body.slice(0, 200)}`;
        expect(r.statusCode, context).toBeLessThan(500);
        expect(r.headers['content-type'], context).toMatch(/^application\/json/);
        expect(typeof JSON.parse(r.body).responseBaseInfo.status.code, context).toBe('number');
      }),
      { numRuns: Number(process.env.FUZZ_RUNS) || 300 },
    );
  });
});
