import { describe, expect, test } from 'vitest';
import { PasswordHasher } from '../src/lib/passwords.ts';

/** argon2id on the worker pool (decision 018): the same answers, and the event loop stays free. */
describe('password hashing on the worker pool', () => {
  const settings = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
  const hasher = new PasswordHasher(settings, { threads: 2 });

  test('argon2id with the settings; right, wrong, unreadable and missing hashes', async () => {
    const stored = await hasher.hash('Harbor7Lights');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(stored, 'Harbor7Lights')).toBe(true);
    expect(await hasher.verify(stored, 'Harbor7Light')).toBe(false);
    expect(await hasher.verify('not-a-hash', 'Harbor7Lights')).toBe(false);
    expect(await hasher.verifyOrBurn(undefined, 'Harbor7Lights')).toBe(false);
    expect(await hasher.verifyOrBurn(stored, 'Harbor7Lights')).toBe(true);
  });

  test('a burst of checks never holds the event loop: timers keep firing while they run', async () => {
    const stored = await hasher.hash('Harbor7Lights');
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks += 1;
    }, 1);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 16 }, () => hasher.verify(stored, 'Harbor7Lights')),
    );
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(results.every(Boolean)).toBe(true);
    // Sixteen checks on two threads take at least eight check-times. Checks on the event loop would
    // hold the timer for the whole run; off it, the timer keeps running and no gap is half the run.
    expect(ticks).toBeGreaterThan(10);
    expect(longest).toBeLessThan(elapsed / 2);
  });
});
