import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

/**
 * A diagnosis the server bench loads into the service it measures (`node --import`), never part of
 * the product: once a second it appends to BENCH_LOOP_FILE how late the event loop ran its timers
 * in that second (perf_hooks' event-loop delay: p50, p99, max, in ms) and the garbage collector's
 * pauses (count, total, longest). A request that arrives while the loop is late waits in its
 * socket before the service's own timing starts: this is where that wait shows. Plain JavaScript:
 * Node loads it with `--import` ahead of the service, where TypeScript is not loaded yet.
 *
 * It also times the service's database pool (node-postgres, the same module the service loads):
 * each checkout's wait for a connection and how long the connection was held (one statement, or a
 * transaction), per second: count, total and longest of each. A request slow inside the service
 * while its event loop was on time waited for one of these.
 */
const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gc = { count: 0, ms: 0, longest: 0 };
  const fresh = () => ({ count: 0, waitMs: 0, waitLongest: 0, heldMs: 0, heldLongest: 0, heldBy: '' });
  let pool = fresh();
  const pg = createRequire(import.meta.url)('pg');
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function timedConnect(callback) {
    if (callback) return connect.call(this, callback);
    const asked = performance.now();
    return connect.call(this).then((client) => {
      const got = performance.now();
      const waited = got - asked;
      pool.count += 1;
      pool.waitMs += waited;
      pool.waitLongest = Math.max(pool.waitLongest, waited);
      const release = client.release;
      const query = client.query;
      // The statement the checkout ran first (its first 60 characters), named for the longest hold.
      let first = '';
      client.query = function namedQuery(config, ...rest) {
        if (!first)
          first = String(typeof config === 'string' ? config : (config?.text ?? ''))
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 60);
        return query.call(this, config, ...rest);
      };
      client.release = function timedRelease(...args) {
        const held = performance.now() - got;
        pool.heldMs += held;
        if (held > pool.heldLongest) {
          pool.heldLongest = held;
          pool.heldBy = first;
        }
        client.release = release;
        client.query = query;
        return release.apply(this, args);
      };
      return client;
    });
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.ms += entry.duration;
      gc.longest = Math.max(gc.longest, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const ms = (/** @type {number} */ ns) => ns / 1e6;
    const line = {
      at: Date.now(),
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      gcCount: gc.count,
      gcMs: gc.ms,
      gcLongest: gc.longest,
      pool,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
    gc = { count: 0, ms: 0, longest: 0 };
    pool = fresh();
  }, 1000).unref();
}
