import { isIP } from 'node:net';
import { Status } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
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

/**
 * `hits`: the window's count with this hit, `windowStart`: the window it was counted in (the
 * database limiter's; an alert reads the one, `RateLimiter.giveBack` the other).
 */
export type RateDecision =
  | { allowed: true; hits?: number; windowStart?: Date }
  | { allowed: false; retryAfterSeconds: number; hits?: number; windowStart?: Date };
export type RateRule = { max: number; windowMs: number };

/** The upsert's update: a hit in the window, or the first of a new one when the old one has passed. */
const restart = (now: Date, windowMs: number) => sql`
  hits = case when rate_limits.window_start + rate_limits.window_ms * interval '1 millisecond' <= ${now}
    then 1 else rate_limits.hits + 1 end,
  window_start = case when rate_limits.window_start + rate_limits.window_ms * interval '1 millisecond' <= ${now}
    then ${now} else rate_limits.window_start end,
  window_ms = ${windowMs}`;

function decide(rule: RateRule, now: Date, hits: number, windowStart: Date): RateDecision {
  if (hits <= rule.max) return { allowed: true, hits, windowStart };
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000)),
    hits,
    windowStart,
  };
}

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
      on conflict (key) do update set ${restart(now, windowMs)}
      returning hits, window_start`.execute(this.db);
    const { hits, window_start } = row.rows[0]!;
    return decide({ max, windowMs }, now, hits, new Date(window_start));
  }

  /** A hit given back (a later limit refused the request), only in the window it was taken in. */
  async giveBack(key: string, windowStart: Date): Promise<void> {
    await sql`update rate_limits set hits = greatest(hits - 1, 0)
      where key = ${key} and window_start = ${windowStart}`.execute(this.db);
  }

  /**
   * Counts a hit on each rule in turn (keys `<scope>:<client|account>:<id>`) and throws the 429
   * envelope with Retry-After at the first limit passed; the rules after it are not counted.
   */
  async enforce(request: FastifyRequest, rules: Array<[key: string, rule: RateRule]>): Promise<void> {
    const decisions = await this.hitInTurn(rules.map(([key, rule]) => ({ key, ...rule })));
    for (const [i, decision] of decisions.entries()) refuseOver(request, rules[i]![0], decision);
  }

  /**
   * The hits of `enforce` in one statement (issue 25: a sign-in's two limits cost one round trip):
   * a chain of upserts, each counted only when the one before it stayed within its limit, exactly
   * as counting them one after another would. The decisions in order, up to the first refusal.
   */
  async hitInTurn(rules: ReadonlyArray<LimitRule>): Promise<RateDecision[]> {
    if (rules.length <= 1) return Promise.all(rules.map((r) => this.hit(r.key, r.max, r.windowMs)));
    const steps = limitSteps(rules, this.clock.now());
    const { rows } = await sql<Record<string, unknown>>`
      with ${steps.queries} select ${steps.columns}`.execute(this.db);
    return steps.decisions(rows[0]!);
  }

  /** A statement's `limitSteps`, counted at this limiter's time. */
  steps(rules: ReadonlyArray<LimitRule>, gate?: RawBuilder<unknown>): LimitSteps {
    return limitSteps(rules, this.clock.now(), gate);
  }
}

/**
 * A limit counted in a statement. `key` names the counter; inside a statement (`limitSteps`) the
 * counter may instead be named by SQL, `keyFrom`, over rows the statement reads itself (decision
 * 057: a code check that reads its journey), and `key` is then only the name a refusal logs.
 */
export type LimitRule = { key: string; max: number; windowMs: number; keyFrom?: RawBuilder<string> };

/**
 * Rate limits counted inside a statement of the caller's (issue 25: the hits and the work they
 * guard in one round trip), for `with ${queries}, ... select ${columns}, ...`:
 *
 * - `queries`: the WITH queries `gh_r0`, `gh_r1`, ...: one upsert per rule, each counted only while
 *   the one before it stayed within its limit (`hitInTurn`), the first only while `gate` holds;
 * - `allowed`: a condition for the statement's own work: every rule counted and within its limit;
 * - `columns`: what the statement answers of them, and `decisions(row)` the decisions from its row,
 *   in order up to the first refusal (none when the gate held the first back).
 */
export type LimitSteps = {
  /** How many rules are counted. */
  count: number;
  queries: RawBuilder<unknown>;
  allowed: RawBuilder<boolean>;
  columns: RawBuilder<unknown>;
  decisions(row: Record<string, unknown>): RateDecision[];
};

export function limitSteps(
  rules: ReadonlyArray<LimitRule>,
  now: Date,
  gate?: RawBuilder<unknown>,
): LimitSteps {
  if (!rules.length) throw new Error('limitSteps needs a rule');
  const name = (i: number) => sql.raw(`gh_r${i}`);
  const queries = rules.map(({ key, keyFrom, windowMs }, i) => {
    const previous = i === 0 ? gate : sql`(select hits from ${name(i - 1)}) <= ${rules[i - 1]!.max}::int`;
    return sql`${name(i)} as (
      insert into rate_limits (key, hits, window_start, window_ms)
      select ${keyFrom ?? key}::text, 1, ${now}::timestamptz, ${windowMs}::int
      ${previous ? sql`where ${previous}` : sql``}
      on conflict (key) do update set ${restart(now, windowMs)}
      returning hits, window_start)`;
  });
  const last = rules.length - 1;
  const columns = rules.map(
    (_, i) =>
      sql`(select hits from ${name(i)}) as ${sql.raw(`gh_r${i}_hits`)}, (select window_start from ${name(i)}) as ${sql.raw(`gh_r${i}_start`)}`,
  );
  return {
    count: rules.length,
    queries: sql.join(queries, sql`, `),
    allowed: sql<boolean>`coalesce((select hits from ${name(last)}) <= ${rules[last]!.max}::int, false)`,
    columns: sql.join(columns, sql`, `),
    decisions(row) {
      const decisions: RateDecision[] = [];
      for (const [i, rule] of rules.entries()) {
        const hits = row[`gh_r${i}_hits`];
        if (hits === null || hits === undefined) break;
        const decision = decide(rule, now, Number(hits), new Date(row[`gh_r${i}_start`] as Date | string));
        decisions.push(decision);
        if (!decision.allowed) break;
      }
      return decisions;
    },
  };
}

/** `enforce`'s answer for hits counted in a statement of the caller's (`limitSteps`). */
export function refuseFirst(
  request: FastifyRequest,
  rules: ReadonlyArray<LimitRule>,
  decisions: readonly RateDecision[],
): void {
  for (const [i, decision] of decisions.entries()) refuseOver(request, rules[i]!.key, decision);
}

/** The 429 envelope with Retry-After when a decision refuses. */
export function refuseOver(request: FastifyRequest, key: string, decision: RateDecision): void {
  if (decision.allowed) return;
  request.log.warn({ limit: key.split(':').slice(0, 2).join(':') }, 'rate limited');
  throw ApiError.of(429, Status.RATE_LIMITED, 'rateLimited', [decision.retryAfterSeconds], {
    'Retry-After': String(decision.retryAfterSeconds),
  });
}

/**
 * Fixed-window counters in this instance's memory, for limits that only protect the instance's own
 * load and guard no secret (the push status poll: a widget polls every 3 s, and a poll reads one row).
 * Behind N instances a client gets N times the limit, which such a limit tolerates; it costs no
 * database write per request (docs/decisions/022-push-and-device.md). Windows that have passed are
 * dropped once the map holds `capacity` keys.
 */
export class LocalRateLimiter {
  private readonly windows = new Map<string, { hits: number; start: number }>();
  constructor(
    private readonly clock: Clock,
    private readonly capacity = 100_000,
  ) {}

  hit(key: string, max: number, windowMs: number): RateDecision {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.start + windowMs <= now || window.start > now) {
      if (!window && this.windows.size >= this.capacity) this.prune(now, windowMs);
      window = { hits: 0, start: now };
      this.windows.set(key, window);
    }
    window.hits += 1;
    if (window.hits <= max) return { allowed: true };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)),
    };
  }

  enforce(request: FastifyRequest, rules: Array<[key: string, rule: RateRule]>): void {
    for (const [key, rule] of rules) refuseOver(request, key, this.hit(key, rule.max, rule.windowMs));
  }

  private prune(now: number, windowMs: number) {
    for (const [key, window] of this.windows) if (window.start + windowMs <= now) this.windows.delete(key);
    // Still full: the oldest half goes (a map iterates in insertion order).
    if (this.windows.size >= this.capacity) {
      let drop = Math.ceil(this.capacity / 2);
      for (const key of this.windows.keys()) {
        if (drop-- <= 0) break;
        this.windows.delete(key);
      }
    }
  }
}
