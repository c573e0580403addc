import { sql } from 'kysely';
import { HOTP, Secret } from 'otpauth';
import type { Credential } from '../credentials/store.ts';
import type { DB } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * What the authenticator app (factors/totp) and the token app (factors/token) share: RFC 6238 codes
 * of a credential's secret (HOTP of RFC 4226 over the 30-second time step, by the `otpauth`
 * library), the conditional update that accepts a time step once (replay), and the try counters
 * kept in SQL.
 */

export type AppCodeParameters = { algorithm: 'SHA1' | 'SHA256' | 'SHA512'; digits: number; period: number };

/** A credential's RFC 6238 parameters from its data (design: SHA-1, 6 digits, 30 s by default). */
export function parametersOf(credential: Pick<Credential, 'data'>): AppCodeParameters {
  const { algorithm, digits, period } = credential.data;
  return {
    algorithm: algorithm === 'SHA256' || algorithm === 'SHA512' ? algorithm : 'SHA1',
    digits: typeof digits === 'number' && digits >= 6 && digits <= 8 ? digits : 6,
    period: typeof period === 'number' && period >= 10 && period <= 120 ? period : 30,
  };
}

/** The RFC 6238 time step of an instant: floor(seconds since the epoch / period). */
export const timeStep = (at: Date, period: number): number => Math.floor(at.getTime() / 1000 / period);

/** The code of a counter value (RFC 4226 HOTP; RFC 6238 passes the time step). */
export function codeAt(
  secret: Uint8Array,
  counter: number,
  p: Pick<AppCodeParameters, 'algorithm' | 'digits'>,
) {
  return HOTP.generate({
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
    algorithm: p.algorithm,
    digits: p.digits,
    counter,
  });
}

/**
 * The counter value within `window` of `center` whose code is `code` (the nearest first), or null.
 * The comparison is constant-time (otpauth's timingSafeEqual).
 */
export function findStep(
  secret: Uint8Array,
  code: string,
  center: number,
  window: number,
  p: Pick<AppCodeParameters, 'algorithm' | 'digits'>,
): number | null {
  const delta = HOTP.validate({
    token: code,
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
    algorithm: p.algorithm,
    digits: p.digits,
    counter: center,
    window,
  });
  return delta === null ? null : center + delta;
}

/**
 * Two consecutive codes (RFC 4226 §7.4 resynchronisation): the counter value t within `window` of
 * `center` whose code is `first` while t + 1's is `second`, the nearest to center first; null when
 * there is none.
 */
export function findConsecutive(
  secret: Uint8Array,
  first: string,
  second: string,
  center: number,
  window: number,
  p: Pick<AppCodeParameters, 'algorithm' | 'digits'>,
): number | null {
  const low = center - window;
  const codes = new Map<number, string>();
  const at = (i: number) => {
    let value = codes.get(i);
    if (value === undefined) {
      value = codeAt(secret, i, p);
      codes.set(i, value);
    }
    return value;
  };
  for (let distance = 0; distance <= window; distance++) {
    for (const t of distance === 0 ? [center] : [center - distance, center + distance]) {
      if (t < low || t < 0) continue;
      if (at(t) === first && at(t + 1) === second) return t;
    }
  }
  return null;
}

/**
 * Accepts a time step of a credential once: one conditional UPDATE records it as the last accepted
 * step only while every step accepted before is older, so the same code (or an older one) is never
 * accepted again, and of simultaneous submissions exactly one wins. `patch` is merged into the data
 * in the same statement (a token's new drift). False: the step (or a later one) was accepted before.
 */
export async function claimStep(
  db: DB,
  clock: Clock,
  credentialId: string,
  step: number,
  patch: Record<string, unknown> = {},
  /** The step that must be newer than the last accepted one (resync: the first of its two codes). */
  newerThan: number = step,
): Promise<boolean> {
  const data = JSON.stringify({ ...patch, lastStep: step });
  const result = await sql<{ id: string }>`
    update credentials set data = data || ${data}::jsonb, last_used_at = ${clock.now()}
    where id = ${credentialId}
      and coalesce((data->>'lastStep')::bigint, -1) < ${newerThan}
    returning id`.execute(db);
  return result.rows.length === 1;
}

/** A counter of wrong tries under a key of otp_counters (the authenticator app's block). */
export type TryState = { wrong_tries: number; locked_until: Date | string | null };

/**
 * Wrong tries of an account under a key, in otp_counters, with the block they lead to. A try is
 * reserved before anything is compared (one conditional upsert, only while the count is under the
 * limit; the try that reaches the limit sets the block in the same statement), so however many
 * tries arrive at once, at most the limit of them are compared and the count is exact.
 */
export class TryCounter {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    readonly key: string,
  ) {}

  async state(accountId: string): Promise<TryState | undefined> {
    return this.db
      .selectFrom('otp_counters')
      .select(['wrong_tries', 'locked_until'])
      .where('account_id', '=', accountId)
      .where('channel', '=', this.key)
      .executeTakeFirst();
  }

  /** The try's number (1..max), or undefined when none is left (blocked, or the limit in flight). */
  async reserve(accountId: string, max: number, blockMs: number): Promise<number | undefined> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + blockMs);
    const reserved = await sql<{ wrong_tries: number }>`
      insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at, locked_until)
      values (${accountId}, ${this.key}, 1, 0, ${now}, ${max <= 1 ? until : null})
      on conflict (account_id, channel) do update set
        wrong_tries = otp_counters.wrong_tries + 1, updated_at = ${now},
        locked_until = case when otp_counters.wrong_tries + 1 >= ${max} then ${until}::timestamptz
          else otp_counters.locked_until end
        where otp_counters.wrong_tries < ${max}
      returning wrong_tries`.execute(this.db);
    return reserved.rows[0]?.wrong_tries;
  }

  /** A reserved try that was not a guess (a replay): given back; a block it set is lifted with it. */
  async giveBack(accountId: string, max: number): Promise<void> {
    await sql`update otp_counters set wrong_tries = greatest(wrong_tries - 1, 0),
        locked_until = case when wrong_tries - 1 < ${max} then null else locked_until end
      where account_id = ${accountId} and channel = ${this.key} and wrong_tries > 0`.execute(this.db);
  }

  /** A right code, or a block that ran its time (only that block: `lockedUntil`). */
  async clear(accountId: string, lockedUntil?: Date | string): Promise<void> {
    let query = this.db
      .updateTable('otp_counters')
      .set({ wrong_tries: 0, locked_until: null, updated_at: this.clock.now() })
      .where('account_id', '=', accountId)
      .where('channel', '=', this.key);
    if (lockedUntil !== undefined) query = query.where('locked_until', '=', new Date(lockedUntil));
    await query.execute();
  }
}
