import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cookies, headers as headerNames, paths, Status } from '@gatehouse/contract';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  api,
  baseEnv,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  registeredRoutes,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Hostile input (security review, issue 8 point 10): refused static paths, bad URLs and NUL
 * characters answer 4xx in the envelope and never 500; no log line carries SQL parameters; and a
 * property-based fuzz over every registered route finds no 5xx and no answer outside the envelope.
 */

const PASSWORD = 'Harbor7Lights';
/** A value that is only ever a SQL parameter: it must never reach a log line. */
const MARKER = 'parameter-marker-9c41';
const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/** 4xx (not 5xx), JSON, and the envelope with no stack trace. */
function expectRefused(response: LightMyRequestResponse, allowed: number[] = [400, 404]) {
  expect(allowed, `${response.statusCode} ${response.body.slice(0, 200)}`).toContain(response.statusCode);
  const statusCode = response.statusCode === 404 ? 4404 : 4400;
  return expectFailureEnvelope(response, response.statusCode, statusCode);
}

/** A tiny portal and widget to serve, so the static file server runs without `npm run build`. */
function staticRoot() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
  const portal = join(dir, 'portal');
  const widget = join(dir, 'widget');
  mkdirSync(join(portal, 'assets'), { recursive: true });
  mkdirSync(widget, { recursive: true });
  writeFileSync(join(portal, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(join(portal, 'assets', 'app.js'), 'console.log("portal");');
  writeFileSync(join(widget, 'widget.js'), 'console.log("widget");');
  // A file next to the served folders: a traversal that escapes a root would find it.
  writeFileSync(join(dir, 'package.json'), '{"name":"outside-the-root"}');
  return { dir, portal, widget };
}

describe('hostile paths against the static file server', () => {
  const root = staticRoot();
  let app: FastifyInstance;
  const logs: string[] = [];

  beforeAll(async () => {
    const pglite = targets.find((t) => t.name === 'pglite')!;
    const db = await pglite.open();
    ({ app } = await buildApp({
      config: loadConfig({ ...baseEnv, SERVE_APPS: 'true' }),
      db,
      logStream: { write: (line: string) => logs.push(line) },
      staticSites: [
        { prefix: '/', dir: root.portal },
        { prefix: '/widget/', dir: root.widget },
      ],
    }));
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root.dir, { recursive: true, force: true });
  });

  test('the served files answer', async () => {
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<title>portal</title>');
    expect((await app.inject({ method: 'GET', url: '/widget/widget.js' })).body).toContain('widget');
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
  });

  test.each(
    [
      '/widget/../../package.json',
      '/widget/..%2f..%2fpackage.json',
      '/widget/%2e%2e/%2e%2e/package.json',
      '/../package.json',
      '/index.html%00.js',
      '/assets/%00',
      '/widget/widget.js%00',
      '//evil.example',
      '//evil.example/%2e%2e',
      '/%5c%5cevil.example',
      '/.env',
      '/assets/../../package.json',
      `/${'a'.repeat(5000)}`,
    ].map((url) => [url.length > 60 ? `${url.slice(0, 12)}… (${url.length} characters)` : url, url]),
  )('%s: 4xx in the envelope, never the file outside the root', async (_label, url) => {
    const r = await app.inject({ method: 'GET', url });
    expectRefused(r);
    expect(r.body).not.toContain('outside-the-root');
  });

  test('/./ is the portal itself, not an error', async () => {
    const r = await app.inject({ method: 'GET', url: '/./' });
    expect(r.statusCode).toBeLessThan(500);
    if (r.statusCode >= 400) expectRefused(r);
    else expect(r.body).toContain('<title>portal</title>');
  });

  test('no 500 and no stack trace in the log', () => {
    expect(logs.some((l) => /"level":50/.test(l))).toBe(false);
    expect(logs.some((l) => /"stack"/.test(l))).toBe(false);
  });
});

describe.each(targets)('hostile input ($name)', (target) => {
  const h = useHarness(target);

  test('bad URLs: 400 in the envelope, not the framework body', async () => {
    const { app } = await h.start();
    for (const url of [
      '/api/%zz',
      '/api/%',
      '/api/user/%C0%AF',
      '/api/%C0%AF',
      '/%C0%AF',
      `/api/${'%zz'.repeat(1000)}`,
      '/api/user/factor/password/authentication%ff',
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const r = await app.inject({ method, url });
        expect(r.body).not.toContain('FST_ERR');
        expect(expectRefused(r, [400]).responseBaseInfo.status.message).toBe(
          'The request is not valid: the URL is not valid',
        );
      }
    }
    // An overlong path: the 404 envelope, the path cut short in its message.
    const long = await app.inject({ method: 'GET', url: `/api/${'a'.repeat(20000)}` });
    expect(expectRefused(long, [404]).responseBaseInfo.status.message.length).toBeLessThan(300);
  });

  test('NUL characters in strings that would reach the database: 400 naming the field', async () => {
    const { app, ctx, logs } = await h.start();
    await createAccount(ctx, { username: 'nuluser01', password: PASSWORD });
    const client = new Client(app);
    const nul = `${MARKER}\u0000`;
    const cases: Array<[string, 'POST' | 'PUT', unknown, string | undefined]> = [
      [paths.passwordAuthentication, 'POST', { username: nul, password: PASSWORD }, 'username'],
      [paths.passwordAuthentication, 'POST', { username: 'nuluser01', password: nul }, 'password'],
      [paths.identifyUsername, 'POST', { username: nul }, 'username'],
      [paths.rememberUsername, 'PUT', { username: nul, operation: 'ADD' }, 'username'],
      [paths.rememberUsername, 'POST', { username: nul }, 'username'],
      [paths.passwordEnrollment, 'PUT', { username: nul, newPassword: PASSWORD }, 'username'],
      [
        paths.passwordEnrollment,
        'POST',
        { username: nul, oldPassword: PASSWORD, newPassword: 'N3wHarbor' },
        undefined,
      ],
      [paths.passwordEnrollment, 'POST', { password: nul }, undefined],
      [paths.passwordStatus, 'POST', { username: nul }, 'username'],
      [paths.changeUsername, 'PUT', { username: nul, password: PASSWORD }, 'username'],
      [paths.otpEmail, 'POST', { email: nul }, 'email'],
    ];
    for (const [path, method, body, field] of cases) {
      const r = await client.request({ method, url: api(path), body });
      const envelope = expectRefused(r, [400]);
      if (field) {
        expect(envelope.responseBaseInfo.status.message).toBe(
          `The request is not valid: ${field}: ${NUL_MESSAGE}`,
        );
      }
    }
    // Client log messages are free text that never reaches the database: a NUL is cleaned, not refused.
    const logged = await client.post(api(paths.clientLogs), {
      logs: [{ level: 'info', message: 'client\u0000log' }],
    });
    expect(logged.statusCode).toBe(204);
    // A NUL in a query string that reaches the database.
    const outbox = await client.get(`${api(paths.devOutbox)}?to=${encodeURIComponent(nul)}`);
    expect(outbox.statusCode).toBeLessThan(500);
    if (outbox.statusCode >= 400) expectRefused(outbox, [400, 404]);
    // A NUL in cookies that are looked up.
    for (const name of [cookies.session, cookies.device, cookies.csrf, cookies.recovery]) {
      const r = await app.inject({
        method: 'GET',
        url: api(paths.sessionLogin),
        headers: { cookie: `${name}=${encodeURIComponent(nul)}` },
      });
      // No session can be found by such a value: the answer of a browser with no session.
      expectFailureEnvelope(r, 401, 4401);
    }
    // The account is still usable, and no log line carries the parameter or a stack.
    expect(code(await client.signInPassword('nuluser01', PASSWORD))).toBe(1200);
    expect(logs.filter((l) => l.includes(MARKER))).toEqual([]);
    expect(logs.filter((l) => /"level":50/.test(l))).toEqual([]);
  });

  test('a database error that is not a fault logs its code and message, never the parameters', async () => {
    const { app, ctx, logs } = await h.start();
    // A value the contract lets through but the database refuses (a NUL inside a JSON key the
    // service stores as text would be one; here a direct query stands in for it).
    const r = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('username_key', '=', `${MARKER}\u0000`)
      .execute()
      .then(
        () => 'answered',
        (error: unknown) => error,
      );
    expect(r).toMatchObject({ name: 'DatabaseRefusedValue', http: 400, code: 4400 });
    expect(JSON.stringify(r)).not.toContain(MARKER);
    expect(Object.keys(r as object)).not.toContain('params');
    expect((await app.inject({ method: 'GET', url: api(paths.health) })).statusCode).toBe(200);
    expect(logs.filter((l) => l.includes(MARKER))).toEqual([]);
  });
});

// --- fuzz ----------------------------------------------------------------------------------------

/** Field names of the contract's request bodies: random values under them reach the handlers. */
const fieldNames = [
  'username',
  'password',
  'newPassword',
  'oldPassword',
  'operation',
  'securityCode',
  'securityCode1',
  'securityCode2',
  'bindDevice',
  'phone',
  'email',
  'message',
  'credentialId',
  'id',
  'context',
  'logs',
  'transactionDescription',
  'secureTransactionContent',
  'localizedPushKey',
  'requestBaseInfo',
];

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'alex\u0000demo',
    '\ud800',
    '%00',
    "' or 1=1 --",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection payload, sent as is.
    '${jndi:ldap://x}',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '123456',
    'ADD',
    'DELETE',
    'Harbor7Lights',
    'alexdemo1',
    '',
    ' ',
  ),
  fc.integer({ min: 1000, max: 40000 }).map((n) => 'x'.repeat(n)),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Deep nesting, in arrays or objects. */
const deep = fc
  .tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** A raw request body. */
const hostileBody: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .dictionary(fc.oneof(fc.constantFrom(...fieldNames), hostileString), hostileValue, { maxKeys: 6 })
      .map((o) => JSON.stringify(o)),
  },
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"__proto__":{"admin":true},"username":"alexdemo1"}',
    '{"constructor":{"prototype":{"admin":true}}}',
    '{"username":"a","username":"b"}',
    '{"username":"\\u0000","password":"\\u0000"}',
    '{"logs":[{"level":"info","message":"\\u0000"}]}',
    '{"username":',
    '"\\ud800"',
    'null',
    '[]',
    '0',
    '',
  ),
  deep,
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constant(undefined),
);

const hostileHeaders = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json\u0000',
      '*/*',
      ';;;',
    ),
    cookie: fc.oneof(
      fc.constantFrom(
        `${cookies.session}=%00`,
        `${cookies.session}=${'A'.repeat(5000)}`,
        `${cookies.device}=%zz; ${cookies.csrf}=%E0%A4%A`,
        `${cookies.recovery}=\u00ff\u00fe`,
        `${cookies.csrf}=a.b.c; ${cookies.csrf}=d`,
        '__proto__=1; constructor=2',
        '=; ;=;',
      ),
      fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, '')),
    ),
    [headerNames.csrf]: fc.oneof(
      fc.constantFrom('', 'null', 'a.b', '%00', 'x'.repeat(3000)),
      fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
    ),
    origin: fc.constantFrom(
      'null',
      'http://evil.example',
      'http://localhost:8080',
      'file://',
      'http://localhost:8080.evil.example',
      '\u00e9',
    ),
    'x-request-id': fc.constantFrom('REQ', `REQ${'a'.repeat(32)}`, '../../', '\u0000'),
  },
  { requiredKeys: [] },
);

/** Hostile changes to a route's path. */
const pathMutation = fc.constantFrom(
  (p: string) => p,
  (p: string) => p,
  (p: string) => p,
  (p: string) => `${p}/`,
  (p: string) => `${p}%00`,
  (p: string) => `${p}/..`,
  (p: string) => `${p}?__proto__[admin]=1&constructor[prototype][x]=1`,
  (p: string) => `${p}?to=%00&attributes=email&timestamp=${'9'.repeat(40)}`,
  (p: string) => `${p}?a=%zz`,
  (p: string) => p.replace(/\//g, '//'),
  (p: string) => p.toUpperCase(),
  (p: string) => `${p}%C0%AF`,
);

const fuzzRuns = (name: string) => Number(process.env.FUZZ_RUNS) || (name === 'pglite' ? 500 : 300);

describe.each(targets)('fuzz: every route with hostile bodies, headers and paths ($name)', (target) => {
  const h = useHarness(target);

  test('no 5xx; every /api answer is JSON in the envelope without a stack trace', {
    timeout: 120_000,
  }, async () => {
    const { app, ctx, logs } = await h.start({ CLIENT_LOG_RATE_MAX: '100000' });
    await app.ready();
    const routes = registeredRoutes(app).map((r) => ({
      method: r.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
      // Parameters (none today) get a hostile value.
      url: r.url.replace(/:[^/]+/g, '%00'),
    }));
    expect(routes.length).toBeGreaterThan(25);
    // Routes whose successful answer is the envelope (the rest: health, readiness, the OpenAPI
    // document, the outbox page, 204s); every failure is the envelope on all of them.
    const envelopeRoutes = new Set(
      app.routeDocs
        // The OpenAPI document is its own JSON (its route doc does not say so).
        .filter(
          (d) =>
            !d.rawResponse &&
            !d.table.body &&
            d.table.codes[Status.SUCCESS]?.http !== 204 &&
            d.path !== paths.openapi,
        )
        .map((d) => `${d.method} /api${d.path}`),
    );

    await createAccount(ctx, { username: 'fuzzuser01', password: PASSWORD });
    // Three callers: a stranger without CSRF, a browser with a valid token, a signed-in browser.
    const browser = new Client(app);
    await browser.get(api(paths.health));
    const signedIn = new Client(app);
    await signedIn.signIn('fuzzuser01', PASSWORD);
    const callers = [undefined, browser, signedIn] as const;

    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        pathMutation,
        hostileBody,
        hostileHeaders,
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        async (route, mutate, body, headers, who, keepCsrf) => {
          const caller = callers[who];
          const sent: Record<string, string> = { ...headers };
          if (caller) {
            // A valid CSRF pair and cookies, so the body reaches the handler; hostile extras stay.
            const jar = [...caller.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
            sent.cookie = keepCsrf && headers.cookie ? `${jar}; ${headers.cookie}` : jar;
            sent[headerNames.csrf] = caller.cookies.get('XSRF-TOKEN')!;
            sent.origin = 'http://localhost:8080';
          }
          const url = mutate(route.url);
          const r = await app.inject({
            method: route.method,
            url,
            headers: sent,
            ...(body !== undefined && route.method !== 'GET' ? { payload: body } : {}),
          });
          const key = `${route.method} ${route.url} ${r.statusCode}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          const context = `${route.method} ${url.slice(0, 120)} -> ${r.statusCode} ${r.body.slice(0, 200)}`;
          expect(r.statusCode, context).toBeLessThan(500);
          expect(r.body, context).not.toMatch(/"stack"|\bat .+\.ts:\d+|node_modules|FST_ERR/);
          if (!url.startsWith('/api')) return;
          const envelopeRoute =
            envelopeRoutes.has(`${route.method} ${route.url}`) || url.split('?')[0] !== route.url;
          if (r.statusCode === 204 || (!envelopeRoute && r.statusCode < 400)) return;
          expect(r.headers['content-type'], context).toMatch(/^application\/json/);
          const envelope = JSON.parse(r.body);
          expect(envelope.responseBaseInfo.requestId, context).toMatch(/^REQ[A-Za-z0-9]{32}$/);
          expect(typeof envelope.responseBaseInfo.status.code, context).toBe('number');
          expect(envelope.responseBaseInfo.status.message.length, context).toBeGreaterThan(0);
          if (r.statusCode >= 400) expect(envelope.error, context).toEqual(envelope.responseBaseInfo.status);
        },
      ),
      { numRuns: fuzzRuns(target.name), seed: Number(process.env.FUZZ_SEED) || undefined },
    );
    // Bodies reached the handlers: some answers are business outcomes or contract refusals (200 or
    // 400 past the CSRF check), not only 403.
    const statuses = [...seen.keys()].map((k) => Number(k.split(' ').pop()));
    expect(statuses.filter((s) => s !== 403).length).toBeGreaterThan(10);
    expect(logs.filter((l) => /"level":50/.test(l))).toEqual([]);
  });
});
