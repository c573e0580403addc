import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/**
 * A diagnosis the server bench loads into the service it measures (`node --import`), never part of
 * the product: once a second it appends to BENCH_LOOP_FILE how late the event loop ran its timers
 * in that second (perf_hooks' event-loop delay: p50, p99, max, in ms) and the garbage collector's
 * pauses (count, total, longest). A request that arrives while the loop is late waits in its
 * socket before the service's own timing starts: this is where that wait shows. Plain JavaScript:
 * Node loads it with `--import` ahead of the service, where TypeScript is not loaded yet.
 */
const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gc = { count: 0, ms: 0, longest: 0 };
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
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
    gc = { count: 0, ms: 0, longest: 0 };
  }, 1000).unref();
}
