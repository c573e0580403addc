/**
 * Server throughput (issue 14 point 4, issue 25 point 4): the identity service on PostgreSQL and a
 * bare Fastify app doing the least each call can, side by side, measured in one run with
 * autocannon; every figure is printed beside a ratio to a floor of the same run, since absolute
 * figures move with the machine and its neighbours.
 *
 *   node --import tsx bench/server.ts [--duration 5] [--rounds 3] [--connections 10] [--database-url URL]
 *                                     [--only probe,browser,remember,otp,signin,statements]
 *                                     [--profile DIR] [--statements]
 *
 * - non-hashing calls (the load balancer probe, health without cookies as a load balancer probes
 *   it, health with a browser's cookies, the remember GET, the OTP state of a login transaction)
 *   against the bare route (`GET /health` answering `{"status":"ok"}`), and the remember GET also
 *   against the bare app running remember's own statement as a named prepared statement;
 * - complete password sign-ins (a new browser: GET health for the CSRF token, password
 *   authentication, session login answering 1200) against the raw argon2id verify rate on all
 *   cores (the same hash and parameters, in a process of its own, nothing else running), and the
 *   CPU per verify of the service's hashing threads against that process's;
 * - the health check's and the remember GET's latency while 24 sign-ins saturate the hashing (for
 *   at least 10 s a round, so that a p99 is read from 200 answers), sent
 *   from a client process of their own (bench/probe-client.ts), as a load balancer's are: once at
 *   the bench's priority, once at BENCH_PROBE_NICE (-10), as a load balancer whose own machine it
 *   is (at the same priority on two saturated cores, its wait for a core is in its figures);
 *   BENCH_SERVICE_NICE sets the service's event loop's priority, a diagnosis of that wait;
 *   BENCH_SERVICE_FLAGS passes Node/V8 flags to the measured service only (a diagnosis of its GC);
 * - statements, transactions and Parse messages per sign-in, counted at the PostgreSQL protocol
 *   (countingProxy), password-only and with a code by text; --statements lists them.
 *
 * CPU per request is read from /proc (Linux): the serving process's, and PostgreSQL's backends
 * serving the bench's database (backendCpu).
 *
 * The service runs in production mode at LOG_LEVEL=info, logging to a file. It needs PostgreSQL
 * (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/gh_bench, created when missing) and is
 * not part of `npm test`. Ports: BENCH_PORT (8282) for the service, the next one for the bare app,
 * the one after for the counting proxy (and an ephemeral one for the service's SMS webhook).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, createServer } from 'node:net';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { parseArgs } from 'node:util';
import { format, smsTemplate } from '@gatehouse/contract';
import { CredentialCipher, CredentialStore } from '@gatehouse/identity';
import { verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { benchServiceEnv, nodeChild } from './service-env.ts';
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
    /** Rows to run (comma-separated): probe, browser, remember, otp, signin, statements; all by default. */
    only: { type: 'string' },
    /** Writes a CPU profile of the service (node --cpu-prof) into this folder. */
    profile: { type: 'string' },
    /** Lists the statements of one counted sign-in of each kind. */
    statements: { type: 'boolean', default: false },
  },
});

const cores = availableParallelism();
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const port = Number(process.env.BENCH_PORT ?? 8282);
const barePort = port + 1;
const proxyPort = port + 2;
const PASSWORD = 'Harbor7Lights';
/** Sign-in accounts: one per connection, since the attempts on one account are serialised. */
const SIGNIN_ACCOUNTS = 64;
/** The concurrent sign-ins of issue 25's latency goals. */
const LOADED_SIGNINS = 24;
/**
 * The loaded windows' length: at least 10 s, so that each probe's p99 is read from 200 answers a
 * round, not from its slowest one or two (at 4 s a round's p99 moved by 10-15 ms between runs).
 */
const loadedSeconds = Math.max(Number(args.duration), 10);
/** Where the measured service writes its event loop's delay each second (bench/loop-monitor.mjs). */
const loopFile = `${args['log-file']}.loop`;
/** The loaded probes' client's priority in their second window (BENCH_PROBE_NICE, default -10). */
const PROBE_NICE = Number(process.env.BENCH_PROBE_NICE ?? -10);
/** The service's main thread's priority (BENCH_SERVICE_NICE, default 0: as the bench's own). */
const SERVICE_NICE = Number(process.env.BENCH_SERVICE_NICE ?? 0);
/** Sequential sign-ins counted at the protocol, after the warm-up ones. */
const COUNTED = { password: 20, otp: 10, warmUp: 5 };
/** The hashing threads' priority (ARGON2_NICE, as the service reads it). */
const hashNice = Number(process.env.ARGON2_NICE ?? 10);
const root = new URL('..', import.meta.url);
const wanted = args.only?.split(',');
const want = (row: string) => !wanted || wanted.includes(row);

/**
 * The service's own time (`responseTime`, ms) for the requests to each of `urls` it logged within
 * `windows` (its `request completed` lines, LOG_LEVEL=info).
 */
function servedTimes(
  logFile: string,
  windows: ReadonlyArray<[number, number]>,
  urls: ReadonlyArray<[label: string, url: string]>,
): Array<[string, number[]]> {
  const times = new Map(urls.map(([, url]) => [url, [] as number[]]));
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"request completed"')) continue;
    const entry = JSON.parse(line) as { time: number; req?: { url?: string }; responseTime?: number };
    const list = times.get(entry.req?.url ?? '');
    if (!list || entry.responseTime === undefined) continue;
    if (windows.some(([from, to]) => entry.time >= from && entry.time <= to)) list.push(entry.responseTime);
  }
  return urls.map(([label, url]) => [label, times.get(url)!]);
}

// --- child modes -----------------------------------------------------------------------------------

/**
 * The baseline: a bare Fastify 5 app with one JSON route, default settings, no logger. More
 * routes measure floors, what any service on this machine pays before its own code: one SQL
 * statement through the service's own database driver and pool (`GET /one-query`); the statement
 * the service's remember GET runs, with the parameter values it sent, as a named prepared
 * statement through node-postgres and a pool of the service's size (`GET /remember`); and one
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
    const remember = process.env.BENCH_REMEMBER_STATEMENT;
    if (remember) {
      const { text, values } = JSON.parse(remember) as Statement;
      const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
      app.get('/remember', async () => {
        const { rows } = await pool.query({ name: 'remember', text, values });
        return { usernames: rows };
      });
    }
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

/**
 * Starts the loaded probes (url, headers, duration, overallRate, connections) in a client process
 * of their own (bench/probe-client.ts: evenly paced, not autocannon's burst at each second's start),
 * and resolves when it is loaded and ready; `go()` starts them and resolves with their results.
 */
async function probesApart(probes: autocannon.Options[], nice = 0): Promise<{ go: () => Promise<Result[]> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/probe-client.ts', JSON.stringify(probes)],
    {
      cwd: new URL('.', root).pathname,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  // A priority above the others' needs the right to raise it (root, or CAP_SYS_NICE): without it
  // the run stops, rather than print a figure under a name it does not have.
  if (nice !== 0) setPriority(child.pid!, nice);
  let out = '';
  let onReady: () => void;
  const ready = new Promise<void>((r) => {
    onReady = r;
  });
  child.stdout!.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) onReady();
  });
  const exited = new Promise((r) => child.on('exit', r));
  await Promise.race([ready, exited]);
  return {
    go: async () => {
      child.stdin!.write('go\n');
      const code = await exited;
      if (code !== 0) throw new Error(`the probes' client exited with ${String(code)}`);
      return JSON.parse(out.slice('ready\n'.length)) as Result[];
    },
  };
}

type Result = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The serving process's CPU per request (per complete sign-in). */
  cpuUs?: number;
  /** PostgreSQL's backends' CPU per request (per complete sign-in). */
  pgUs?: number;
  /** The service's hashing threads' CPU per verify. */
  hashUs?: number;
};

/** The fields of a /proc stat line after the command (field 3, the state, first); undefined when gone. */
function statFields(path: string): string[] | undefined {
  try {
    return readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}
/** utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms, as µs. */
const cpuOf = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) * 10_000;

/** CPU time a process has used, in µs (Linux /proc; undefined elsewhere). */
function cpuMicros(pid: number | undefined): number | undefined {
  const fields = pid === undefined ? undefined : statFields(`/proc/${pid}/stat`);
  return fields && cpuOf(fields);
}

/**
 * CPU time of the service's hashing threads, in µs. Node 20 gives a worker thread no name of its
 * own (every thread's comm is `node`), but Piscina lowers its workers' priority by ARGON2_NICE
 * (passwords.ts), a per-thread nice value on Linux that nothing else in the service sets: the
 * threads at that nice value are the hash workers. Undefined when they cannot be told apart
 * (ARGON2_NICE=0) or are not found.
 */
function hashThreadsCpu(pid: number): { us: number; threads: number } | undefined {
  if (hashNice === 0) return undefined;
  // nice is field 19 of stat. The workers' is the service's at its start (the bench's own: it may
  // run under `nice`) plus ARGON2_NICE, at most 19; BENCH_SERVICE_NICE moves the main thread only.
  const workers = Math.min(19, getPriority() + hashNice);
  if (workers === getPriority()) return undefined;
  let us = 0;
  let threads = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    if (!fields || Number(fields[16]) !== workers) continue;
    us += cpuOf(fields);
    threads += 1;
  }
  return threads ? { us, threads } : undefined;
}

/**
 * A thread's scheduling so far (Linux /proc/<pid>/task/<tid>/schedstat, with the kernel's
 * schedstats): nanoseconds on a core, nanoseconds runnable but waiting for one, and the number of
 * times it was given a core. Undefined elsewhere.
 */
function schedOf(
  pid: number | undefined,
  tid = pid,
): { run: number; wait: number; slices: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
      .trim()
      .split(' ')
      .map(Number);
    return run === undefined || wait === undefined || slices === undefined
      ? undefined
      : { run, wait, slices };
  } catch {
    return undefined;
  }
}

/** One second of the service's event loop, as bench/loop-monitor.mjs writes it. */
type LoopSecond = {
  at: number;
  p50: number;
  p99: number;
  max: number;
  gcCount: number;
  gcMs: number;
  gcLongest: number;
  /** The database pool's checkouts in that second: how many, their waits and holds in ms. */
  pool?: {
    count: number;
    waitMs: number;
    waitLongest: number;
    heldMs: number;
    heldLongest: number;
    /** The first statement of the second's longest hold (its first 60 characters). */
    heldBy: string;
  };
};

/** Starts measuring PostgreSQL's CPU; the function it answers stops and gives the µs spent. */
type CpuMeter = () => Promise<() => Promise<number>>;
let backendMeter: CpuMeter | undefined;

/**
 * CPU time of the PostgreSQL backends serving one database. Backends are the pids that
 * pg_stat_activity lists for it (read through `monitor`, a connection to another database), at
 * the start, every second and at the end: the pools open connections during a row and close idle
 * ones. Each backend contributes its CPU from the start (from its birth when it appeared during
 * the row) to its last reading (the one before it ended, when it ended). Not every process named
 * postgres: the server is shared with other work on this machine, and its own processes (WAL
 * writer, checkpointer) work for every database, so their share of this run is left out.
 */
function backendCpu(monitor: pg.Client, database: string): CpuMeter {
  return async () => {
    const first = new Map<number, number>();
    const last = new Map<number, number>();
    const sample = async (start: boolean) => {
      const { rows } = await monitor.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1',
        [database],
      );
      for (const pid of new Set([...last.keys(), ...rows.map((r) => r.pid)])) {
        const us = cpuMicros(pid);
        if (us === undefined) continue;
        if (!first.has(pid)) first.set(pid, start ? us : 0);
        last.set(pid, us);
      }
    };
    let sampling = sample(true);
    await sampling;
    const timer = setInterval(() => {
      sampling = sampling.then(() => sample(false));
    }, 1000);
    return async () => {
      clearInterval(timer);
      await sampling.then(() => sample(false));
      let us = 0;
      for (const [pid, at] of last) us += at - first.get(pid)!;
      return us;
    };
  };
}

/**
 * A measured run starts on warm pools, after a second of the same load: a pool closes connections
 * idle for 10 s (pg's default) while other rows run, and a new PostgreSQL backend spends 20-90 ms
 * of CPU starting and filling its caches (measured here), which would land on whichever row
 * opens it, and make a prepared statement be parsed again.
 */
const WARM_SECONDS = 1;

/**
 * One autocannon run. With the serving process's pid, also its CPU time per request and
 * PostgreSQL's: a measure of the server's own cost that does not depend on how much of the machine
 * the client and the neighbours leave it.
 */
async function cannon(options: autocannon.Options, pid?: number): Promise<Result> {
  if (pid !== undefined) await autocannon({ connections, ...options, duration: WARM_SECONDS });
  const before = cpuMicros(pid);
  const stopBackends = pid === undefined ? undefined : await backendMeter?.();
  const result = await autocannon({ duration, connections, ...options });
  const after = cpuMicros(pid);
  const backends = await stopBackends?.();
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(before !== undefined && after !== undefined && total ? { cpuUs: (after - before) / total } : {}),
    ...(backends !== undefined && total ? { pgUs: backends / total } : {}),
  };
}

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Complete sign-ins: each connection plays new browsers one after another (GET health for the
 * CSRF token, password authentication, session login), each on its own account. A sign-in counts
 * when session login answers 1200; its latency is the whole sequence's. With the service's pid,
 * also the CPU per sign-in of the service and of PostgreSQL, and its hashing threads' per verify.
 */
async function signIns(
  usernames: string[],
  seconds = duration,
  pid?: number,
  browsers = signInConnections,
): Promise<Result> {
  if (pid !== undefined) await signIns(usernames, WARM_SECONDS, undefined, browsers);
  const cpuBefore = cpuMicros(pid);
  const hashBefore = pid === undefined ? undefined : hashThreadsCpu(pid);
  const stopBackends = pid === undefined ? undefined : await backendMeter?.();
  const times: number[] = [];
  let failed = 0;
  let verifies = 0;
  let next = 0;
  type Ctx = { jar: Jar; start: number; username: string };
  const C = (context: object) => context as Ctx;
  const instance = autocannon({
    url: base,
    duration: seconds,
    connections: Math.min(usernames.length, browsers),
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
        setupRequest: (req, context: object) => {
          verifies += 1;
          return {
            ...req,
            headers: {
              'content-type': 'application/json',
              cookie: cookieHeader(C(context).jar),
              'x-xsrf-token': csrfOf(C(context).jar),
            },
            body: JSON.stringify({ username: C(context).username, password: PASSWORD }),
          };
        },
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
  const backends = await stopBackends?.();
  // The verifies asked for when the run stopped finish on the hashing threads: counted as sent,
  // their CPU read once the queue has drained (at most one verify per browser).
  await new Promise((r) => setTimeout(r, 300));
  const hashAfter = pid === undefined ? undefined : hashThreadsCpu(pid);
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
    ...(backends !== undefined && times.length ? { pgUs: backends / times.length } : {}),
    ...(hashBefore && hashAfter && verifies ? { hashUs: (hashAfter.us - hashBefore.us) / verifies } : {}),
  };
}
let signInConnections = 4 * cores;

// --- statements at the PostgreSQL protocol -------------------------------------------------------

/** A statement as a bare route replays it: its text and its parameter values (text format). */
type Statement = { text: string; values: Array<string | null> };
/** A statement the service had executed, and how it reached the server. */
type Executed = Statement & {
  control: boolean;
  /** A simple Query, or an Execute after a Parse (unnamed or named) or of a statement prepared earlier. */
  via: 'query' | 'parse' | 'named parse' | 'prepared';
};
type Tally = { executed: Executed[]; parses: number; namedParses: number; transactions: number };
const emptyTally = (): Tally => ({ executed: [], parses: 0, namedParses: 0, transactions: 0 });

/** Transaction control, counted apart from the statements that read and write data. */
const CONTROL = /^\s*(begin|start\s+transaction|commit|end|abort|rollback|savepoint|release)\b/i;
const OPENS = /^\s*(begin|start)\b/i;
const CLOSES = /^\s*(commit|end|abort|rollback)\b(?!\s+to\b)/i;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * A TCP proxy between the service and PostgreSQL that reads what the service sends (frontend
 * messages of protocol 3.0; the server's answers pass through unread) and tallies, from the last
 * `take()`: statements executed (one simple Query or one Execute each, transaction control apart),
 * Parse messages (named or not) and transactions (an explicit one from BEGIN to COMMIT or
 * ROLLBACK, or each implicit one: a statement outside a block, or the statements of one extended
 * query up to its Sync). The service reaches it without TLS (the bench's URL asks for none); an
 * SSLRequest, were one sent, is answered by the server, and after its 'N' the startup packet
 * follows in the clear.
 */
async function countingProxy(listenPort: number, target: URL) {
  let tally = emptyTally();
  const proxy = createServer((client) => {
    const server = connect(Number(target.port || 5432), target.hostname);
    client.pipe(server);
    server.pipe(client);
    const close = () => {
      client.destroy();
      server.destroy();
    };
    for (const socket of [client, server]) socket.on('error', close).on('close', close);

    let pending: Buffer = Buffer.alloc(0);
    let startup = true;
    let inBlock = false;
    let implicitOpen = false;
    const statements = new Map<string, string>();
    const parsedSinceBind = new Set<string>();
    const portals = new Map<string, Executed>();
    const cstring = (body: Buffer, at: number): [string, number] => {
      const end = body.indexOf(0, at);
      return [body.toString('utf8', at, end), end + 1];
    };
    const execute = (statement: Executed, extended: boolean) => {
      tally.executed.push(statement);
      if (statement.control) {
        if (OPENS.test(statement.text)) {
          tally.transactions += 1;
          inBlock = true;
        } else if (CLOSES.test(statement.text)) inBlock = false;
      } else if (!inBlock && !implicitOpen) {
        tally.transactions += 1;
        implicitOpen = extended;
      }
    };
    const message = (type: string, body: Buffer) => {
      if (type === 'Q') {
        const [text] = cstring(body, 0);
        execute({ text, values: [], control: CONTROL.test(text), via: 'query' }, false);
      } else if (type === 'P') {
        const [name, at] = cstring(body, 0);
        statements.set(name, cstring(body, at)[0]);
        parsedSinceBind.add(name);
        tally.parses += 1;
        if (name) tally.namedParses += 1;
      } else if (type === 'B') {
        const [portal, nameAt] = cstring(body, 0);
        // Its statement, the parameters' format codes (none: all text, one: for all), the values.
        const [name, formatsAt] = cstring(body, nameAt);
        const formats = Array.from({ length: body.readInt16BE(formatsAt) }, (_, k) =>
          body.readInt16BE(formatsAt + 2 + 2 * k),
        );
        const valuesAt = formatsAt + 2 + 2 * formats.length;
        const values: Array<string | null> = [];
        for (let k = 0, at = valuesAt + 2; k < body.readInt16BE(valuesAt); k++) {
          const length = body.readInt32BE(at);
          const start = at + 4;
          const binary = (formats.length === 1 ? formats[0] : formats[k]) === 1;
          if (length < 0) values.push(null);
          else if (binary) values.push(`\\x${body.toString('hex', start, start + length)}`);
          else values.push(body.toString('utf8', start, start + length));
          at = start + Math.max(length, 0);
        }
        const text = statements.get(name) ?? '';
        const via = parsedSinceBind.delete(name) ? (name ? 'named parse' : 'parse') : 'prepared';
        portals.set(portal, { text, values, control: CONTROL.test(text), via });
      } else if (type === 'E') {
        const statement = portals.get(cstring(body, 0)[0]);
        if (statement) execute(statement, true);
      } else if (type === 'S') implicitOpen = false;
    };
    client.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (startup) {
          // The startup packet (and an SSLRequest or GSSENCRequest before it): no type byte.
          if (pending.length < 8 || pending.length < pending.readInt32BE(0)) break;
          const code = pending.readInt32BE(4);
          startup = code === SSL_REQUEST || code === GSSENC_REQUEST;
          pending = pending.subarray(pending.readInt32BE(0));
        } else {
          // Every later message: a type byte, then its length (itself included) and body.
          if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) break;
          const end = 1 + pending.readInt32BE(1);
          message(String.fromCharCode(pending[0]!), pending.subarray(5, end));
          pending = pending.subarray(end);
        }
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(listenPort, '127.0.0.1', resolve));
  return {
    /** What was sent since the last take. */
    take() {
      const taken = tally;
      tally = emptyTally();
      return taken;
    },
    close: () => new Promise((r) => proxy.close(r)),
  };
}
type CountingProxy = Awaited<ReturnType<typeof countingProxy>>;

/** Per sign-in means of a tally of sequential sign-ins, and the last sign-in's statements. */
type Counted = {
  signIns: number;
  data: number;
  control: number;
  transactions: number;
  parses: number;
  namedParses: number;
  last: Executed[];
};

/** Runs `warmUp` sign-ins, then counts `count` more, one at a time. */
async function countSignIns(
  proxy: CountingProxy,
  signIn: (i: number) => Promise<void>,
  count: number,
  warmUp = COUNTED.warmUp,
): Promise<Counted> {
  for (let i = 0; i < warmUp; i++) await signIn(i);
  const counted: Counted = {
    signIns: count,
    data: 0,
    control: 0,
    transactions: 0,
    parses: 0,
    namedParses: 0,
    last: [],
  };
  for (let i = 0; i < count; i++) {
    proxy.take();
    await signIn(warmUp + i);
    const { executed, parses, namedParses, transactions } = proxy.take();
    const control = executed.filter((e) => e.control).length;
    counted.data += (executed.length - control) / count;
    counted.control += control / count;
    counted.transactions += transactions / count;
    counted.parses += parses / count;
    counted.namedParses += namedParses / count;
    counted.last = executed;
  }
  return counted;
}

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
  const node = nodeChild(root, log);
  // One set of secrets for both instances of the service: a browser's cookies from one are good at the other.
  const serviceEnv = benchServiceEnv({
    port,
    databaseUrl,
    extra: { RATE_LIMIT_CLIENT_MAX: '100000', RATE_LIMIT_ACCOUNT_MAX: '10000' },
  });
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  };
  process.on('exit', stop);
  const exited = (c: ChildProcess) =>
    c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve();
  // PostgreSQL's CPU, read through a connection to the server's default database (not counted).
  const monitor = new pg.Client({ connectionString: admin.toString() });
  await monitor.connect();
  backendMeter = backendCpu(monitor, dbName);
  try {
    // A browser's cookies (device, CSRF), from the counting instance when it runs (the prepared
    // floor replays remember's statement for this browser), else from the measured one.
    const browser: Jar = new Map();
    const rememberPath = '/api/user/identity/remember/username';

    // Statements at the protocol, from a second instance of the service whose database traffic
    // goes through the counting proxy, run before the measured one starts. Not the measured
    // instance: the proxy runs in this process, beside autocannon, and adds a hop and its CPU to
    // every statement. Measured here (3 interleaved rounds of 3 s, load average 8): through it the
    // bare app's prepared remember statement fell from 2540 to 1320 requests a second and its
    // `select 1` from 2390 to 1050; the service's remember GET, at 700 a second, did not change
    // (707 against 702), but would as its statements get cheaper, on the service's rows alone.
    let password: Counted | undefined;
    let otp: Counted | undefined;
    let rememberStatement: Statement | undefined;
    if (want('statements') || want('remember')) {
      // The service's SMS gateway: keeps the texts, whose codes the sign-ins with a code answer.
      const texts: string[] = [];
      const webhook = createHttpServer((req, res) => {
        let body = '';
        req.on('data', (d) => {
          body += d;
        });
        req.on('end', () => {
          texts.push((JSON.parse(body) as { text: string }).text);
          res.end('{}');
        });
      });
      await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
      const proxy = await countingProxy(proxyPort, new URL(databaseUrl));
      const proxied = new URL(databaseUrl);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxyPort);
      const counting = node(['apps/identity/src/main.ts'], {
        ...serviceEnv,
        DATABASE_URL: proxied.toString(),
        SMS_WEBHOOK_URL: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/sms`,
        PHONE_DESTINATION_HOURLY_MAX: '10000',
        PHONE_DESTINATION_DAILY_MAX: '10000',
        // No clean-up statements among the sign-ins'.
        CLEANUP_INTERVAL_MINUTES: '0',
      });
      children.push(counting);
      await waitFor(`${base}/api/health`, counting, 'the counting instance of the identity service');

      const expectCode = (step: string, answer: { json: unknown }, code: number) => {
        const got = statusCode(answer.json as Parameters<typeof statusCode>[0]);
        if (got !== code)
          throw new Error(`${step} answered ${got}, not ${code}: ${JSON.stringify(answer.json)}`);
      };
      const passwordStep = async (jar: Jar, username: string, code: number) => {
        await call(jar, 'GET', '/api/health');
        expectCode(
          'password authentication',
          await call(jar, 'POST', '/api/user/factor/password/authentication', {
            username,
            password: PASSWORD,
          }),
          1200,
        );
        expectCode('session login', await call(jar, 'POST', '/api/user/session/login'), code);
      };
      if (want('statements')) {
        password = await countSignIns(
          proxy,
          (i) => passwordStep(new Map(), usernames[i % usernames.length]!, 1200),
          COUNTED.password,
        );
        // A sign-in with a code by text, as the widget goes: the OTP state for the contacts, the
        // text sent (its code read from the webhook), the code checked, session login.
        otp = await countSignIns(
          proxy,
          async () => {
            const jar: Jar = new Map();
            await passwordStep(jar, otpAccount.username, 1201);
            const state = await call(jar, 'GET', `/api/user/factor/otp/state?timestamp=${Date.now()}`);
            const phone = (
              state.json as { successData: { phone: Array<{ value: string; enable: boolean }> } }
            ).successData.phone.find((p) => p.enable)!.value;
            const sent = texts.length;
            expectCode(
              'the text of a code',
              await call(jar, 'POST', '/api/user/factor/otp/sms/authentication', {
                phone,
                message: format(smsTemplate, 'PrimeSrv'),
              }),
              1200,
            );
            const securityCode = texts[sent]?.match(/\d{6}/)?.[0];
            expectCode(
              'the code check',
              await call(jar, 'PUT', '/api/user/factor/otp/sms/authentication', { securityCode }),
              1200,
            );
            expectCode(
              'session login after the code',
              await call(jar, 'POST', '/api/user/session/login'),
              1200,
            );
          },
          COUNTED.otp,
        );
      }
      // Remember's statement, as the service sends it for this browser: the prepared floor replays it.
      await call(browser, 'GET', '/api/health');
      proxy.take();
      await call(browser, 'GET', rememberPath);
      const ran = proxy.take().executed.filter((e) => !e.control);
      if (ran.length !== 1)
        throw new Error(`GET remember ran ${ran.length} statements; its floor replays one`);
      rememberStatement = { text: ran[0]!.text, values: ran[0]!.values };

      counting.kill('SIGTERM');
      await exited(counting);
      await proxy.close();
      webhook.close();
    }

    // The event loop's delay and the GC's pauses, once a second (bench/loop-monitor.mjs).
    writeFileSync(loopFile, '');
    const service = node(
      ['--import', './bench/loop-monitor.mjs', 'apps/identity/src/main.ts'],
      {
        ...serviceEnv,
        BENCH_LOOP_FILE: loopFile,
        // A diagnosis: the measured service's log level (info by default, as in production).
        ...(process.env.BENCH_SERVICE_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL } : {}),
      },
      [
        ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : []),
        // A diagnosis like BENCH_SERVICE_NICE: V8 flags for the measured service only (its heap, GC).
        ...(process.env.BENCH_SERVICE_FLAGS?.split(' ').filter(Boolean) ?? []),
      ],
    );
    const bareApp = node(['bench/server.ts', '--bare', String(barePort)], {
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_HASH: hash,
      ...(rememberStatement ? { BENCH_REMEMBER_STATEMENT: JSON.stringify(rememberStatement) } : {}),
      UV_THREADPOOL_SIZE: threadpool,
    });
    children.push(service, bareApp);
    await waitFor(`${base}/api/health`, service, 'the identity service');
    // A diagnosis, not a setting of the product: the service's event loop (its main thread only,
    // once started: the hashing threads keep theirs) at another priority than the load generator
    // and PostgreSQL that share its cores here.
    if (SERVICE_NICE !== 0) setPriority(service.pid!, SERVICE_NICE);
    await waitFor(`http://127.0.0.1:${barePort}/health`, bareApp, 'the bare app');
    if (!browser.size) await call(browser, 'GET', '/api/health');

    // A login transaction at its second factor.
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
    // mean over rounds; p50 and p99: the median over rounds. A row's ratio is to `of`, named by
    // its `short` name; `also` is a second floor it is compared with, on a line of its own.
    type Row = { name: string; short?: string; results: Result[]; of?: Row; also?: Row };
    const rows: Row[] = [];
    const row = (name: string, of?: Row, short?: string): Row => {
      const r: Row = { name, results: [], ...(of ? { of } : {}), ...(short ? { short } : {}) };
      rows.push(r);
      return r;
    };
    const bareRow = row('bare Fastify GET /health', undefined, 'bare');
    const light: Array<[Row, () => Promise<Result>]> = [];
    // The floor of a call that reads the database: the bare app with one SQL statement.
    light.push([
      row('bare Fastify + one SQL statement (floor)', bareRow),
      () => cannon({ url: `http://127.0.0.1:${barePort}/one-query` }, bareApp.pid),
    ]);
    // The floor of the remember GET: its statement, prepared, in the bare app.
    const preparedRow =
      rememberStatement && row("bare Fastify + remember's statement, prepared", bareRow, 'prepared');
    if (preparedRow)
      light.push([preparedRow, () => cannon({ url: `http://127.0.0.1:${barePort}/remember` }, bareApp.pid)]);
    let liveRow: Row | undefined;
    if (want('probe')) {
      // The load balancer's own route: no cookie minted, its log line at debug (issue 25).
      liveRow = row('GET /api/live (the load balancer probe)', bareRow);
      light.push([liveRow, () => cannon({ url: `${base}/api/live` }, service.pid)]);
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
    let rememberRow: Row | undefined;
    if (want('remember')) {
      rememberRow = row('GET remember username', bareRow);
      if (preparedRow) rememberRow.also = preparedRow;
      light.push([
        rememberRow,
        () =>
          cannon({ url: `${base}${rememberPath}`, headers: { cookie: cookieHeader(browser) } }, service.pid),
      ]);
    }
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

    let ceilingRow: Row | undefined;
    let signInRow: Row | undefined;
    let healthLoadedRow: Row | undefined;
    /** When the loaded rows ran (the service's log lines of those windows are its own timing). */
    const loadedWindows: Array<[number, number]> = [];
    /** The service's event loop's scheduling over those windows (ns; `ms`: the windows' length). */
    const loopSched = { ms: 0, run: 0, wait: 0, slices: 0 };
    let rememberLoadedRow: Row | undefined;
    /** The same probes, their client at PROBE_NICE. */
    let probeFirst: { health: Row; remember: Row } | undefined;
    if (want('signin')) {
      const browsers = Math.min(usernames.length, signInConnections);
      ceilingRow = row(`argon2id verify, ${threadpool} threads (ceiling)`, undefined, 'argon2id');
      const bareVerifyRow = row(`bare Fastify POST /verify (floor), ${browsers} conn.`, ceilingRow);
      signInRow = row(`complete sign-ins, ${browsers} browsers`, ceilingRow);
      const loadedRow = row(
        `complete sign-ins, ${LOADED_SIGNINS} browsers, ${loadedSeconds} s, with the probes below`,
        ceilingRow,
      );
      healthLoadedRow = row('GET /api/health during those sign-ins, 20/s');
      rememberLoadedRow = row('GET remember during those sign-ins, 20/s');
      const healthFirstRow = row(`  the same, the probes' client at nice ${PROBE_NICE}`);
      const rememberFirstRow = row(`  the same, the probes' client at nice ${PROBE_NICE}`);
      // Printed under their rows.
      rows.splice(rows.indexOf(healthFirstRow), 1);
      rows.splice(rows.indexOf(healthLoadedRow) + 1, 0, healthFirstRow);
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
        // The health check and the remember GET while sign-ins saturate the hashing: 20 a second
        // each, on 4 connections each, so that the rate holds while answers take up to 200 ms (on
        // one connection a slow answer delays the next request, and the slow tail goes unsampled).
        const probe = { connections: 4, overallRate: 20 };
        // The probes from a client process of their own, as a load balancer sends them; loaded
        // before the window starts. Twice: at the bench's own priority, where the client waits for
        // a core like the 24 browsers do, and at PROBE_NICE, as a load balancer that does not share
        // the service's two cores with them (what the service itself takes is printed below).
        for (const nice of [0, PROBE_NICE]) {
          const probes = await probesApart(
            [
              { url: `${base}/api/health`, duration: loadedSeconds, ...probe },
              {
                url: `${base}${rememberPath}`,
                headers: { cookie: cookieHeader(browser) },
                duration: loadedSeconds,
                ...probe,
              },
            ],
            nice,
          );
          const from = Date.now();
          const schedFrom = schedOf(service.pid);
          const [loaded, [health, remember]] = await Promise.all([
            signIns(usernames, loadedSeconds, undefined, LOADED_SIGNINS),
            probes.go() as Promise<[Result, Result]>,
          ]);
          const schedTo = schedOf(service.pid);
          if (schedFrom && schedTo) {
            loopSched.ms += Date.now() - from;
            loopSched.run += schedTo.run - schedFrom.run;
            loopSched.wait += schedTo.wait - schedFrom.wait;
            loopSched.slices += schedTo.slices - schedFrom.slices;
          }
          loadedWindows.push([from, Date.now()]);
          loadedRow.results.push(loaded);
          (nice === 0 ? healthLoadedRow : healthFirstRow).results.push(health);
          (nice === 0 ? rememberLoadedRow : rememberFirstRow).results.push(remember);
        }
      }
      probeFirst = { health: healthFirstRow, remember: rememberFirstRow };
    }
    const f = (n: number | undefined, digits = 0) =>
      n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '-';
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : Number.NaN;
    };
    /** The mean over rounds of a figure, over the rounds that have it. */
    const meanOf = (results: Result[], figure: 'cpuUs' | 'pgUs' | 'hashUs') => {
      const known = results.filter((r) => r[figure] !== undefined);
      return known.length ? mean(known.map((r) => r[figure]!)) : Number.NaN;
    };
    const rps = (r: Row) => mean(r.results.map((x) => x.rps));
    const ratio = (r: Row | undefined, of: Row | undefined) => (r && of ? rps(r) / rps(of) : undefined);
    const p99 = (r: Row | undefined) => (r ? median(r.results.map((x) => x.p99)) : undefined);
    console.log(
      `\nServer throughput: ${cores} cores, ${rounds} rounds of ${duration} s per row, ${connections} connections (sign-ins: ${signInConnections}), argon2id pool ${process.env.ARGON2_THREADS ?? cores} threads at nice +${hashNice}${SERVICE_NICE ? `, the service's event loop at nice ${SERVICE_NICE} (BENCH_SERVICE_NICE)` : ''}, LOG_LEVEL=info, production mode\n`,
    );
    const width = Math.max(...rows.map((r) => r.name.length));
    const line = (name: string, cells: string[]) =>
      console.log(
        `${name.padEnd(width)} ${cells.map((c, i) => c.padStart([9, 8, 8, 7, 17, 11, 10, 10][i]!)).join(' ')}`,
      );
    line('call', ['req/s', 'p50 ms', 'p99 ms', 'errors', 'ratio', 'CPU µs/req', 'CPU ratio', 'PG µs/req']);
    const compared = (r: Row, of: Row) => [
      `${(rps(r) / rps(of)).toFixed(2)} of ${of.short}`,
      f(meanOf(of.results, 'cpuUs') / meanOf(r.results, 'cpuUs'), 2),
    ];
    for (const r of rows) {
      const [ratioCell, cpuRatio] = r.of ? compared(r, r.of) : ['', '-'];
      line(r.name, [
        f(rps(r), 1),
        f(median(r.results.map((x) => x.p50)), 1),
        f(p99(r), 1),
        String(r.results.reduce((n, x) => n + x.errors + x.non2xx, 0)),
        ratioCell!,
        f(meanOf(r.results, 'cpuUs')),
        cpuRatio!,
        f(meanOf(r.results, 'pgUs')),
      ]);
      if (r.also) {
        const [alsoRatio, alsoCpu] = compared(r, r.also);
        line('  the same, against its prepared floor', ['', '', '', '', alsoRatio!, '', alsoCpu!, '']);
      }
    }
    console.log(
      "\nratio: requests per second against the floor of the same rounds. CPU µs/req: the serving process's CPU time per request. CPU ratio: the floor's CPU per request over the row's, i.e. what one core serves of this call against the floor (for sign-ins: a bare verify's CPU over the service's per complete sign-in), whatever share of the machine the client, PostgreSQL and the neighbours leave. PG µs/req: the CPU of PostgreSQL's backends serving the bench's database, per request (per complete sign-in).",
    );

    // The hashing threads' cost per verify during the sign-in rows, against the ceiling process's.
    const hashUs = signInRow ? meanOf(signInRow.results, 'hashUs') : Number.NaN;
    const ceilingUs = ceilingRow ? meanOf(ceilingRow.results, 'cpuUs') : Number.NaN;
    const hashThreads = service.pid === undefined ? undefined : hashThreadsCpu(service.pid)?.threads;
    console.log(
      `\nHashing: the service's hash threads (${hashThreads ?? 'none found'} at nice ${hashNice}) ${f(hashUs)} µs CPU per verify during the sign-in rows; the ceiling process ${f(ceilingUs)} µs per verify (${f((hashUs / ceilingUs - 1) * 100, 1)} %).`,
    );

    if (loadedWindows.length) {
      // The same probes as the service timed them: Fastify's onRequest to the answer sent, from the
      // service's own log line per request. What the client saw beyond this was spent before the
      // service read the request (its event loop busy, the kernel) or in the client's own process.
      const served = servedTimes(args['log-file']!, loadedWindows, [
        ['health', '/api/health'],
        ['remember', rememberPath],
      ]);
      const q = (xs: number[], at: number) => {
        const sorted = [...xs].sort((a, b) => a - b);
        return sorted.length
          ? sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))]!
          : Number.NaN;
      };
      console.log(
        `\nThe probes under ${LOADED_SIGNINS} sign-ins as the service timed them (request read to answer sent, its log lines; health includes the sign-ins' own health calls):`,
      );
      for (const [label, times] of served)
        console.log(
          `  ${label.padEnd(9)} ${times.length} requests: p50 ${f(q(times, 0.5), 1)} ms, p99 ${f(q(times, 0.99), 1)} ms, max ${f(Math.max(...times), 1)} ms`,
        );
      // Where the rest of the client's time goes: a request that arrives while the event loop is
      // runnable but has no core waits in the socket's queue, before the service's own timing
      // starts. The kernel's schedstat of the main thread says how often and how long that was.
      // The seconds of the loaded windows, as the service's event loop saw them.
      const seconds = readFileSync(loopFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LoopSecond)
        .filter((s) => loadedWindows.some(([from, to]) => s.at > from + 1000 && s.at <= to));
      if (seconds.length) {
        const gcCount = seconds.reduce((a, s) => a + s.gcCount, 0);
        const gcMs = seconds.reduce((a, s) => a + s.gcMs, 0);
        console.log(
          `  the service's event loop in those windows (${seconds.length} s, perf_hooks): late by p50 ${f(median(seconds.map((s) => s.p50)), 1)} ms, p99 ${f(median(seconds.map((s) => s.p99)), 1)} ms (the median second's), ${f(Math.max(...seconds.map((s) => s.p99)), 1)} ms (the worst second's), max ${f(Math.max(...seconds.map((s) => s.max)), 1)} ms; GC: ${gcCount} pauses, ${f(gcMs / seconds.length, 1)} ms a second, the longest ${f(Math.max(...seconds.map((s) => s.gcLongest)), 1)} ms`,
        );
      }
      const pooled = seconds.filter((s) => s.pool && s.pool.count > 0).map((s) => s.pool!);
      if (pooled.length) {
        const count = pooled.reduce((a, p) => a + p.count, 0);
        const waitMs = pooled.reduce((a, p) => a + p.waitMs, 0);
        const heldMs = pooled.reduce((a, p) => a + p.heldMs, 0);
        const over = (ms: number) => pooled.filter((p) => p.waitLongest > ms || p.heldLongest > ms).length;
        const longest = pooled.reduce((a, p) => (p.heldLongest > a.heldLongest ? p : a));
        console.log(
          `  the service's database pool in those windows: ${count} checkouts, waiting ${f(waitMs / count, 2)} ms on average for a connection (the longest ${f(Math.max(...pooled.map((p) => p.waitLongest)), 1)} ms), holding it ${f(heldMs / count, 2)} ms on average (the longest ${f(longest.heldLongest, 1)} ms, running "${longest.heldBy}…"); seconds with a wait or hold over 50 ms: ${over(50)} of ${seconds.length}`,
        );
      }
      if (loopSched.slices > 0) {
        const share = (ns: number) => (100 * ns) / (loopSched.ms * 1e6);
        console.log(
          `  the service's event loop in those windows (its main thread's schedstat): on a core ${f(share(loopSched.run), 0)} % of the time, runnable and waiting for a core ${f(share(loopSched.wait), 0)} % (${loopSched.slices} waits, ${f(loopSched.wait / loopSched.slices / 1e6, 2)} ms each on average)`,
        );
      }
    }

    const counted = (label: string, c: Counted | undefined) => {
      if (!c) return console.log(`  ${label}: not counted`);
      console.log(
        `  ${label} (${c.signIns}): ${f(c.data, 1)} data statements, ${f(c.control, 1)} transaction control, ${f(c.transactions, 1)} transactions, ${f(c.parses, 1)} Parse (${f(c.namedParses, 1)} named)`,
      );
      if (args.statements)
        for (const e of c.last)
          console.log(`      ${e.via.padEnd(11)} ${e.text.replace(/\s+/g, ' ').trim().slice(0, 110)}`);
    };
    console.log(
      `\nStatements per sign-in at the PostgreSQL protocol (sequential sign-ins after ${COUNTED.warmUp} of warm-up, a second instance of the service through a counting proxy):`,
    );
    counted('password-only', password);
    counted('with a code by text (OTP state, text, check)', otp);

    const goals: Array<[string, number | undefined, (n: number) => boolean]> = [
      ['load-balancer probe (GET /api/live) >= 0.5 of bare', ratio(liveRow, bareRow), (n) => n >= 0.5],
      ['GET remember >= 0.3 of bare', ratio(rememberRow, bareRow), (n) => n >= 0.3],
      ['GET remember >= 0.8 of its prepared floor', ratio(rememberRow, preparedRow), (n) => n >= 0.8],
      ['complete sign-ins >= 0.6 of the argon2id ceiling', ratio(signInRow, ceilingRow), (n) => n >= 0.6],
      [
        "hash threads' CPU per verify within 10 % of the ceiling's (ratio)",
        hashUs / ceilingUs,
        (n) => Math.abs(n - 1) <= 0.1,
      ],
      ['<= 5 data statements per password-only sign-in', password?.data, (n) => n <= 5],
      ['<= 8 data statements per sign-in with a one-time code', otp?.data, (n) => n <= 8],
      [
        'no Parse on second and later sign-ins (per sign-in, both kinds)',
        password && otp ? password.parses + otp.parses : undefined,
        (n) => n === 0,
      ],
      [
        `remember p99 < 25 ms under ${LOADED_SIGNINS} concurrent sign-ins`,
        p99(rememberLoadedRow),
        (n) => n < 25,
      ],
      [`health p99 < 20 ms under ${LOADED_SIGNINS} concurrent sign-ins`, p99(healthLoadedRow), (n) => n < 20],
      [
        `remember p99 < 25 ms under ${LOADED_SIGNINS} concurrent sign-ins, the probes' client at nice ${PROBE_NICE}`,
        p99(probeFirst?.remember),
        (n) => n < 25,
      ],
      [
        `health p99 < 20 ms under ${LOADED_SIGNINS} concurrent sign-ins, the probes' client at nice ${PROBE_NICE}`,
        p99(probeFirst?.health),
        (n) => n < 20,
      ],
    ];
    console.log("\nGoals (issue 25), from this run's figures:");
    for (const [goal, figure, met] of goals) {
      const known = figure !== undefined && Number.isFinite(figure);
      console.log(
        `  ${(known ? (met(figure) ? 'met' : 'UNMET') : '-').padEnd(6)} ${goal}: ${known ? f(figure, 2) : 'not measured'}`,
      );
    }
  } finally {
    // Let the service close (and write its profile) before this process ends.
    const closing = children.map(exited);
    stop();
    await Promise.race([Promise.all(closing), new Promise((r) => setTimeout(r, 10_000))]);
    await monitor.end();
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
