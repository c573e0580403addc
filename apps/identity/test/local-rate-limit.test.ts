import { describe, expect, test } from 'vitest';
import { TestClock } from '../src/lib/clock.ts';
import { LocalRateLimiter } from '../src/lib/rate-limit.ts';

/** The in-memory window of the push status poll (decision 022): exact counts, its own clock, bounded. */
describe('LocalRateLimiter', () => {
  test('allows max hits per window, refuses the next with the seconds left, and opens a new window', () => {
    const clock = new TestClock();
    const limiter = new LocalRateLimiter(clock);
    for (let i = 0; i < 3; i++) expect(limiter.hit('k', 3, 60_000)).toEqual({ allowed: true });
    clock.advance(20_000);
    expect(limiter.hit('k', 3, 60_000)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    expect(limiter.hit('other', 3, 60_000)).toEqual({ allowed: true });
    clock.advance(40_000);
    expect(limiter.hit('k', 3, 60_000)).toEqual({ allowed: true });
  });

  test('a clock moved back starts a new window instead of refusing for longer than the window', () => {
    const clock = new TestClock();
    const limiter = new LocalRateLimiter(clock);
    limiter.hit('k', 1, 60_000);
    expect(limiter.hit('k', 1, 60_000).allowed).toBe(false);
    clock.advance(-10 * 60_000);
    expect(limiter.hit('k', 1, 60_000)).toEqual({ allowed: true });
  });

  test('holds at most its capacity: passed windows go first, then the oldest half', () => {
    const clock = new TestClock();
    const limiter = new LocalRateLimiter(clock, 4);
    for (const key of ['a', 'b', 'c', 'd']) limiter.hit(key, 1, 60_000);
    // All four windows are live: the oldest two go to make room, so 'a' counts from zero again.
    limiter.hit('e', 1, 60_000);
    expect(limiter.hit('a', 1, 60_000)).toEqual({ allowed: true });
    expect(limiter.hit('d', 1, 60_000).allowed).toBe(false);
    clock.advance(60_000);
    for (const key of ['f', 'g', 'h']) limiter.hit(key, 1, 60_000);
    expect(limiter.hit('d', 1, 60_000)).toEqual({ allowed: true });
  });
});
