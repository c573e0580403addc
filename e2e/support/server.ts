import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../apps/identity/src/app.ts';
import { loadConfig } from '../../apps/identity/src/config.ts';
import type { Context } from '../../apps/identity/src/context.ts';
import { openDatabase } from '../../apps/identity/src/db/database.ts';
import { TestClock } from '../../apps/identity/src/lib/clock.ts';
import { launchBrowser } from './browser.ts';

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
 * The whole product on a free port: the identity service serving the built apps, with a fresh
 * in-memory PGlite database seeded with the demo accounts, and every log line kept for checks.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig({
    NODE_ENV: 'development',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = new TestClock();
  const db = await openDatabase({ kind: 'pglite', dir: null });
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
