import { Writable } from 'node:stream';
import { buildApp, type Context, loadConfig, TestClock } from '@gatehouse/identity';
import type { FastifyInstance } from 'fastify';
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
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig(serverEnv(env));
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = new TestClock();
  const db = await openSeededCopy(inject('seededDatabase'));
  const { app, ctx } = await buildApp({ config, db, clock, logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
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

/** The newest message the dev outbox holds for an address (a code is in it, or the test fails). */
export async function latestMail(server: RunningServer, to: string): Promise<{ code: string; text: string }> {
  const response = await fetch(`${server.origin}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const body = (await response.json()) as { messages: Array<{ code: string | null; text: string }> };
  const mail = body.messages[0];
  if (!mail?.code) throw new Error(`no code sent to ${to}`);
  return { code: mail.code, text: mail.text };
}
