/**
 * The password step's timing for known and unknown usernames (issue 22 finding 8: known usernames
 * answered 1.3 ms slower, z = 6.3). The identity service is built in this process with the
 * production argon2id parameters (m=19456 KiB, t=2, p=1) on PGlite, or on PostgreSQL with
 * --database-url (a schema of its own, dropped at the end). Wrong passwords for existing accounts
 * and passwords for names no account has are sent one at a time, in a random order, and each
 * answer's time is taken from the request to its last byte. It prints both means and medians,
 * their difference, and Welch's z score of the difference (|z| < 2: no difference this sample can
 * tell apart from noise). Figures move with the machine and its neighbours; not part of `npm test`.
 *
 *   node --import tsx bench/username-timing.ts [--samples 400] [--database-url URL]
 *                                              [--memory 19456] [--iterations 2]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp, type DB, loadConfig, openDatabase } from '@gatehouse/identity';
import { sql } from 'kysely';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string', default: '400' },
    /** argon2id memory in KiB and iterations (lighter ones show the database's share more sharply). */
    memory: { type: 'string', default: '19456' },
    iterations: { type: 'string', default: '2' },
    'database-url': { type: 'string' },
  },
});
const samples = Number(args.samples);
const PASSWORD = 'Harbor7Lights';
/** Known accounts: each takes a share of the wrong passwords, below the lockout. */
const ACCOUNTS = 20;

async function database(): Promise<{ db: DB; label: string; dispose(): Promise<void> }> {
  const url = args['database-url'];
  if (url) {
    const schema = `bench_timing_${randomBytes(4).toString('hex')}`;
    const admin = await openDatabase({ kind: 'postgres', url });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
    const scoped = new URL(url);
    scoped.searchParams.set('options', `-c search_path=${schema}`);
    const db = await openDatabase({ kind: 'postgres', url: scoped.toString() });
    return {
      db,
      label: 'PostgreSQL',
      dispose: async () => {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
        await db.destroy();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-timing-'));
  const db = await openDatabase({ kind: 'pglite', dir });
  return {
    db,
    label: 'PGlite',
    dispose: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const { db, label, dispose } = await database();
  const { app, ctx } = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      SERVE_APPS: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      LOGIN_LOCKOUT_FAILURES: '100',
      ARGON2_MEMORY_KIB: args.memory,
      ARGON2_ITERATIONS: args.iterations,
      RATE_LIMIT_CLIENT_MAX: '100000',
      RATE_LIMIT_ACCOUNT_MAX: '10000',
      CLEANUP_INTERVAL_MINUTES: '0',
    }),
    db,
  });
  const hash = await ctx.hasher.hash(PASSWORD);
  for (let i = 0; i < ACCOUNTS; i++) {
    const username = `timing${String(i).padStart(4, '0')}`;
    await db
      .insertInto('accounts')
      .values({
        username,
        username_key: username,
        display_name: username,
        email: `${username}@example.com`,
        password_hash: hash,
        password_changed_at: new Date(),
        status: 'active',
        password_state: 'ok',
        require_username_update: false,
        maintenance: false,
        second_factor: false,
        prohibited: false,
        failed_logins: 0,
        tags: '[]',
      })
      .execute();
  }
  // One browser's cookies and CSRF token for every attempt, as a script would keep them.
  const health = await app.inject({ method: 'GET', url: '/api/health' });
  const cookie = health.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const csrf = health.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  const attempt = async (username: string) => {
    const started = process.hrtime.bigint();
    const r = await app.inject({
      method: 'POST',
      url: '/api/user/factor/password/authentication',
      headers: { cookie, 'x-xsrf-token': csrf, 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password: 'Wrong9Password' }),
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.json().responseBaseInfo.status.code !== 1403) throw new Error(`unexpected answer ${r.body}`);
    return ms;
  };

  // Warm-up: the worker pool, the prepared plans, the JIT.
  for (let i = 0; i < 20; i++) {
    await attempt(`timing${String(i % ACCOUNTS).padStart(4, '0')}`);
    await attempt(`nobody${randomBytes(3).toString('hex')}`);
  }
  await db.updateTable('accounts').set({ failed_logins: 0 }).execute();

  const known: number[] = [];
  const unknown: number[] = [];
  const order = [...Array(samples).fill('k'), ...Array(samples).fill('u')].sort(() => Math.random() - 0.5);
  let k = 0;
  for (const which of order) {
    if (which === 'k') known.push(await attempt(`timing${String(k++ % ACCOUNTS).padStart(4, '0')}`));
    else unknown.push(await attempt(`nobody${randomBytes(4).toString('hex')}`));
  }
  const difference = mean(known) - mean(unknown);
  const z = difference / Math.sqrt(variance(known) / known.length + variance(unknown) / unknown.length);
  const f = (x: number) => x.toFixed(3).padStart(8);
  console.log(
    `password step, wrong password: ${label}, argon2id m=${args.memory} t=${args.iterations} p=1, ${samples} samples each`,
  );
  console.log(`                 mean ms  median ms  stdev ms`);
  console.log(`known username  ${f(mean(known))}   ${f(median(known))}  ${f(Math.sqrt(variance(known)))}`);
  console.log(
    `unknown         ${f(mean(unknown))}   ${f(median(unknown))}  ${f(Math.sqrt(variance(unknown)))}`,
  );
  console.log(
    `difference (known - unknown): mean ${difference.toFixed(3)} ms, median ${(median(known) - median(unknown)).toFixed(3)} ms, Welch z = ${z.toFixed(2)}`,
  );
  await app.close();
  await dispose();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
