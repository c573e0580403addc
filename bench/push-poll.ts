/**
 * Push polling under load (issue 11): 10,000 customers wait on a push and poll
 * `POST /api/user/factor/push/status` every 3 s (widget spec §9), which is an offered rate of
 * 3,333 polls per second. The identity service (production mode, PostgreSQL, logging at info to a
 * file) and a bare Fastify app with one JSON POST route run side by side and are measured in the
 * same run, at the customers' rate and flat out, so the figures read as ratios as well as numbers.
 * The goal it reports against: 3,300 polls/s at p99 < 100 ms on this machine.
 *
 *   node --import tsx bench/push-poll.ts [--customers 10000] [--interval 3] [--duration 10]
 *                                        [--connections 100] [--database-url URL] [--profile DIR]
 *
 * Each customer is a login journey at its second factor with one pending push (written straight
 * into the bench database through the service's own stores, since 10,000 password sign-ins would
 * measure argon2id, not polling); each poll carries that customer's session cookie and CSRF token,
 * as the widget's does. Needs PostgreSQL (default postgres://postgres@127.0.0.1:5432/gh_bench_push,
 * created when missing). Not part of `npm test`. Ports: BENCH_PORT (8292) and the next one.
 */

import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { benchServiceEnv, nodeChild } from './service-env.ts';
import { waitFor } from './wait-for.ts';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL_BENCH_PUSH },
    bare: { type: 'string' },
    'log-file': { type: 'string', default: '/tmp/gatehouse-bench-push.log' },
    /** Writes a CPU profile of the service (node --cpu-prof) into this folder. */
    profile: { type: 'string' },
  },
});

const customers = Number(args.customers);
const interval = Number(args.interval);
const duration = Number(args.duration);
const connections = Number(args.connections);
const offered = Math.round(customers / interval);
const goal = { rate: 3300, p99: 100 };
const port = Number(process.env.BENCH_PORT ?? 8292);
const barePort = port + 1;
const root = new URL('..', import.meta.url);
const secret = randomBytes(24).toString('hex');
const publicOrigin = 'https://bench.example';

/** The baseline: a bare Fastify 5 app, one JSON POST route answering a status, no logger. */
async function bare(listenPort: number) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.post('/status', async () => ({ successData: { status: 'PENDING' } }));
  app.get('/status', async () => ({ status: 'ok' }));
  await app.listen({ port: listenPort, host: '127.0.0.1' });
}

type Customer = { cookie: string; csrf: string; body: string };
type Result = { rps: number; p50: number; p99: number; errors: number; non2xx: number; wrong: number };

/** One autocannon run over the customers, round-robin; `rate`: the offered polls per second. */
async function poll(url: string, list: Customer[], rate?: number, seconds = duration): Promise<Result> {
  let next = 0;
  let wrong = 0;
  const result = await autocannon({
    url,
    duration: seconds,
    connections,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const c = list[next++ % list.length]!;
          return {
            ...req,
            headers: {
              'content-type': 'application/json',
              cookie: c.cookie,
              'x-xsrf-token': c.csrf,
              origin: publicOrigin,
            },
            body: c.body,
          };
        },
        onResponse: (status, body) => {
          if (status !== 200 || !body.includes('PENDING')) wrong += 1;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    wrong,
  };
}

async function main() {
  const {
    openDatabase,
    migrate,
    loadConfig,
    PasswordHasher,
    readDemoAccounts,
    seedDemoAccounts,
    systemClock,
    CredentialCipher,
    CredentialStore,
    JourneyStore,
    PushStore,
    Csrf,
    cookieNames,
    sha256,
  } = await import('@gatehouse/identity');

  const databaseUrl = args['database-url'] ?? 'postgres://postgres@127.0.0.1:5432/gh_bench_push';
  const admin = new URL(databaseUrl);
  const dbName = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const adminDb = await openDatabase({ kind: 'postgres', url: admin.toString() });
  const exists = await sql`select 1 from pg_database where datname = ${dbName}`.execute(adminDb);
  if (!exists.rows.length) await sql`create database ${sql.id(dbName)}`.execute(adminDb);
  await adminDb.destroy();

  const serviceEnv = benchServiceEnv({
    port,
    databaseUrl,
    publicOrigin,
    sessionSecret: secret,
    extra: { PUSH_WEBHOOK_URL: 'http://127.0.0.1:9/push', PUSH_WEBHOOK_TOKEN: 'bench-webhook-token' },
  });
  const config = loadConfig(serviceEnv);
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl });
  await migrate(db as never);
  const credentials = new CredentialStore(db, new CredentialCipher(config.credentialKeys), systemClock);
  const demo = readDemoAccounts(new URL('demo/accounts.json', root));
  await seedDemoAccounts(
    db,
    new PasswordHasher(config.argon2),
    systemClock,
    demo.filter((a) => a.username === 'pushuser1'),
    credentials,
  );
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('username_key', '=', 'pushuser1')
    .executeTakeFirstOrThrow();
  const device = await db
    .selectFrom('credentials')
    .select('id')
    .where('account_id', '=', account.id)
    .where('kind', '=', 'push')
    .executeTakeFirstOrThrow();
  // Earlier runs' journeys and pushes would only grow the tables.
  await sql`delete from push_transactions`.execute(db);
  await sql`delete from journeys`.execute(db);
  await sql`delete from rate_limits`.execute(db);

  const journeys = new JourneyStore(db, systemClock, config);
  const pushes = new PushStore(db, systemClock);
  const csrf = new Csrf({ config } as never);
  const names = cookieNames(config);
  const list: Customer[] = [];
  const started = performance.now();
  for (let batch = 0; batch < customers; batch += 100) {
    const made = await Promise.all(
      Array.from({ length: Math.min(100, customers - batch) }, async () => {
        const { journey, token } = await journeys.start({
          kind: 'login',
          state: 'factor',
          accountId: account.id,
          ttlMs: 3_600_000,
          bound: true,
        });
        const push = await pushes.create({
          journeyId: journey.id,
          accountId: account.id,
          credentialId: device.id,
          description: 'Sign-in request',
          content: {
            browserName: 'Chromium',
            osName: 'Linux',
            host: 'bench.example',
            journey: 'LOGIN',
          },
          expiryMs: 3_600_000,
          numberMatching: false,
          // Every waiting customer is the one bench account: no per-account push limit here.
          accountLimit: { max: Number.MAX_SAFE_INTEGER, windowMs: 60_000 },
        });
        if (!token || typeof push === 'string')
          throw new Error('the bench could not create a waiting customer');
        return {
          cookie: `${names.session}=${token}`,
          csrf: csrf.issue(`s:${sha256(token)}`),
          body: JSON.stringify({ id: push.id, bindDevice: false }),
        };
      }),
    );
    list.push(...made);
  }
  await db.destroy();
  const seeded = (performance.now() - started) / 1000;

  const log = openSync(args['log-file']!, 'w');
  const node = nodeChild(root, log);
  // Polls every 3 s per customer: the service's own limit is per journey, far above that.
  const service = node(
    ['apps/identity/src/main.ts'],
    serviceEnv,
    args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [],
  );
  const bareApp = node(['bench/push-poll.ts', '--bare', String(barePort)], {});
  const children = [service, bareApp];
  const stop = () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`, service, 'the identity service');
    await waitFor(`http://127.0.0.1:${barePort}/status`, bareApp, 'the bare app');
    const serviceUrl = `http://127.0.0.1:${port}/api/user/factor/push/status`;
    const bareUrl = `http://127.0.0.1:${barePort}/status`;

    // Warm-up: JIT, pools, connections (on a slice of the customers, so their windows stay fresh).
    await poll(bareUrl, list.slice(0, 100), undefined, 2);
    await poll(serviceUrl, list.slice(0, 1000), undefined, 3);

    const bareAtRate = await poll(bareUrl, list, offered);
    const serviceAtRate = await poll(serviceUrl, list, offered);
    const bareMax = await poll(bareUrl, list);
    const serviceMax = await poll(serviceUrl, list);

    const line = (name: string, r: Result, of?: Result) =>
      `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} /s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(
        r.p99,
      ).padStart(5)} ms${of ? `  ${(r.rps / of.rps).toFixed(2)} of bare` : ''}${
        r.errors || r.non2xx || r.wrong
          ? `  (errors ${r.errors}, non-2xx ${r.non2xx}, not PENDING ${r.wrong})`
          : ''
      }`;
    console.log(
      `\n${customers} customers polling every ${interval} s: ${offered} polls/s offered, ${connections} connections, ${duration} s per run (seeded in ${seeded.toFixed(1)} s)\n`,
    );
    console.log(line('bare Fastify POST, at the offered rate', bareAtRate));
    console.log(line('push/status, at the offered rate', serviceAtRate, bareAtRate));
    console.log(line('bare Fastify POST, flat out', bareMax));
    console.log(line('push/status, flat out', serviceMax, bareMax));
    const meets = serviceAtRate.rps >= goal.rate && serviceAtRate.p99 < goal.p99 && !serviceAtRate.wrong;
    console.log(
      `\ngoal ${goal.rate} polls/s at p99 < ${goal.p99} ms: ${meets ? 'met' : 'not met'} — ${serviceAtRate.rps.toFixed(
        0,
      )} polls/s (${((serviceAtRate.rps / goal.rate) * 100).toFixed(0)}% of the goal) at p99 ${serviceAtRate.p99} ms; flat out ${serviceMax.rps.toFixed(
        0,
      )} polls/s, ${(serviceMax.rps / bareMax.rps).toFixed(2)} of the bare route's ${bareMax.rps.toFixed(0)}.`,
    );
  } finally {
    stop();
    closeSync(log);
  }
}

if (args.bare) await bare(Number(args.bare));
else await main();
