/**
 * Server throughput (issue 14 point 4): the identity service on PostgreSQL and a bare Fastify app,
 * side by side, measured in one run with autocannon; every figure is printed beside a ratio to a
 * baseline of the same run, since absolute figures move with the machine and its neighbours.
 *
 *   node --import tsx bench/server.ts [--duration 5] [--rounds 3] [--connections 10] [--database-url URL]
 *                                     [--only probe,browser,remember,otp,signin] [--profile DIR]
 *
 * - non-hashing calls (health without cookies as a load balancer probes it, health with a
 *   browser's cookies, the remember GET, the OTP state of a login transaction) against the bare
 *   route (`GET /health` answering `{"status":"ok"}`);
 * - complete password sign-ins (a new browser: GET health for the CSRF token, password
 *   authentication, session login answering 1200) against the raw argon2id verify rate on all
 *   cores (the same hash and parameters, in a process of its own, nothing else running);
 * - the health check's latency while sign-ins saturate the hashing (event loop never blocked).
 *
 * The service runs in production mode at LOG_LEVEL=info, logging to a file. It needs PostgreSQL
 * (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/gh_bench, created when missing) and is
 * not part of `npm test`. Ports: BENCH_PORT (8282) for the service and the next one for the bare app.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { CredentialCipher, CredentialStore } from '@gatehouse/identity';
import { verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { waitFor } from './wait-for.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL },
    bare: { type: 'string' },
    argon2: { type: 'string' },
    'log-file': { type: 'string', default: '/tmp/gatehouse-bench-identity.log' },
    /** Rows to run (comma-separated): probe, browser, remember, otp, signin; all by default. */
    only: { type: 'string' },
    /** Writes a CPU profile of the service (node --cpu-prof) into this folder. */
    profile: { type: 'string' },
  },
});

const cores = availableParallelism();
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const port = Number(process.env.BENCH_PORT ?? 8282);
const barePort = port + 1;
const PASSWORD = 'Harbor7Lights';
/** Sign-in accounts: one per connection, since the attempts on one account are serialised. */
const SIGNIN_ACCOUNTS = 64;
const root = new URL('..', import.meta.url);
const wanted = args.only?.split(',');
const want = (row: string) => !wanted || wanted.includes(row);

// --- child modes -----------------------------------------------------------------------------------

/**
 * The baseline: a bare Fastify 5 app with one JSON route, default settings, no logger. Two more
 * routes measure floors, what any service on this machine pays before its own code: one SQL
 * statement through the service's own database driver and pool (`GET /one-query`), and one
 * argon2id verify on the thread pool (`POST /verify`), the least a sign-in over HTTP can cost.
 */
async function bare(listenPort: number) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.get('/health', async () => ({ status: 'ok' }));
  if (process.env.BENCH_DATABASE_URL) {
    const { openDatabase } = await import('@gatehouse/identity');
    const db = await openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL });
    app.get('/one-query', async () => {
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      return { status: rows[0]?.one === 1 ? 'ok' : 'no' };
    });
  }
  const hash = process.env.BENCH_HASH;
  if (hash) app.post('/verify', async () => ({ verified: await verify(hash, PASSWORD) }));
  await app.listen({ port: listenPort, host: '127.0.0.1' });
}

/** The ceiling: argon2id verifications of one hash, as many at once as the thread pool runs. */
async function argon2Ceiling(hash: string, seconds: number) {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      if (!(await verify(hash, PASSWORD))) throw new Error('the bench hash does not verify');
      done += 1;
    }
  };
  const start = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(Array.from({ length: threads * 2 }, worker));
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(
    `${JSON.stringify({ rate: done / elapsed, threads, cpuUs: (cpu.user + cpu.system) / done })}\n`,
  );
}

// --- helpers ---------------------------------------------------------------------------------------

type Jar = Map<string, string>;
const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** Keeps the Set-Cookie lines of an answer (a cleared cookie is removed). */
function keepCookies(jar: Jar, setCookie: string | string[] | undefined) {
  for (const line of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}
const csrfOf = (jar: Jar) => jar.get('XSRF-TOKEN') ?? '';

const base = `http://127.0.0.1:${port}`;

/** One call with fetch, keeping cookies like a browser. */
async function call(jar: Jar, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { cookie: cookieHeader(jar) };
  if (method !== 'GET') headers['x-xsrf-token'] = csrfOf(jar);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  keepCookies(jar, response.headers.getSetCookie());
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

const statusCode = (json: { responseBaseInfo?: { status?: { code?: number } } } | undefined) =>
  json?.responseBaseInfo?.status?.code;

type Result = { rps: number; p50: number; p99: number; errors: number; non2xx: number; cpuUs?: number };

/** CPU time a process has used, in µs (Linux /proc; undefined elsewhere). */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run. With the serving process's pid, also its CPU time per request: a measure of
 * the server's own cost that does not depend on how much of the machine the client and the
 * neighbours leave it.
 */
async function cannon(options: autocannon.Options, pid?: number): Promise<Result> {
  const before = cpuMicros(pid);
  const result = await autocannon({ duration, connections, ...options });
  const after = cpuMicros(pid);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(before !== undefined && after !== undefined && result.requests.total
      ? { cpuUs: (after - before) / result.requests.total }
      : {}),
  };
}

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Complete sign-ins: each connection plays new browsers one after another (GET health for the
 * CSRF token, password authentication, session login), each on its own account. A sign-in counts
 * when session login answers 1200; its latency is the whole sequence's.
 */
async function signIns(usernames: string[], seconds = duration, pid?: number): Promise<Result> {
  const cpuBefore = cpuMicros(pid);
  const times: number[] = [];
  let failed = 0;
  let next = 0;
  type Ctx = { jar: Jar; start: number; username: string };
  const C = (context: object) => context as Ctx;
  const instance = autocannon({
    url: base,
    duration: seconds,
    connections: Math.min(usernames.length, signInConnections),
    requests: [
      {
        method: 'GET',
        path: '/api/health',
        setupRequest: (req, context: object) => {
          C(context).jar = new Map();
          C(context).start = performance.now();
          C(context).username ??= usernames[next++ % usernames.length]!;
          return { ...req, headers: {} };
        },
        onResponse: (_status, _body, context: object, headers) =>
          keepCookies(C(context).jar, headers?.['set-cookie']),
      },
      {
        method: 'POST',
        path: '/api/user/factor/password/authentication',
        setupRequest: (req, context: object) => ({
          ...req,
          headers: {
            'content-type': 'application/json',
            cookie: cookieHeader(C(context).jar),
            'x-xsrf-token': csrfOf(C(context).jar),
          },
          body: JSON.stringify({ username: C(context).username, password: PASSWORD }),
        }),
        onResponse: (_status, body, context: object, headers) => {
          keepCookies(C(context).jar, headers?.['set-cookie']);
          if (statusCode(JSON.parse(body)) !== 1200) failed += 1;
        },
      },
      {
        method: 'POST',
        path: '/api/user/session/login',
        setupRequest: (req, context: object) => ({
          ...req,
          headers: { cookie: cookieHeader(C(context).jar), 'x-xsrf-token': csrfOf(C(context).jar) },
        }),
        onResponse: (_status, body, context: object) => {
          if (statusCode(JSON.parse(body)) === 1200) times.push(performance.now() - C(context).start);
          else failed += 1;
        },
      },
    ],
  });
  await instance;
  const cpuAfter = cpuMicros(pid);
  times.sort((a, b) => a - b);
  return {
    rps: times.length / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: failed,
    non2xx: 0,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && times.length
      ? { cpuUs: (cpuAfter - cpuBefore) / times.length }
      : {}),
  };
}
let signInConnections = 4 * cores;

// --- orchestration ---------------------------------------------------------------------------------

async function main() {
  const {
    openDatabase,
    migrate,
    loadConfig,
    PasswordHasher,
    readDemoAccounts,
    seedDemoAccounts,
    systemClock,
  } = await import('@gatehouse/identity');

  const databaseUrl = args['database-url'] ?? 'postgres://postgres@127.0.0.1:5432/gh_bench';
  // The bench database: created when missing (from the server's default database).
  const admin = new URL(databaseUrl);
  const dbName = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const adminDb = await openDatabase({ kind: 'postgres', url: admin.toString() });
  const exists = await sql`select 1 from pg_database where datname = ${dbName}`.execute(adminDb);
  if (!exists.rows.length) await sql`create database ${sql.id(dbName)}`.execute(adminDb);
  await adminDb.destroy();

  // Demo-like accounts with the default argon2id parameters (seeded once; kept between runs).
  const config = loadConfig({ NODE_ENV: 'development' });
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl });
  await migrate(db as never);
  const hasher = new PasswordHasher(config.argon2);
  const usernames = Array.from(
    { length: SIGNIN_ACCOUNTS },
    (_, i) => `benchuser${String(i).padStart(3, '0')}`,
  );
  // The OTP-only demo account's shape under a name of the bench's own: production mode refuses to
  // start while a demo account (its password published) is in its database.
  const otpAccount = {
    ...readDemoAccounts(new URL('demo/accounts.json', root)).find((a) => a.tags.includes('otp-only'))!,
    username: 'benchotp001',
    password: PASSWORD,
  };
  await seedDemoAccounts(
    db,
    hasher,
    systemClock,
    [
      otpAccount,
      ...usernames.map((username) => ({
        username,
        password: PASSWORD,
        tags: ['password-only' as const],
        about: 'bench',
      })),
    ],
    new CredentialStore(db, new CredentialCipher(config.credentialKeys), systemClock),
  );
  // Sessions and windows of earlier runs would only grow the tables.
  await sql`delete from sessions`.execute(db);
  await sql`delete from rate_limits`.execute(db);
  await sql`update accounts set failed_logins = 0, status = 'active' where username like 'benchuser%'`.execute(
    db,
  );
  const { password_hash: hash } = await db
    .selectFrom('accounts')
    .select('password_hash')
    .where('username_key', '=', usernames[0]!)
    .executeTakeFirstOrThrow();
  await db.destroy();

  // The ceiling hashes on one thread per core, as the service's pool does by default.
  const threadpool = String(cores);
  const log = openSync(args['log-file']!, 'w');
  const node = (script: string[], env: Record<string, string>, flags: string[] = []) =>
    spawn(process.execPath, [...flags, '--import', 'tsx', ...script], {
      cwd: new URL('.', root).pathname,
      env: { ...process.env, ...env },
      stdio: ['ignore', log, 'inherit'],
    });
  const service = node(
    ['apps/identity/src/main.ts'],
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: randomBytes(24).toString('hex'),
      CREDENTIAL_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      PUBLIC_ORIGIN: 'https://bench.example',
      CONSOLE_ORIGIN: 'https://console.bench.example',
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'Bench <bench@bank.example>',
      SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms',
      SMS_WEBHOOK_TOKEN: 'bench-webhook-token',
      SERVE_APPS: 'false',
      RATE_LIMIT_CLIENT_MAX: '100000',
      RATE_LIMIT_ACCOUNT_MAX: '10000',
    },
    args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [],
  );
  const bareApp = node(['bench/server.ts', '--bare', String(barePort)], {
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_HASH: hash,
    UV_THREADPOOL_SIZE: threadpool,
  });
  const children = [service, bareApp];
  const stop = () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    await waitFor(`${base}/api/health`, service, 'the identity service');
    await waitFor(`http://127.0.0.1:${barePort}/health`, bareApp, 'the bare app');

    // A browser's cookies (device, CSRF) and a login transaction at its second factor.
    const browser: Jar = new Map();
    await call(browser, 'GET', '/api/health');
    const atFactor: Jar = new Map();
    await call(atFactor, 'GET', '/api/health');
    const pw = await call(atFactor, 'POST', '/api/user/factor/password/authentication', {
      username: otpAccount.username,
      password: otpAccount.password,
    });
    const login = await call(atFactor, 'POST', '/api/user/session/login');
    if (statusCode(pw.json) !== 1200 || statusCode(login.json) !== 1201) {
      throw new Error(`the OTP account did not reach its second factor: ${JSON.stringify(login.json)}`);
    }

    // Warm-up: JIT, pools, connections.
    await cannon({ url: `http://127.0.0.1:${barePort}/health`, duration: 2 });
    await cannon({ url: `${base}/api/health`, duration: 2 });
    await signIns(usernames, 2);

    // Rows run in rounds, each round measuring the baseline and then the rows that compare with
    // it, so a neighbour's load that comes and goes weighs on both alike. Requests per second: the
    // mean over rounds; p50 and p99: the median over rounds.
    type Row = { name: string; results: Result[]; of?: Row };
    const rows: Row[] = [];
    const row = (name: string, of?: Row): Row => {
      const r: Row = { name, results: [], ...(of ? { of } : {}) };
      rows.push(r);
      return r;
    };
    const bareRow = row('bare Fastify GET /health');
    const light: Array<[Row, () => Promise<Result>]> = [];
    // The floor of a call that reads the database: the bare app with one SQL statement.
    light.push([
      row('bare Fastify + one SQL statement (floor)', bareRow),
      () => cannon({ url: `http://127.0.0.1:${barePort}/one-query` }, bareApp.pid),
    ]);
    if (want('probe')) {
      // The load balancer's own route: no cookie minted, its log line at debug (issue 25).
      light.push([
        row('GET /api/live (the load balancer probe)', bareRow),
        () => cannon({ url: `${base}/api/live` }, service.pid),
      ]);
      light.push([
        row('GET /api/health, no cookies (a probe on the people route)', bareRow),
        () => cannon({ url: `${base}/api/health` }, service.pid),
      ]);
    }
    if (want('browser'))
      light.push([
        row('GET /api/health, browser cookies', bareRow),
        () => cannon({ url: `${base}/api/health`, headers: { cookie: cookieHeader(browser) } }, service.pid),
      ]);
    if (want('remember'))
      light.push([
        row('GET remember username', bareRow),
        () =>
          cannon(
            {
              url: `${base}/api/user/identity/remember/username`,
              headers: { cookie: cookieHeader(browser) },
            },
            service.pid,
          ),
      ]);
    if (want('otp'))
      light.push([
        row('GET OTP state (login transaction)', bareRow),
        () =>
          cannon(
            {
              url: `${base}/api/user/factor/otp/state?timestamp=1`,
              headers: { cookie: cookieHeader(atFactor) },
            },
            service.pid,
          ),
      ]);
    for (let round = 0; round < rounds; round++) {
      bareRow.results.push(await cannon({ url: `http://127.0.0.1:${barePort}/health` }, bareApp.pid));
      for (const [r, run] of light) r.results.push(await run());
    }

    if (want('signin')) {
      const browsers = Math.min(usernames.length, signInConnections);
      const ceilingRow = row(`argon2id verify, ${threadpool} threads (ceiling)`);
      const bareVerifyRow = row(`bare Fastify POST /verify (floor), ${browsers} conn.`, ceilingRow);
      const signInRow = row(`complete sign-ins, ${browsers} browsers`, ceilingRow);
      const loadedRow = row('complete sign-ins, with the probe below', ceilingRow);
      const probeRow = row('GET /api/health during those sign-ins, 20/s');
      for (let round = 0; round < rounds; round++) {
        // The argon2id ceiling: its own process, the service idle.
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', 'bench/server.ts', '--argon2', String(duration), '--', hash],
          {
            cwd: new URL('.', root).pathname,
            env: { ...process.env, UV_THREADPOOL_SIZE: threadpool },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
        });
        await new Promise((r) => child.on('exit', r));
        const { rate, cpuUs } = JSON.parse(out) as { rate: number; cpuUs: number };
        ceilingRow.results.push({ rps: rate, p50: Number.NaN, p99: Number.NaN, errors: 0, non2xx: 0, cpuUs });
        // The floor of a sign-in over HTTP: one request, one verify, no SQL, no session.
        bareVerifyRow.results.push(
          await cannon(
            { url: `http://127.0.0.1:${barePort}/verify`, method: 'POST', connections: browsers },
            bareApp.pid,
          ),
        );
        // The service's CPU per sign-in (event loop and hashing threads) against a bare verify's.
        signInRow.results.push(await signIns(usernames, duration, service.pid));
        // The health check while sign-ins saturate the hashing: 20 a second on one connection.
        const [loaded, probe] = await Promise.all([
          signIns(usernames),
          cannon({ url: `${base}/api/health`, connections: 1, overallRate: 20 }),
        ]);
        loadedRow.results.push(loaded);
        probeRow.results.push(probe);
      }
    }
    const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : Number.NaN;
    };
    console.log(
      `\nServer throughput: ${cores} cores, ${rounds} rounds of ${duration} s per row, ${connections} connections (sign-ins: ${signInConnections}), argon2id pool ${process.env.ARGON2_THREADS ?? cores} threads at nice +${process.env.ARGON2_NICE ?? 10}, LOG_LEVEL=info, production mode\n`,
    );
    console.log(
      `${'call'.padEnd(46)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'ratio'.padStart(16)} ${'CPU µs/req'.padStart(11)} ${'CPU ratio'.padStart(10)}`,
    );
    const cpu = (results: Result[]) => {
      const known = results.filter((r) => r.cpuUs !== undefined);
      return known.length ? mean(known.map((r) => r.cpuUs!)) : Number.NaN;
    };
    for (const { name, results, of } of rows) {
      const cpuRatio = of ? cpu(of.results) / cpu(results) : Number.NaN;
      const rps = mean(results.map((r) => r.rps));
      const errors = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
      const ratio = of
        ? `${(rps / mean(of.results.map((r) => r.rps))).toFixed(2)} of ${of.name.split(' ')[0]}`
        : '';
      console.log(
        `${name.padEnd(46)} ${f(rps, 1).padStart(9)} ${f(median(results.map((r) => r.p50)), 1).padStart(8)} ${f(median(results.map((r) => r.p99)), 1).padStart(8)} ${String(errors).padStart(7)} ${ratio.padStart(16)} ${f(cpu(results)).padStart(11)} ${f(cpuRatio, 2).padStart(10)}`,
      );
    }
    console.log(
      "\nratio: requests per second against the baseline of the same rounds. CPU µs/req: the serving process's CPU time per request. CPU ratio: the baseline's CPU per request over the row's, i.e. what one core serves of this call against the bare route (for sign-ins: a bare verify's CPU over the service's per complete sign-in), whatever share of the machine the client, PostgreSQL and the neighbours leave.",
    );
    console.log(
      '\nGoals: non-hashing calls >= 0.50 of bare; sign-ins >= 0.90 of argon2id with p99 < 1000 ms; health p99 < 20 ms during sign-ins. The floor rows are the bare app doing the least such a call can: one SQL statement, one verify.',
    );
  } finally {
    // Let the service close (and write its profile) before this process ends.
    const exited = children.map((c) =>
      c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve(),
    );
    stop();
    await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 10_000))]);
    closeSync(log);
  }
}

if (args.bare) await bare(Number(args.bare));
else if (args.argon2) await argon2Ceiling(positionals[0]!, Number(args.argon2));
else {
  if (process.env.BENCH_SIGNIN_CONNECTIONS) signInConnections = Number(process.env.BENCH_SIGNIN_CONNECTIONS);
  await main();
  process.exit(0);
}
