/**
 * The loaded probes' client of bench/server.ts, in a process of its own as a load balancer's is:
 * sent from the bench's process, the probes waited behind the 24 sign-in browsers on its event
 * loop, and their client-side p99 (94-138 ms) measured that loop more than the service (whose own
 * log timed health's p99 at 6 ms).
 *
 *   node --import tsx bench/probe-client.ts '<JSON: autocannon options of each probe>'
 *
 * Loads only autocannon, says `ready` on stdout, starts the probes when a line arrives on stdin
 * (so that its start-up is not inside the measured window), and prints each probe's result as JSON.
 */
import autocannon from 'autocannon';

const probes = JSON.parse(process.argv[2]!) as autocannon.Options[];
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const results = await Promise.all(probes.map((options) => autocannon(options)));
process.stdout.write(
  `${JSON.stringify(
    results.map((result) => ({
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    })),
  )}\n`,
);
process.exit(0);
