import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { headers, paths } from '@gatehouse/contract';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrations.ts';
import { demoTags, readDemoAccounts } from '../src/seed.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  productionMail,
  productionSecret,
  registeredRoutes,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';

const demoFile = new URL('../../../demo/accounts.json', import.meta.url);

/** The tags design.md lists for the demo accounts; every one needs an account. */
const designTags = [
  'password-only',
  'all-factors',
  'otp-only',
  'email-only',
  'expired-password',
  'temporary-password',
  'blocked',
  'locked',
  'forced-username-update',
  'prohibited-location',
  'push',
  'token',
  'authenticator',
];

type OpenApi = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { summary: string; responses: Record<string, unknown> }>>;
};

describe.each(targets)('operations ($name)', (target) => {
  const h = useHarness(target);

  test('health and readiness', async () => {
    const { app } = await h.start();
    const health = await app.inject({ method: 'GET', url: api(paths.health) });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: api(paths.ready) });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  test("a load balancer's probe (GET /api/live): 200 ok, no cookie, no CSRF token, no info log line; health still hands the browser its token", async () => {
    const { app, logs } = await h.start();
    const before = logs.length;
    const probe = await app.inject({ method: 'GET', url: api(paths.live) });
    expect(probe.statusCode).toBe(200);
    expect(probe.json()).toEqual({ status: 'ok' });
    expect(probe.headers['set-cookie']).toBeUndefined();
    expect(probe.headers[headers.csrf.toLowerCase()]).toBeUndefined();
    expect(probe.headers['cache-control']).toBe('no-store');
    const infoOrAbove = logs.slice(before).filter((l) => (JSON.parse(l) as { level: number }).level >= 30);
    expect(infoOrAbove).toEqual([]);
    // The people's health check is unchanged: a browser gets its CSRF token and device cookie there.
    const health = await app.inject({ method: 'GET', url: api(paths.health) });
    expect(health.headers['set-cookie']).toBeDefined();
    expect(health.headers[headers.csrf.toLowerCase()]).toBeDefined();
    expect(logs.slice(before).some((l) => l.includes('request completed'))).toBe(true);
  });

  test("request ids: the spec's REQ and 32 characters, a fresh one each request, or the client's own when it is of that shape", async () => {
    const { app } = await h.start();
    const ids = await Promise.all(
      Array.from(
        { length: 200 },
        async () => (await app.inject({ method: 'GET', url: api(paths.live) })).headers['x-request-id'],
      ),
    );
    for (const id of ids) expect(id).toMatch(/^REQ[A-Za-z0-9]{32}$/);
    expect(new Set(ids).size).toBe(200);
    const own = `REQ${'a1B2'.repeat(8)}`;
    const echoed = await app.inject({
      method: 'GET',
      url: api(paths.live),
      headers: { 'x-request-id': own },
    });
    expect(echoed.headers['x-request-id']).toBe(own);
    const odd = await app.inject({
      method: 'GET',
      url: api(paths.live),
      headers: { 'x-request-id': 'REQ-not-ours' },
    });
    expect(odd.headers['x-request-id']).toMatch(/^REQ[A-Za-z0-9]{32}$/);
  });

  test('a database fault: 500 envelope with code 5000 and no stack trace; readiness 503', async () => {
    const { app, ctx, logs } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: 'Harbor7Lights' });
    await sql`alter table accounts rename to accounts_away`.execute(h.db);
    try {
      const r = await new Client(app).signInPassword('alexdemo1', 'Harbor7Lights');
      const body = expectFailureEnvelope(r, 500, 5000);
      expect(body.responseBaseInfo.status.message).toBe('Unknown error');
      expect(body.errorType).toBe('SYSTEM_ERROR');
      expect(r.body).not.toMatch(/accounts|relation|select/i);
      expect(logs.some((l) => /"level":50/.test(l) && l.includes(body.responseBaseInfo.requestId))).toBe(
        true,
      );
    } finally {
      await sql`alter table accounts_away rename to accounts`.execute(h.db);
    }

    // Readiness on a database that stopped answering.
    const lost = target.name === 'postgres' ? await target.another(h.db) : await target.open();
    const second = await h.start({}, { db: lost });
    await lost.destroy();
    const ready = await second.app.inject({ method: 'GET', url: api(paths.ready) });
    expect(expectFailureEnvelope(ready, 503, 5003).responseBaseInfo.status.message).toBe(
      'The service is temporarily unavailable. Please try again.',
    );
    expect((await second.app.inject({ method: 'GET', url: api(paths.health) })).statusCode).toBe(200);
  });

  test('shutting down: a request still arriving on an open connection gets the 503 envelope', async () => {
    const { app } = await h.start();
    // A slow call keeps the connection busy while the shutdown starts (added for this test only).
    let entered: () => void = () => {};
    const inSlowCall = new Promise<void>((resolve) => {
      entered = resolve;
    });
    app.get('/api/test/slow', async () => {
      entered();
      // wait: the slow call itself, the scenario's busy connection (300 ms of work)
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { status: 'ok' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const socket = connect(typeof address === 'object' && address ? address.port : 0, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    await once(socket, 'connect');
    socket.write('GET /api/test/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await inSlowCall;
    // The shutdown starts while the slow call holds the connection; the next request on it is shed.
    const closed = app.close();
    socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    for (let i = 0; i < 100 && (received.match(/HTTP\/1\.1 /g) ?? []).length < 2; i++) {
      // wait: polls for the second answer on the socket (what the client observes), 20 ms apart
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.destroy();
    await closed;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    const body = JSON.parse(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4)) as {
      responseBaseInfo: { status: { code: number; message: string } };
      errorType: string;
    };
    expect(body.responseBaseInfo.status).toEqual({
      code: 5003,
      message: 'The service is temporarily unavailable. Please try again.',
    });
    expect(body.errorType).toBe('SYSTEM_ERROR');
  });

  test('the OpenAPI document lists every registered /api path and method', async () => {
    const { app } = await h.start();
    await app.ready();
    const r = await app.inject({ method: 'GET', url: api(paths.openapi) });
    expect(r.statusCode).toBe(200);
    const doc = r.json() as OpenApi;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);

    const registered = registeredRoutes(app).filter((route) => route.url.startsWith('/api/'));
    expect(registered.length).toBeGreaterThanOrEqual(9);
    const documented = Object.entries(doc.paths).flatMap(([url, ops]) =>
      Object.keys(ops).map((method) => ({ method: method.toUpperCase(), url })),
    );
    const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
    expect(documented.map(key).sort()).toEqual(registered.map(key).sort());
    for (const [url, ops] of Object.entries(doc.paths)) {
      expect(url.startsWith('/api/')).toBe(true);
      for (const op of Object.values(ops)) {
        expect(op.summary).toBeTruthy();
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      }
    }
    const login = doc.paths[api(paths.passwordAuthentication)]!.post as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
      responses: Record<string, { description: string }>;
    };
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['username', 'password']),
    );
    expect(login.responses['200']!.description).toContain('1403');
    expect(doc.paths[api(paths.sessionLogout)]!.delete!.responses).toHaveProperty('204');
  });

  test('production: the OpenAPI document does not list the development outbox', async () => {
    // A development app built first in the same process must not leak its routes into another app's document.
    await h.start();
    const { app } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      ...productionMail,
    });
    const doc = (await app.inject({ method: 'GET', url: api(paths.openapi) })).json() as OpenApi;
    expect(Object.keys(doc.paths)).not.toContain(api(paths.devOutbox));
    expect(Object.keys(doc.paths)).toContain(api(paths.passwordAuthentication));
  });

  test('/api/docs renders a script-free HTML reference', async () => {
    const { app } = await h.start();
    const r = await app.inject({ method: 'GET', url: api('/docs') });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toMatch(/^<!doctype html>/i);
    expect(r.body).toContain('<h1>Gatehouse API reference</h1>');
    expect(r.body).toContain(`POST ${api(paths.passwordAuthentication)}`);
    expect(r.body).toContain(`DELETE ${api(paths.sessionLogout)}`);
    expect(r.body).not.toMatch(/<script|\son\w+=|javascript:/i);
  });

  test('the development outbox answers in development mode', async () => {
    const { app } = await h.start();
    await h.db
      .insertInto('outbox')
      .values([
        {
          channel: 'email',
          recipient: 'a@example.com',
          text: 'older',
          code: '111111',
          sent_at: new Date(1000),
        },
        {
          channel: 'email',
          recipient: 'a@example.com',
          text: 'newer',
          code: '222222',
          sent_at: new Date(2000),
        },
        { channel: 'sms', recipient: '2025550143', text: 'other', code: null, sent_at: new Date(3000) },
      ])
      .execute();
    const r = await app.inject({ method: 'GET', url: `${api(paths.devOutbox)}?to=a%40example.com` });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      messages: [
        {
          channel: 'email',
          to: 'a@example.com',
          text: 'newer',
          code: '222222',
          sentAt: new Date(2000).toISOString(),
        },
        {
          channel: 'email',
          to: 'a@example.com',
          text: 'older',
          code: '111111',
          sentAt: new Date(1000).toISOString(),
        },
      ],
    });
    const missing = expectFailureEnvelope(
      await app.inject({ method: 'GET', url: api(paths.devOutbox) }),
      400,
      4400,
    );
    expect(missing.responseBaseInfo.status.message).toBe('The request is not valid: to: is required');
  });

  test('the development outbox is 404 in production mode', async () => {
    const { app } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      ...productionMail,
    });
    const r = await app.inject({ method: 'GET', url: `${api(paths.devOutbox)}?to=a%40example.com` });
    expectFailureEnvelope(r, 404, 4404);
  });

  test('demo seeding: every account of demo/accounts.json, every tag covered, nothing duplicated on a second start', async () => {
    const accounts = readDemoAccounts(demoFile);
    for (const a of accounts) rememberSecret(a.password);
    expect([...demoTags].sort()).toEqual([...designTags].sort());
    for (const tag of designTags) {
      expect(
        accounts.some((a) => a.tags.includes(tag as (typeof demoTags)[number])),
        `tag ${tag}`,
      ).toBe(true);
    }
    expect(JSON.parse(readFileSync(demoFile, 'utf8'))).toHaveLength(accounts.length);

    const first = await h.start({ SEED_DEMO: 'true' });
    const count = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from accounts`.execute(h.db)).rows[0]!.n);
    const contacts = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from credentials`.execute(h.db)).rows[0]!.n);
    expect(await count()).toBe(accounts.length);
    const contactsAfterFirst = await contacts();
    const rows = await h.db.selectFrom('accounts').select(['username', 'status', 'password_state']).execute();
    expect(rows.map((r) => r.username).sort()).toEqual(accounts.map((a) => a.username).sort());

    // The seeded accounts behave as their tags say.
    const byTag = (tag: string) => accounts.find((a) => a.tags.includes(tag as never))!;
    const expected: Array<[string, number]> = [
      ['password-only', 1200],
      ['expired-password', 1205],
      ['blocked', 1401],
      ['locked', 1203],
    ];
    for (const [tag, status] of expected) {
      const a = byTag(tag);
      expect(code(await new Client(first.app).signInPassword(a.username, a.password)), tag).toBe(status);
    }
    const po = byTag('password-only');
    await new Client(first.app).signIn(po.username, po.password);
    await first.app.close();

    // A second start on the same database adds nothing.
    await h.start({ SEED_DEMO: 'true' });
    expect(await count()).toBe(accounts.length);
    expect(await contacts()).toBe(contactsAfterFirst);
  });

  test('two instances starting at once on an empty database seed each account once', async () => {
    const accounts = readDemoAccounts(demoFile);
    const other = await h.another();
    await Promise.all([h.start({ SEED_DEMO: 'true' }), h.start({ SEED_DEMO: 'true' }, { db: other })]);
    const rows = await sql<{ username: string; n: string }>`
      select username, count(*) as n from accounts group by username`.execute(h.db);
    expect(rows.rows.length).toBe(accounts.length);
    expect(rows.rows.every((r) => Number(r.n) === 1)).toBe(true);
    const contacts = await sql<{ n: string }>`
      select count(*) as n from credentials c join accounts a on a.id = c.account_id
      where a.username = 'allfactors1' and c.kind in ('phone', 'email')`.execute(h.db);
    expect(Number(contacts.rows[0]!.n)).toBe(3);
  });

  test('migrations are idempotent', async () => {
    expect(await migrate(h.db as never)).toEqual([]);
    expect(await migrate(h.db as never)).toEqual([]);
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = current_schema() order by table_name`.execute(
      h.db,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'accounts',
        'credentials',
        'outbox',
        'password_history',
        'rate_limits',
        'sessions',
      ]),
    );
    // Building an app migrates too, and again changes nothing.
    await h.start();
    await h.start();
    expect(await migrate(h.db as never)).toEqual([]);
  });

  test("migrations into an empty schema are not fooled by another schema's Kysely tables", async () => {
    // Another application's migrations in a schema of its own, newer than ours.
    await sql`create schema other_app`.execute(h.db);
    await sql`create table other_app.kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null)`.execute(
      h.db,
    );
    await sql`create table other_app.kysely_migration_lock (id varchar(255) primary key, is_locked integer not null default 0)`.execute(
      h.db,
    );
    await sql`insert into other_app.kysely_migration values ('001_foundation', '2020-01-01')`.execute(h.db);
    try {
      const fresh = `fresh_${Date.now()}`;
      await sql`create schema ${sql.id(fresh)}`.execute(h.db);
      let db = h.db;
      if (target.name === 'postgres') {
        const url = new URL(process.env.DATABASE_URL!);
        url.searchParams.set('options', `-c search_path=${fresh}`);
        db = await openDatabase({ kind: 'postgres', url: url.toString() });
      } else {
        await sql`set search_path to ${sql.id(fresh)}`.execute(db); // PGlite: one connection
      }
      try {
        expect(await migrate(db as never)).toContain('001_foundation');
        const tables = await sql<{ table_name: string }>`
          select table_name from information_schema.tables where table_schema = ${fresh}`.execute(db);
        expect(tables.rows.map((r) => r.table_name)).toEqual(
          expect.arrayContaining(['accounts', 'kysely_migration']),
        );
      } finally {
        if (db !== h.db) await db.destroy();
        else await sql`set search_path to public`.execute(db);
        await sql`drop schema ${sql.id(fresh)} cascade`.execute(h.db);
      }
    } finally {
      await sql`drop schema other_app cascade`.execute(h.db);
    }
  });

  test('no secret reaches the log: passwords, session tokens and XSRF tokens', async () => {
    const { app, ctx, logs } = await h.start({ LOG_LEVEL: 'trace' });
    await createAccount(ctx, { username: 'alexdemo1', password: 'Harbor7Lights' });
    const client = new Client(app);
    const secrets: string[] = ['Harbor7Lights', 'Wrong7Secret9'];
    await client.signInPassword('alexdemo1', 'Wrong7Secret9');
    await client.signInPassword('alexdemo1', 'Harbor7Lights');
    secrets.push(client.cookies.get('ET')!, client.cookies.get('XSRF-TOKEN')!);
    await client.sessionLogin();
    secrets.push(
      client.cookies.get('ET')!,
      client.cookies.get('XSRF-TOKEN')!,
      client.cookies.get('GH_DEVICE')!,
    );
    // Secrets in places a careless logger would pick up: the query string, a bad body, headers.
    await client.get(`${api(paths.sessionLogin)}?password=Harbor7Lights`);
    await client.request({
      method: 'POST',
      url: api(paths.passwordAuthentication),
      payload: '{"password":"Harbor7Lights"',
    });
    await client.post(api(paths.passwordAuthentication), {
      username: 'alexdemo1',
      password: ['Harbor7Lights'],
    });
    await client.request({
      method: 'POST',
      url: api(paths.passwordAuthentication),
      body: { username: 'alexdemo1', password: 'Harbor7Lights' },
      headers: { authorization: 'Bearer Harbor7Lights' },
    });
    await client.delete(api(paths.sessionLogout));
    // The specs' correlation headers are logged.
    await client.get(api(paths.health), {
      AppId: 'PRIMESRVPORTAL',
      AppName: 'Prime Portal',
      eventtype: 'LOGIN',
    });

    expect(logs.length).toBeGreaterThan(10);
    expect(
      logs.some((l) => l.includes('"appId":"PRIMESRVPORTAL"') && l.includes('"eventType":"LOGIN"')),
    ).toBe(true);
    const parsed = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.some((l) => typeof l.requestId === 'string' && /^REQ/.test(l.requestId))).toBe(true);
    expect(parsed.some((l) => l.msg === 'signed in')).toBe(true);
    expect(secrets.every((s) => s && s.length >= 10)).toBe(true);
    for (const secret of secrets) {
      expect(
        logs.find((l) => l.includes(secret)),
        `log contains ${secret}`,
      ).toBeUndefined();
    }
  });
});

describe('configuration', () => {
  const fails = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      return message;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };

  test('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      production: false,
      port: 8080,
      databaseUrl: undefined,
      cookieSecure: false,
      cookieSameSite: 'lax',
      sessionIdleMs: 4 * 3_600_000,
      sessionAbsoluteMs: 12 * 3_600_000,
      lockoutFailures: 6,
      argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
      bodyLimit: 16384,
      seedDemo: true,
      devCompanions: true,
    });
  });

  test('production defaults: Secure cookies, no demo accounts, no development companions', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      ...productionMail,
    });
    expect(config).toMatchObject({
      production: true,
      cookieSecure: true,
      seedDemo: false,
      devCompanions: false,
    });
    expect(config.sessionSecret).toBe(productionSecret);
  });

  test('a bad PORT: one line naming PORT', () => {
    expect(fails({ PORT: 'eighty' })).toBe(
      'Invalid setting PORT (got "eighty"): must be a whole number from 0 to 65535',
    );
    expect(fails({ PORT: '70000' })).toMatch(/^Invalid setting PORT/);
  });

  test('a bad DATABASE_URL: one line naming DATABASE_URL, without echoing it', () => {
    const message = fails({ DATABASE_URL: 'mysql://root:hunter22@db/app' });
    expect(message).toBe('Invalid setting DATABASE_URL: must start with postgres:// or postgresql://');
    expect(message).not.toContain('hunter22');
  });

  test('production without SESSION_SECRET, or with a short one: one line naming SESSION_SECRET', () => {
    expect(fails({ NODE_ENV: 'production' })).toMatch(
      /^Invalid setting SESSION_SECRET: is required in production/,
    );
    const short = fails({ NODE_ENV: 'production', SESSION_SECRET: 'short-secret' });
    expect(short).toMatch(/^Invalid setting SESSION_SECRET: must be at least 32 characters/);
    expect(short).not.toContain('short-secret');
  });

  test('other bad settings name themselves', () => {
    expect(fails({ NODE_ENV: 'staging' })).toMatch(/^Invalid setting NODE_ENV/);
    expect(fails({ COOKIE_SECURE: 'yes' })).toMatch(/^Invalid setting COOKIE_SECURE/);
    expect(fails({ ARGON2_MEMORY_KIB: '1024' })).toMatch(/^Invalid setting ARGON2_MEMORY_KIB/);
    expect(fails({ BODY_LIMIT_BYTES: '10' })).toMatch(/^Invalid setting BODY_LIMIT_BYTES/);
    expect(fails({ PUBLIC_ORIGIN: 'not a url' })).toMatch(/^Invalid setting PUBLIC_ORIGIN/);
    expect(fails({ COOKIE_SAMESITE: 'none' })).toMatch(/^Invalid setting COOKIE_SAMESITE/);
    expect(
      fails({ NODE_ENV: 'production', SESSION_SECRET: productionSecret, DEV_COMPANIONS: 'true' }),
    ).toMatch(/^Invalid setting DEV_COMPANIONS/);
  });
});
