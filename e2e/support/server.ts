import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { buildApp, type Context, type DB, loadConfig, openDatabase, TestClock } from '@gatehouse/identity';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serverEnv } from './env.ts';
import { openSeededCopy } from './seeded-database.ts';

export type RunningServer = {
  app: FastifyInstance;
  ctx: Context;
  clock: TestClock;
  origin: string;
  /** The staff console's own origin (CONSOLE_ORIGIN unset in development: 127.0.0.1, console/gate.ts). */
  consoleOrigin: string;
  logs: string[];
  close: () => Promise<void>;
};

/**
 * The whole product on a free port: the identity service serving the built apps, with its own
 * in-memory PGlite database, a copy of the run's migrated and seeded one (global-setup.ts), and
 * every log line kept for checks.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { port?: number; database?: 'pglite' | 'postgres' } = {},
): Promise<RunningServer> {
  // A fixed port when the service must know its own origin before it listens (the OpenID issuer).
  const config = loadConfig(
    serverEnv(options.port ? { PUBLIC_ORIGIN: `http://localhost:${options.port}`, ...env } : env),
  );
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = new TestClock();
  // PostgreSQL (DATABASE_URL): a schema of its own, migrated and seeded by the service at start,
  // dropped at close; else a copy of the run's seeded PGlite database.
  const postgres = options.database === 'postgres' ? await postgresSchema() : undefined;
  const db = postgres ? postgres.db : await openSeededCopy(inject('seededDatabase'));
  const { app, ctx } = await buildApp({ config, db, clock, logStream });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    ctx,
    clock,
    origin: `http://localhost:${port}`,
    consoleOrigin: `http://127.0.0.1:${port}`,
    logs,
    close: async () => {
      await app.close();
      await postgres?.drop();
      await db.destroy();
    },
  };
}

/**
 * One server and one Chromium for a whole test file, started before its tests and closed after:
 * `const env = useServerAndBrowser();` then `env.server.origin`, `env.browser.newContext()`.
 */
export function useServerAndBrowser(): { server: RunningServer; browser: Browser } {
  const env = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** A PostgreSQL schema of its own on DATABASE_URL, for one server (the database `test` is shared scratch). */
async function postgresSchema(): Promise<{ db: DB; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const schema = `e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ kind: 'postgres', url });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  await admin.destroy();
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openDatabase({ kind: 'postgres', url: scoped.toString() });
  return {
    db,
    drop: async () => void (await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db)),
  };
}

/** A port of the range these tests may use (8500-8549) that nothing listens on now. */
export async function freePort(from = 8500, to = 8549): Promise<number> {
  const { createServer } = await import('node:net');
  for (
    let port = from + Math.floor(Math.random() * (to - from + 1)), tries = 0;
    tries <= to - from;
    tries++
  ) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
    port = port === to ? from : port + 1;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/**
 * The messages each test server's outbox has handed to a test, by server and address (by the
 * server itself: a later file of the worker may get the same port).
 */
const handedOut = new WeakMap<RunningServer, Map<string, Set<string>>>();

/**
 * The newest message the dev outbox holds for an address, once it is one no test has read before:
 * a read right after a click that sends waits for that send, rather than returning the code an
 * earlier step (or test) already used (a clean-clone run read a used code that way and failed).
 * No new message with a code within 15 s fails the test.
 */
export async function latestMail(server: RunningServer, to: string): Promise<{ code: string; text: string }> {
  const byAddress = handedOut.get(server) ?? new Map<string, Set<string>>();
  handedOut.set(server, byAddress);
  const seen = byAddress.get(to) ?? new Set<string>();
  byAddress.set(to, seen);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await fetch(`${server.origin}/api/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await response.json()) as {
      messages: Array<{ code: string | null; text: string; sentAt: string }>;
    };
    const mail = body.messages[0];
    const key = mail && `${mail.sentAt} ${mail.code} ${mail.text}`;
    if (mail?.code && key && !seen.has(key)) {
      seen.add(key);
      return { code: mail.code, text: mail.text };
    }
    if (Date.now() > deadline) throw new Error(`no new code sent to ${to} within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // wait: the outbox's poll interval
  }
}

/** The code of the newest message for an address that no test has read before (see latestMail). */
export const latestCode = async (server: RunningServer, to: string): Promise<string> =>
  (await latestMail(server, to)).code;
