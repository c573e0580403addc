import { isIP } from 'node:net';
import { format, Status, serverMessages } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Clock } from './clock.ts';
import { ApiError } from './http.ts';

/**
 * The client a per-address limit counts: the address itself for IPv4, its /64 network for IPv6
 * (one home connection or one cloud host gets a whole /64, so counting single IPv6 addresses would
 * let such a client rotate past every per-address limit). An IPv4-mapped address counts as IPv4.
 */
export function clientKey(ip: string): string {
  const address = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };
export type RateRule = { max: number; windowMs: number };

/**
 * Fixed-window counters kept in the database, so that every instance sees the same counts.
 * One atomic upsert per hit: a new window starts when the old one has passed.
 */
export class RateLimiter {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
  ) {}

  async hit(key: string, max: number, windowMs: number): Promise<RateDecision> {
    const now = this.clock.now();
    const row = await sql<{ hits: number; window_start: Date }>`
      insert into rate_limits (key, hits, window_start, window_ms)
      values (${key}, 1, ${now}, ${windowMs})
      on conflict (key) do update set
        hits = case when rate_limits.window_start + rate_limits.window_ms * interval '1 millisecond' <= ${now}
          then 1 else rate_limits.hits + 1 end,
        window_start = case when rate_limits.window_start + rate_limits.window_ms * interval '1 millisecond' <= ${now}
          then ${now} else rate_limits.window_start end,
        window_ms = ${windowMs}
      returning hits, window_start`.execute(this.db);
    const { hits, window_start } = row.rows[0]!;
    if (hits <= max) return { allowed: true };
    const resetAt = new Date(window_start).getTime() + windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) };
  }

  /**
   * Counts a hit on each rule in turn (keys `<scope>:<client|account>:<id>`) and throws the 429
   * envelope with Retry-After at the first limit passed.
   */
  async enforce(request: FastifyRequest, rules: Array<[key: string, rule: RateRule]>): Promise<void> {
    for (const [key, rule] of rules) {
      const decision = await this.hit(key, rule.max, rule.windowMs);
      if (!decision.allowed) {
        request.log.warn({ limit: key.split(':').slice(0, 2).join(':') }, 'rate limited');
        throw new ApiError(
          429,
          Status.RATE_LIMITED,
          format(serverMessages.rateLimited, decision.retryAfterSeconds),
          undefined,
          { 'Retry-After': String(decision.retryAfterSeconds) },
        );
      }
    }
  }
}
