import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cookies, headers as headerNames, paths } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { apiHelmetOptions, helmetOptions, securityHeaders } from '../src/plugins/security.ts';
import type { PhoneMessage } from '../src/services/sms.ts';
import { atFactor, contacts, demoContacts, factorAccount, sendSms } from './support/factors.ts';
import {
  api,
  baseEnv,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  productionMail,
  productionSecret,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Issue 14 point 4: what a request costs besides its work. One log line per request at info; the
 * security headers built once; a CSRF token and device cookie only on the answers that hand one out,
 * with every state-changing call still checked exactly as before.
 */

const PASSWORD = 'Harbor7Lights';
const setCookies = (r: LightMyRequestResponse) => {
  const raw = r.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
};

describe.each(targets)('one log line per request ($name)', (target) => {
  const h = useHarness(target);

  test('at info: one `request completed` line with request id, method, path, route, status and time', async () => {
    const { app, logs } = await h.start({ LOG_LEVEL: 'info' });
    const r = await app.inject({
      method: 'GET',
      url: `${api(paths.otpState)}?timestamp=1`,
      headers: { appid: 'PRIMESRVPORTAL', eventtype: 'LOGIN' },
    });
    const requestId = r.headers['x-request-id'];
    const lines = logs.map((l) => JSON.parse(l)).filter((l) => l.requestId === requestId);
    expect(lines.map((l) => l.msg)).toEqual(['request completed']);
    const [line] = lines;
    expect(line.level).toBe(30);
    expect(line.req).toMatchObject({
      method: 'GET',
      url: `${api(paths.otpState)}?…`,
      route: api(paths.otpState),
      remoteAddress: '127.0.0.1',
      appId: 'PRIMESRVPORTAL',
      eventType: 'LOGIN',
    });
    expect(line.res).toEqual({ statusCode: 401 });
    expect(typeof line.responseTime).toBe('number');
  });

  test('at debug the arrival is logged too; secrets stay redacted in both lines', async () => {
    const { app, ctx, logs } = await h.start({ LOG_LEVEL: 'debug' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    const r = await client.signInPassword('alexdemo1', PASSWORD);
    expect(code(r)).toBe(1200);
    const lines = logs.map((l) => JSON.parse(l)).filter((l) => l.requestId === r.headers['x-request-id']);
    expect(lines.map((l) => l.msg)).toContain('incoming request');
    expect(lines.map((l) => l.msg)).toContain('request completed');
    for (const line of logs) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(client.cookies.get('XSRF-TOKEN')!);
    }
  });

  test('at warn no request line is written', async () => {
    const { app, logs } = await h.start({ LOG_LEVEL: 'warn' });
    await app.inject({ method: 'GET', url: api(paths.health) });
    expect(logs.filter((l) => l.includes('request completed'))).toEqual([]);
  });
});

/** Every header either set writes, so that "exactly" also means "and none of the other set's". */
const securityHeaderNames = (config: Config) => [
  ...new Set([
    ...Object.keys(securityHeaders(helmetOptions(config))),
    ...Object.keys(securityHeaders(apiHelmetOptions(config))),
  ]),
];

/** Each security header of the answer is the set's value, and a header the set lacks is absent. */
function expectExactly(
  r: LightMyRequestResponse,
  set: Record<string, string>,
  names: string[],
  what: string,
) {
  for (const name of names) expect(r.headers[name], `${what} ${name}`).toBe(set[name]);
}

describe.each(targets)('no secret reaches a log line, without a redaction pass ($name)', (target) => {
  const h = useHarness(target);

  test('an error carrying the request it failed on (body, Authorization, the code) logs only its type, message, code, stack and cause', async () => {
    const { app, ctx, logs } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    const phone = (await contacts(client)).phone[0]!;
    const bearer = 'Bearer gateway-token-0123456789';
    let sent: PhoneMessage | undefined;
    // A text gateway's client library whose error carries what it sent, as HTTP clients' errors do.
    ctx.phone.send = async (message) => {
      sent = message;
      const upstream = Object.assign(new Error('socket hang up'), {
        code: 'ECONNRESET',
        body: { username: 'allfactor1', password: PASSWORD },
      });
      throw Object.assign(new Error('Request failed with status code 502', { cause: upstream }), {
        code: 'ERR_BAD_RESPONSE',
        config: { headers: { Authorization: bearer }, data: JSON.stringify(message) },
        response: { status: 502, data: { echo: message.text, code: message.code } },
        body: { username: 'allfactor1', password: PASSWORD },
        password: PASSWORD,
        token: bearer,
      });
    };
    expectFailureEnvelope(await sendSms(client, phone.value), 503, 5003);
    expect(sent?.code).toMatch(/^\d{6}$/);

    const line = logs
      .map((l) => JSON.parse(l) as { msg: string; level: number; err?: Record<string, unknown> })
      .find((l) => l.msg === 'second factor: delivery failed');
    expect(line?.level).toBe(50);
    expect(Object.keys(line!.err!).sort()).toEqual(['cause', 'code', 'message', 'stack', 'type']);
    expect(line!.err).toMatchObject({
      type: 'Error',
      message: 'Request failed with status code 502',
      code: 'ERR_BAD_RESPONSE',
      cause: { type: 'Error', message: 'socket hang up', code: 'ECONNRESET' },
    });
    expect(JSON.stringify(line!.err)).not.toContain(sent!.code!);
    for (const secret of [PASSWORD, bearer, 'gateway-token-0123456789', sent!.text]) {
      expect(
        logs.find((l) => l.includes(secret)),
        secret,
      ).toBeUndefined();
    }
  });
});

describe.each(targets)('security headers built once, a short set for API answers ($name)', (target) => {
  const h = useHarness(target);

  test('API answers carry exactly the API set, documents exactly the full set helmet computes for the settings', async () => {
    const env = { FRAME_ANCESTORS: 'https://portal.bank.example' };
    const { app } = await h.start(env);
    const config = loadConfig({ ...baseEnv, ...env });
    const documents = securityHeaders(helmetOptions(config));
    const apiSet = securityHeaders(apiHelmetOptions(config));
    const names = securityHeaderNames(config);
    expect(documents['content-security-policy']).toMatch(
      /frame-ancestors 'self' https:\/\/portal\.bank\.example/,
    );
    expect(Object.keys(documents).length).toBeGreaterThan(8);
    // The short set, as docs/security.md#headers lists it.
    expect(apiSet).toEqual({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
    });
    for (const url of [
      api(paths.health),
      api(paths.live),
      api(paths.ready),
      api(paths.openapi),
      api('/nope'),
      // The API base itself, with or without a query: an API answer too (the 404 envelope).
      api(''),
      api('?x=1'),
    ]) {
      const r = await app.inject({ method: 'GET', url });
      expectExactly(r, apiSet, names, url);
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await app.inject({ method: 'POST', url: api(paths.sessionLogin) });
    expect(refused.statusCode).toBe(403);
    expectExactly(refused, apiSet, names, 'refused POST');
    // The API reference is a page: the documents' set, as is any answer outside the API.
    for (const url of [api(paths.apiDocs), '/nope']) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(url === '/nope' ? 404 : 200);
      expectExactly(r, documents, names, url);
    }
  });

  test('production: both sets carry HSTS', async () => {
    const env = { NODE_ENV: 'production', SESSION_SECRET: productionSecret, ...productionMail };
    const { app } = await h.start(env);
    const config = loadConfig({ ...baseEnv, ...env });
    const names = securityHeaderNames(config);
    const apiSet = securityHeaders(apiHelmetOptions(config));
    expect(apiSet['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expectExactly(await app.inject({ method: 'GET', url: api(paths.health) }), apiSet, names, 'health');
    expectExactly(
      await app.inject({ method: 'GET', url: api(paths.apiDocs) }),
      securityHeaders(helmetOptions(config)),
      names,
      'reference page',
    );
  });
});

describe.each(targets)('CSRF token and device cookie only where they are handed out ($name)', (target) => {
  const h = useHarness(target);

  test('health and the API GETs a browser makes hand out the token and the device cookie it is bound to', async () => {
    const { app } = await h.start();
    for (const url of [api(paths.health), api(paths.rememberUsername)]) {
      const r = await app.inject({ method: 'GET', url });
      const names = setCookies(r).map((c) => c.split('=')[0]);
      expect(names, url).toEqual(expect.arrayContaining([cookies.device, cookies.csrf]));
      expect(r.headers[headerNames.csrf.toLowerCase()], url).toBeTruthy();
    }
  });

  test('readiness, the API reference, preflights and unknown paths set no cookie', async () => {
    const { app } = await h.start();
    for (const [method, url] of [
      ['GET', api(paths.ready)],
      ['GET', api(paths.openapi)],
      ['GET', api('/docs')],
      ['GET', api('/nope')],
      ['GET', '/nope'],
      ['OPTIONS', api(paths.passwordAuthentication)],
    ] as const) {
      const r = await app.inject({ method, url });
      expect(setCookies(r), `${method} ${url}`).toEqual([]);
      expect(r.headers[headerNames.csrf.toLowerCase()], `${method} ${url}`).toBeUndefined();
      expect(r.headers['cache-control'], `${method} ${url}`).toBe('no-store');
    }
  });

  test('every state-changing call is still checked, on any path, and a refused one gets a token to retry with', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      for (const url of [
        api(paths.passwordAuthentication),
        api('/nope'),
        '/assets/app.js',
        api(paths.health),
      ]) {
        const r = await app.inject({ method, url, payload: {} });
        expectFailureEnvelope(r, 403, 4403);
        expect(
          setCookies(r).some((c) => c.startsWith(`${cookies.csrf}=`)),
          `${method} ${url}`,
        ).toBe(true);
      }
    }
    // The refused call's token works for the retry, with the cookies it came with.
    const client = new Client(app);
    const refused = await client.request({
      method: 'POST',
      url: api(paths.passwordAuthentication),
      body: { username: 'alexdemo1', password: PASSWORD },
      csrf: false,
    });
    expectFailureEnvelope(refused, 403, 4403);
    expect(code(await client.signInPassword('alexdemo1', PASSWORD))).toBe(1200);
  });
});

describe('static files set no cookie', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-nocookie-'));
  let app: FastifyInstance;
  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>portal</title>');
    writeFileSync(join(dir, 'assets', 'app-Ab12.js'), 'console.log(1)');
    const pglite = targets.find((t) => t.name === 'pglite')!;
    const db = await pglite.open();
    ({ app } = await buildApp({
      config: loadConfig({ ...baseEnv, SERVE_APPS: 'true' }),
      db,
      logStream: { write: () => {} },
      staticSites: [{ prefix: '/', dir }],
    }));
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the page and its assets answer without Set-Cookie, so any cache may keep them; with the documents' headers", async () => {
    const config = loadConfig({ ...baseEnv, SERVE_APPS: 'true' });
    const documents = securityHeaders(helmetOptions(config));
    const names = securityHeaderNames(config);
    for (const url of ['/', '/index.html', '/assets/app-Ab12.js']) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(setCookies(r), url).toEqual([]);
      expectExactly(r, documents, names, url);
    }
    // An unknown API path reaches the file server's wildcard route here: still an API answer.
    const unknown = await app.inject({ method: 'GET', url: api('/nope') });
    expect(unknown.statusCode).toBe(404);
    expectExactly(unknown, securityHeaders(apiHelmetOptions(config)), names, api('/nope'));
  });
});
