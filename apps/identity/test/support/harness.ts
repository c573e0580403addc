import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Envelope, headers as headerNames, paths } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Context } from '../../src/context.ts';
import { type DB, openDatabase } from '../../src/db/database.ts';
import { migrate, migrationSources } from '../../src/db/migrations.ts';
import { pgliteKysely } from '../../src/db/pglite-dialect.ts';
import type { Database } from '../../src/db/schema.ts';
import { TestClock } from '../../src/lib/clock.ts';

/**
 * Shared support for the API tests: the database targets (PGlite always, PostgreSQL when
 * DATABASE_URL is set), an app factory that collects every log line, a client that keeps cookies
 * and sends the CSRF header, and a registry of secrets that must never reach a log line.
 */

export type Target = {
  name: 'pglite' | 'postgres';
  /** Opens the database (clean, migrated). */
  open(): Promise<DB>;
  /** A second handle on the same database, as a second instance would have (PGlite: the same). */
  another(db: DB): Promise<DB>;
  /** Removes what open() made, before the handle is destroyed. */
  dispose?(db: DB): Promise<void>;
};

/**
 * A fresh in-memory PGlite costs seconds (initdb in WebAssembly); one loaded from a dump of a
 * freshly migrated database costs a fraction. The dump is kept in the temp folder, keyed by the
 * migrations' source, and migrate() still runs on every copy.
 */
async function freshPGlite(): Promise<DB> {
  return (await freshPGliteClient()).db;
}

/** A fresh, migrated PGlite with its client, for tests that break the database under the service. */
export async function freshPGliteClient(): Promise<{ client: PGlite; db: DB }> {
  const migrationsSource = migrationSources();
  // The PGlite build goes into the key too: its entry file changes with every release.
  const pgliteEntry = readFileSync(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const key = createHash('sha256').update(migrationsSource).update(pgliteEntry).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `gatehouse-pglite-${key}.tar`);
  if (!existsSync(file)) {
    const template = await PGlite.create();
    const templateDb = pgliteKysely<Database>(template);
    await migrate(templateDb as never);
    const dump = await template.dumpDataDir('none');
    await templateDb.destroy();
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  const client = await PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  const db = pgliteKysely<Database>(client);
  await migrate(db as never);
  return { client, db };
}

/** What `onOwnPGlite` hands a test: its own database (to break), the app on it, its log lines. */
export type OwnPGlite = { pglite: PGlite; db: DB; app: FastifyInstance; ctx: Context; logs: string[] };

/**
 * Runs `work` against an app on a PGlite of its own, which the test may close under it (a database
 * fault) without touching the file's shared database; the app and the database are closed after.
 * Its log lines are checked for secrets with every other line of the file (assertNoSecretsLogged).
 */
export async function onOwnPGlite<T>(
  work: (own: OwnPGlite) => Promise<T>,
  options: { env?: Record<string, string>; clock?: TestClock } = {},
): Promise<T> {
  startEachFileClean();
  const { client: pglite, db } = await freshPGliteClient();
  const logs: string[] = [];
  const { app, ctx } = await buildApp({
    config: loadConfig({ ...baseEnv, ...options.env }),
    db,
    ...(options.clock ? { clock: options.clock } : {}),
    logStream: {
      write(line: string) {
        logs.push(line);
        logLines.push(line);
      },
    },
  });
  try {
    return await work({ pglite, db, app, ctx, logs });
  } finally {
    await app.close();
    await db.destroy().catch(() => {});
  }
}

const pglite: Target = {
  name: 'pglite',
  open: freshPGlite,
  another: async (db) => db,
};

export const postgresUrl = process.env.DATABASE_URL;
/** The schema-scoped URL of each open PostgreSQL test database, for a second handle on it. */
const schemaUrls = new WeakMap<DB, { url: string; schema: string }>();
const postgres: Target = {
  name: 'postgres',
  /**
   * The database `test` is scratch and shared with other suites (the end-to-end journeys drop and
   * recreate `public`): each describe block works in a schema of its own, empty at the start and
   * dropped at the end, selected with the connection's search_path.
   */
  open: async () => {
    const schema = `api_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = await openDatabase({ kind: 'postgres', url: postgresUrl! });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
    const url = new URL(postgresUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const db = await openDatabase({ kind: 'postgres', url: url.toString() });
    schemaUrls.set(db, { url: url.toString(), schema });
    try {
      await migrate(db as never);
    } catch (error) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
      throw error;
    }
    return db;
  },
  another: async (db) => openDatabase({ kind: 'postgres', url: schemaUrls.get(db)!.url }),
  dispose: async (db) => {
    const { schema } = schemaUrls.get(db)!;
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
  },
};

export const targets: Target[] = postgresUrl ? [pglite, postgres] : [pglite];

/** Settings of every test app: fast argon2, no static apps, generous limits unless a test lowers them. */
export const baseEnv: Record<string, string> = {
  NODE_ENV: 'test',
  SERVE_APPS: 'false',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'info',
  ARGON2_MEMORY_KIB: '8192',
  ARGON2_ITERATIONS: '1',
  RATE_LIMIT_CLIENT_MAX: '100000',
  RATE_LIMIT_ACCOUNT_MAX: '10000',
  PUSH_ACCOUNT_MAX: '10000',
  DEVICE_CLIENT_MAX: '100000',
};

export const productionSecret = 'q7Vx2LmN9pR4sT8wY3zB6cF1hJ5kD0gK';
/** Text and voice delivery that production mode requires (nothing listens there either). */
export const productionSms = {
  SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms',
  SMS_WEBHOOK_TOKEN: 'a-webhook-token-for-tests',
  // Required in production mode; the tests pass their own database handle, so it is never opened.
  DATABASE_URL: 'postgres://unused@127.0.0.1:9/unused',
  PUBLIC_ORIGIN: 'https://portal.bank.example',
  // The staff console on its own origin (required in production mode: console/gate.ts).
  CONSOLE_ORIGIN: 'https://console.bank.example',
  // 32 random bytes: production mode requires a credential key (decision 021).
  CREDENTIAL_KEYS: 'k1:kIUg+NdoVATp++4E7+u+vO+xMVYNPuhBoEsawrs0bSU=',
};
/**
 * E-mail delivery that production mode requires (nothing listens there: tests that send start their
 * own), with the text and voice webhook it requires too.
 */
export const productionMail = {
  SMTP_URL: 'smtp://127.0.0.1:2525',
  MAIL_FROM: 'Prime Portal <no-reply@bank.example>',
  ...productionSms,
};

// --- secrets that must never be logged -----------------------------------------------------------
const secrets = new Set<string>();
export const logLines: string[] = [];
/**
 * The files of a worker share this module (isolate: false, decision 056): each file checks its own
 * lines against its own secrets, so a new file starts with neither. (Another file's secret may be
 * this file's ordinary value: one file's password was another's application name.)
 */
let linesOf: string | undefined;
function startEachFileClean() {
  const file = expect.getState().testPath;
  if (file !== linesOf) {
    logLines.length = 0;
    secrets.clear();
  }
  linesOf = file;
}
export function rememberSecret(value: string | undefined) {
  startEachFileClean();
  if (value && value.length >= 6) secrets.add(value);
}
/** Every log line of every app built in this file, checked once at the end of the file. */
export function assertNoSecretsLogged() {
  expect(logLines.length).toBeGreaterThan(0);
  // A line's responseTime is a float the server measured, never a secret: a digits-only secret
  // (an SSN of the client-log tests) once matched the middle of one by chance.
  const searched = logLines.map((l) => l.replace(/"responseTime":[0-9.e+-]+/g, '"responseTime":0'));
  for (const secret of secrets) {
    // A digits-only secret (a code) counts as a whole number only: a line's time in milliseconds
    // (13 digits) once held a six-digit code in its middle by chance.
    const digits = /^[0-9]+$/.test(secret) ? new RegExp(`(?<![0-9])${secret}(?![0-9])`) : undefined;
    const line = searched.find((l) => (digits ? digits.test(l) : l.includes(secret)));
    expect(line, `a log line contains the secret ${secret}`).toBeUndefined();
  }
}

// --- apps ------------------------------------------------------------------------------------------
export type Started = { app: FastifyInstance; ctx: Context; logs: string[] };

export type Harness = {
  readonly db: DB;
  readonly clock: TestClock;
  /** Builds an app on the test database (or the given one) with baseEnv plus the overrides. */
  start(env?: Record<string, string>, options?: { db?: DB }): Promise<Started>;
  /** A second database handle, for a second instance. */
  another(): Promise<DB>;
};

/** Registers the hooks of one database target and returns the harness for the tests inside. */
/** The tables every test starts without rows in; and, through their foreign keys, those that refer to them. */
const emptiedTables = [
  'accounts',
  'sessions',
  'rate_limits',
  'outbox',
  'password_history',
  'credentials',
  'audit_events',
  'oidc_payloads',
];

/**
 * One statement that deletes every row of `emptiedTables` and of the tables that refer to them,
 * each in a data-modifying CTE (the foreign keys are checked at the statement's end, when all are
 * gone). It does what `truncate … cascade` did in a third to a half of its time on PGlite, where
 * a truncate writes new files for every table.
 */
async function emptyingStatement(db: DB): Promise<RawBuilder<unknown>> {
  const { rows } = await sql<{ child: string; parent: string }>`
    select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
    from pg_constraint c join pg_class r on r.oid = c.conrelid
    where c.contype = 'f' and r.relnamespace = current_schema()::regnamespace`.execute(db);
  const tables = new Set(emptiedTables);
  for (let grown = true; grown; ) {
    grown = false;
    for (const { child, parent } of rows) {
      const name = (t: string) => t.replace(/^.*\./, '').replaceAll('"', '');
      if (tables.has(name(parent)) && !tables.has(name(child))) {
        tables.add(name(child));
        grown = true;
      }
    }
  }
  const deletes = [...tables].map((table, i) => sql`${sql.id(`d${i}`)} as (delete from ${sql.id(table)})`);
  return sql`with ${sql.join(deletes)} select 1`;
}

export function useHarness(target: Target): Harness {
  let db: DB | undefined;
  let clock = new TestClock();
  const apps: FastifyInstance[] = [];
  const extraDbs: DB[] = [];

  let emptyTables: RawBuilder<unknown> | undefined;
  beforeAll(async () => {
    startEachFileClean();
    db = await target.open();
    emptyTables = await emptyingStatement(db);
  });
  beforeEach(async () => {
    clock = new TestClock();
    await emptyTables!.execute(db!);
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(async () => {
    for (const extra of extraDbs.splice(0)) await extra.destroy();
    if (db) await target.dispose?.(db);
    await db?.destroy();
    assertNoSecretsLogged();
  });

  return {
    get db() {
      return db!;
    },
    get clock() {
      return clock;
    },
    async start(env = {}, options = {}) {
      const logs: string[] = [];
      const { app, ctx } = await buildApp({
        config: loadConfig({ ...baseEnv, ...env }),
        db: options.db ?? db!,
        clock,
        logStream: {
          write(line: string) {
            logs.push(line);
            logLines.push(line);
          },
        },
      });
      apps.push(app);
      return { app, ctx, logs };
    },
    async another() {
      const other = await target.another(db!);
      if (other !== db) extraDbs.push(other);
      return other;
    },
  };
}

// --- accounts ------------------------------------------------------------------------------------
export type AccountInput = {
  username: string;
  password: string;
  status?: 'active' | 'blocked' | 'locked' | 'disabled';
  passwordState?: 'ok' | 'expired' | 'temporary';
  requireUsernameUpdate?: boolean;
  maintenance?: boolean;
  secondFactor?: boolean;
};

/** Inserts an account with the app's own hasher. */
export async function createAccount(ctx: Context, input: AccountInput) {
  rememberSecret(input.password);
  return ctx.db
    .insertInto('accounts')
    .values({
      username: input.username,
      username_key: input.username.toLowerCase(),
      display_name: input.username,
      email: `${input.username}@example.com`,
      password_hash: await ctx.hasher.hash(input.password),
      password_changed_at: ctx.clock.now(),
      status: input.status ?? 'active',
      password_state: input.passwordState ?? 'ok',
      require_username_update: input.requireUsernameUpdate ?? false,
      maintenance: input.maintenance ?? false,
      second_factor: input.secondFactor ?? false,
      prohibited: false,
      failed_logins: 0,
      tags: '[]',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// --- client ----------------------------------------------------------------------------------------
export type Response = LightMyRequestResponse & { body: string };

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** A browser-like client: keeps cookies, echoes XSRF-TOKEN in X-XSRF-TOKEN on state-changing calls. */
export class Client {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly options: { remoteAddress?: string; origin?: string } = {},
  ) {}

  async request(input: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    body?: unknown;
    payload?: string;
    headers?: Record<string, string>;
    csrf?: boolean;
  }): Promise<LightMyRequestResponse> {
    if (UNSAFE.has(input.method) && input.csrf !== false && !this.cookies.has('XSRF-TOKEN')) {
      await this.get(`/api${paths.health}`);
    }
    const headers: Record<string, string> = { ...(input.headers ?? {}) };
    if (this.options.origin) headers.origin = this.options.origin;
    if (UNSAFE.has(input.method) && input.csrf !== false) {
      headers[headerNames.csrf] = this.cookies.get('XSRF-TOKEN')!;
    }
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    let payload: string | undefined = input.payload;
    if (input.body !== undefined) {
      payload = JSON.stringify(input.body);
      const b = input.body as Record<string, unknown>;
      for (const key of ['password', 'newPassword', 'oldPassword']) {
        if (typeof b?.[key] === 'string') rememberSecret(b[key] as string);
      }
    }
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await this.app.inject({
      method: input.method,
      url: input.url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(this.options.remoteAddress ? { remoteAddress: this.options.remoteAddress } : {}),
    });
    for (const c of response.cookies as Array<{
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }>) {
      const cleared = c.value === '' || (c.expires && c.expires.getTime() <= Date.now()) || c.maxAge === 0;
      if (cleared) this.cookies.delete(c.name);
      else {
        this.cookies.set(c.name, c.value);
        rememberSecret(c.value);
      }
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, ...(headers ? { headers } : {}) });
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, body, ...(headers ? { headers } : {}) });
  }
  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }

  /** POST password authentication. */
  signInPassword(username: string, password: string) {
    return this.post(`/api${paths.passwordAuthentication}`, { username, password });
  }
  /** POST session login. */
  sessionLogin(headers?: Record<string, string>) {
    return this.post(`/api${paths.sessionLogin}`, undefined, headers);
  }
  /** GET session login (the route guard). */
  session() {
    return this.get(`/api${paths.sessionLogin}`);
  }
  /** Password and session login: a signed-in client. */
  async signIn(username: string, password: string) {
    const first = await this.signInPassword(username, password);
    expect(code(first)).toBe(1200);
    const second = await this.sessionLogin();
    expect(code(second)).toBe(1200);
    return second;
  }
}

export const json = <T = unknown>(response: LightMyRequestResponse) => response.json() as Envelope<T>;
export const code = (response: LightMyRequestResponse) => json(response).responseBaseInfo.status.code;

/** The raw Set-Cookie header line of a cookie, to check its attributes. */
export function setCookieLine(response: LightMyRequestResponse, name: string): string | undefined {
  const raw = response.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  return lines.find((l) => l.startsWith(`${name}=`));
}

/** The envelope every failure carries: status, errorType, error, and no stack trace. */
export function expectFailureEnvelope(response: LightMyRequestResponse, http: number, statusCode: number) {
  expect(response.statusCode).toBe(http);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = json(response);
  expect(body.responseBaseInfo.requestId).toMatch(/^REQ[A-Za-z0-9]{32}$/);
  expect(body.responseBaseInfo.status.code).toBe(statusCode);
  expect(body.responseBaseInfo.status.message.length).toBeGreaterThan(5);
  expect(body.errorType).toMatch(/^(APPLICATION|SYSTEM)_ERROR$/);
  expect(body.error).toEqual(body.responseBaseInfo.status);
  expect(response.body).not.toMatch(/stack|\bat .+\.ts:\d+|node_modules/i);
  return body;
}

export const api = (path: string) => `/api${path}`;

/** Every method and path the app registered, from Fastify's route tree. */
export function registeredRoutes(app: FastifyInstance): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line.replace(/│ {3}/g, '│   '));
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = stack.join('') + match[2]!;
    stack.push(match[2]!);
    for (const method of match[3]!.split(',').map((m) => m.trim())) {
      if (method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** The account's audit trail in order, as `event:outcome`. */
export const auditTrail = async (db: DB, accountId: string) =>
  (
    await db
      .selectFrom('audit_events')
      .select(['event', 'outcome'])
      .where('account_id', '=', accountId)
      .orderBy('at')
      .execute()
  ).map((e) => `${e.event}:${e.outcome}`);

/** How many of the account's sessions are not ended. */
export const liveSessionCount = async (db: DB, accountId: string) =>
  (
    await db
      .selectFrom('sessions')
      .select('id')
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .execute()
  ).length;
