/**
 * The loaded probes' client of bench/server.ts, in a process of its own as a load balancer's is:
 * sent from the bench's process, the probes waited behind the 24 sign-in browsers on its event
 * loop, and their client-side p99 (94-138 ms) measured that loop more than the service (whose own
 * log timed health's p99 at 6 ms).
 *
 *   node --import tsx bench/probe-client.ts '<JSON: the probes, each { url, headers?, duration, overallRate, connections }>'
 *
 * Loads only node:http, says `ready` on stdout, starts the probes when a line arrives on stdin (so
 * that its start-up is not inside the measured window), and prints each probe's result as JSON.
 *
 * The probes are paced: one request every 1/overallRate s, as a load balancer's health checks and
 * independent browsers' calls arrive, on up to `connections` keep-alive connections (a request
 * whose turn comes while every connection waits for an answer waits for one, and that wait counts
 * in its time). autocannon, used before, sends each second's requests at once when the second
 * starts (its rate resets once a second): one stall of the service then delayed a second's probes
 * together, and that burst, not the service's answers, set a p99 read from 200 answers (stop 36).
 */
import { Agent, request } from 'node:http';

type Probe = {
  url: string;
  headers?: Record<string, string>;
  /** Seconds. */
  duration: number;
  /** Requests a second, evenly spaced. */
  overallRate: number;
  connections: number;
};

const probes = JSON.parse(process.argv[2]!) as Probe[];

/** The value at quantile q of sorted times (nearest rank). */
const quantile = (sorted: number[], q: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : Number.NaN;

async function run(probe: Probe) {
  const agent = new Agent({ keepAlive: true, maxSockets: probe.connections });
  const times: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const req = request(probe.url, { agent, headers: probe.headers ?? {} }, (res) => {
        res.resume();
        res.on('end', () => {
          times.push(performance.now() - sent);
          if (!res.statusCode || res.statusCode < 200 || res.statusCode >= 300) non2xx++;
          resolve();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const total = Math.round(probe.duration * probe.overallRate);
  const gap = 1000 / probe.overallRate;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + i * gap - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(one());
  }
  await Promise.all(pending);
  agent.destroy();
  const seconds = (performance.now() - start) / 1000;
  const sorted = times.sort((a, b) => a - b);
  return {
    rps: times.length / seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    errors,
    non2xx,
  };
}

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const results = await Promise.all(probes.map(run));
process.stdout.write(`${JSON.stringify(results)}\n`);
process.exit(0);
