import { randomInt } from 'node:crypto';
import { limits } from '@gatehouse/contract';
import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Config } from '../config.ts';
import type { DB, StatementValue } from '../db/database.ts';
import type { Clock } from './clock.ts';
import { hmac } from './crypto.ts';
import { type LimitRule, limitSteps, type RateDecision } from './rate-limit.ts';

export type OtpChannelName = 'email' | 'sms' | 'voice';
export type CodePurpose = 'factor' | 'recovery';

/**
 * The key a channel's counters are kept under. Recovery counts under the channel itself ('email');
 * the second factor under `factor:<channel>`, so sends and wrong codes of one never block the other.
 */
export const factorCounter = (channel: OtpChannelName): string => `factor:${channel}`;

/** A code of `limits.codeLength` (6) digits from the CSPRNG, leading zeros kept. */
export function newCode(length: number = limits.codeLength): string {
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

/**
 * What is stored for a code: an HMAC-SHA-256 under the server's pepper, over whom it was sent for
 * (the account; for a login journey's second factor, the journey's token hash: decision 057), the
 * channel and the code, so a stolen table gives neither the codes nor a way to try them offline
 * without the pepper, and one account's or journey's code never matches another's row.
 */
export function codeHash(pepper: string, subject: string, channel: string, code: string): string {
  return hmac(pepper, `${subject}|${channel}|${code}`);
}

/** The try and send counts of an account under a key (see factorCounter). */
export type Counters = {
  wrong_tries: number;
  unentered_sends: number;
  updated_at: Date | string;
  locked_until: Date | string | null;
};

/**
 * An account's counters under every key and the factors held for it, read with its login journey
 * (SessionStore.loginOrSession), so a code's send or check needs no read of its own (issue 25).
 */
export type FactorState = { counters: ReadonlyMap<string, Counters>; held: ReadonlySet<string> };

/** The two JSON arrays a FactorState is read from, as columns of the statement that reads the account. */
export const factorStateJson = (accountId: Expression<string>) => ({
  counters: sql<unknown>`(select coalesce(json_agg(json_build_object('channel', c.channel,
      'wrong_tries', c.wrong_tries, 'unentered_sends', c.unentered_sends,
      'updated_at', c.updated_at, 'locked_until', c.locked_until)), '[]'::json)
    from otp_counters c where c.account_id = ${accountId})`,
  held: sql<unknown>`(select coalesce(json_agg(h.factor), '[]'::json)
    from factor_holds h where h.account_id = ${accountId} and h.held_at is not null)`,
});

/** The FactorState of `factorStateJson`'s columns (PGlite and node-postgres parse JSON; a string is parsed here). */
export function factorStateFromJson(counters: unknown, held: unknown): FactorState {
  const parse = <T>(value: unknown): T[] =>
    (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];
  return {
    counters: new Map(
      parse<Counters & { channel: string }>(counters).map(({ channel, ...row }) => [channel, row]),
    ),
    held: new Set(parse<string>(held)),
  };
}

/** What `OtpCodes.state` answers, from a FactorState read earlier in the same request. */
export function stateFrom(
  snapshot: FactorState,
  counter: string,
  hold?: string,
): { held: boolean; counters?: Counters } {
  const held = hold !== undefined && snapshot.held.has(hold);
  const counters = snapshot.counters.get(counter);
  return counters ? { held, counters } : { held };
}

export type CheckResult =
  /** The code was right: this call used it (exactly one call can). */
  | { outcome: 'accepted' }
  /** Wrong (or expired): counted; `exhausted` when this try reached the limit. */
  | { outcome: 'wrong'; wrongTries: number; exhausted: boolean }
  /** The right code, already used (a double submit, or the losers of a race): not counted. */
  | { outcome: 'used' }
  /**
   * No try could be reserved: the limit is taken by tries still in flight (or spent). Nothing was
   * compared and nothing counted; the caller answers as for a wrong code. Only a compared wrong
   * code that reaches the limit ends a journey or locks a channel, so a double submit of the right
   * code never does.
   */
  | { outcome: 'busy' }
  /** With `guard`: the factor is held (factors/holds.ts). Nothing was compared or counted. */
  | { outcome: 'held' }
  /** With `guard`: the channel is locked after too many wrong codes. Nothing was compared or counted. */
  | { outcome: 'locked' };

/** `OtpCodes.check` with `limits`: a limit refused the try, and nothing was compared or counted. */
export type LimitedCheck = { outcome: 'limited'; decisions: RateDecision[] };

/** `OtpCodes.checkParts`: a code's check inside a statement of the caller's. */
export type CheckParts = {
  /** The WITH queries (rate limits, `code`, `reserved`, `accepted`), without the WITH. */
  queries: RawBuilder<unknown>;
  /** True when this statement used the code (the work a right code unlocks runs on it). */
  accepted: RawBuilder<boolean>;
  /** What the statement answers of the check (columns named check_* and gh_r*). */
  columns: RawBuilder<unknown>;
  result(row: Record<string, unknown>): CheckResult | LimitedCheck;
};

/** What `OtpCodes.check` checks. */
export type CheckInput = {
  accountId: StatementValue;
  /** Whom the code's hash is over (codeHash); default the account, which must then be a parameter. */
  subject?: string;
  channel: OtpChannelName;
  code: string;
  purpose: CodePurpose;
  /** Only a code sent for this journey matches. */
  journeyId: StatementValue;
  /** The counters' key (default: the channel); see factorCounter. */
  counter?: string;
  /** Default OTP_MAX_WRONG_TRIES. */
  maxWrongTries?: number;
  /**
   * The second factor's refusals, decided in the check's statement (issue 25): while `hold` is held
   * ('held') or the counters' lock runs ('locked'), nothing is reserved or compared. Counts whose
   * lock has run out, or last changed `lockoutMs` ago or more, start again from zero.
   */
  guard?: { hold: string; lockoutMs: number };
  /** The check runs only where this holds (its limits are counted only then, too). */
  gate?: RawBuilder<boolean>;
};

/**
 * One-time codes of every channel, as rows: issue, check once, count wrong tries and sends per
 * account and channel. Nothing is kept in memory, so the counts hold across restarts and instances.
 */
export class OtpCodes {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  private hash(subject: string, channel: string, code: string) {
    return codeHash(this.config.otp.pepper, subject, channel, code);
  }

  /**
   * Counts a send. Returns the sends since the last correct code, this one included; past
   * `sendsBeforeBlock` the caller refuses the send (the count stays, so every later send is refused).
   */
  async countSend(accountId: string, channel: OtpChannelName | string): Promise<number> {
    const now = this.clock.now();
    const row = await sql<{ unentered_sends: number }>`
      insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at)
      values (${accountId}, ${channel}, 0, 1, ${now})
      on conflict (account_id, channel) do update set
        unentered_sends = otp_counters.unentered_sends + 1, updated_at = ${now}
      returning unentered_sends`.execute(this.db);
    return row.rows[0]!.unentered_sends;
  }

  /**
   * A send as one statement (issue 25): counts it under `counter` (`countSend`), then, only while
   * the sends since the last right code stay within `maxSends`, counts the message's rate limits
   * in turn (`limits`, lib/rate-limit.ts `limitSteps`: the texts and calls a number, a country and
   * the day may take), and only while every one allows it issues the code. A code takes the place
   * of the live one of its account, channel and purpose (one row is live: migration 041), so an
   * earlier code stops working, and of a burst of sends only the last code written works. `issued` is undefined when the count or a limit refused: no
   * code exists, and the caller answers from `sends` and `decisions` (a refused limit's hits are
   * given back by PhoneLimits.settle, as after `reserve`).
   */
  async countAndIssue(input: {
    accountId: string;
    /** Whom the code's hash is over (codeHash); default the account. */
    subject?: string;
    channel: OtpChannelName;
    recipient: string;
    purpose: CodePurpose;
    journeyId: string;
    counter: string;
    maxSends: number;
    limits: readonly LimitRule[];
    /**
     * Written with the code and only with it: a WITH query over `issued` (the new code's row) and
     * `counted` (its `unentered_sends`), e.g. the code-issued audit event (AuditTrail.insertFrom).
     */
    also?: RawBuilder<unknown>;
  }): Promise<{
    sends: number;
    decisions: RateDecision[];
    issued?: { id: string; code: string; codeHash: string; expiresAt: Date };
  }> {
    const now = this.clock.now();
    const code = newCode();
    const expiresAt = new Date(now.getTime() + this.config.otp.expiryMs);
    const { accountId, channel, purpose } = input;
    const within = sql`(select unentered_sends from counted) <= ${input.maxSends}::int`;
    const steps = input.limits.length ? limitSteps(input.limits, now, within) : undefined;
    const allowed = steps ? steps.allowed : within;
    const codeHash = this.hash(input.subject ?? accountId, channel, code);
    const { rows } = await sql<Record<string, unknown> & { sends: number; issued: string | null }>`
      with counted as (
        insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at)
        values (${accountId}, ${input.counter}, 0, 1, ${now})
        on conflict (account_id, channel) do update set
          unentered_sends = otp_counters.unentered_sends + 1, updated_at = ${now}
        returning unentered_sends
      ), ${steps ? sql`${steps.queries}, ` : sql``}issued as (
        insert into otp_codes (account_id, channel, recipient, code_hash, purpose, journey_id, created_at, expires_at)
        select ${accountId}, ${channel}, ${input.recipient}, ${codeHash}, ${purpose},
          ${input.journeyId}, ${now}::timestamptz, ${expiresAt}::timestamptz
        where ${allowed}
        on conflict (account_id, channel, purpose) where used_at is null and revoked_at is null
        do update set recipient = excluded.recipient, code_hash = excluded.code_hash,
          journey_id = excluded.journey_id, created_at = excluded.created_at, expires_at = excluded.expires_at
        returning id, journey_id
      )${input.also ? sql`, with_code as (${input.also})` : sql``}
      select (select unentered_sends from counted) as sends, ${steps ? sql`${steps.columns}, ` : sql``}
        (select id from issued) as issued`.execute(this.db);
    const row = rows[0]!;
    return {
      sends: Number(row.sends),
      decisions: steps ? steps.decisions(row) : [],
      ...(row.issued ? { issued: { id: row.issued, code, codeHash, expiresAt } } : {}),
    };
  }

  /**
   * Whether a code of this account and channel was sent for the journey and can still be used.
   * Wrong tries count only against a code that exists.
   */
  async hasLiveCode(input: {
    accountId: string;
    channel: OtpChannelName;
    journeyId: string;
  }): Promise<boolean> {
    const query = this.db
      .selectFrom('otp_codes')
      .select('id')
      .where('account_id', '=', input.accountId)
      .where('channel', '=', input.channel)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.clock.now())
      .where('journey_id', '=', input.journeyId);
    return !!(await query.executeTakeFirst());
  }

  /**
   * Checks a code. A try is reserved before anything is compared: one conditional upsert adds it
   * only while the wrong tries are under the limit, so however many checks arrive at once, at most
   * the limit of them are compared (a burst cannot outrun the count, and a right code placed after
   * the limit is refused). The accepting UPDATE is conditional too (`used_at is null`), so of any
   * number of simultaneous submissions of the right code exactly one is accepted. A correct code
   * clears the wrong tries and the sends; a wrong one keeps its try (a resend does not reset it);
   * the right code submitted again (a double submit) gives its try back. With `limits`, those rate
   * limits are counted in the same statement, in turn, before the try is reserved: while one
   * refuses, nothing is reserved or compared ('limited'; issue 25).
   */
  async check(input: CheckInput & { limits: readonly LimitRule[] }): Promise<CheckResult | LimitedCheck>;
  async check(input: CheckInput): Promise<CheckResult>;
  async check(input: CheckInput & { limits?: readonly LimitRule[] }): Promise<CheckResult | LimitedCheck> {
    const parts = this.checkParts(input);
    const { rows } = await sql<Record<string, unknown>>`
      with ${parts.queries} select ${parts.columns}`.execute(this.db);
    return parts.result(rows[0]!);
  }

  /**
   * `check` as parts of a statement of the caller's (issue 25: a login's right code completes it in
   * the same statement, FactorEngine.complete with `after`): its WITH queries, `accepted` (a
   * condition: this statement used the code), the columns it answers and the result from its row.
   */
  checkParts(input: CheckInput & { limits?: readonly LimitRule[] }): CheckParts {
    const { accountId, channel, guard, gate } = input;
    const counter = input.counter ?? channel;
    const max = input.maxWrongTries ?? this.config.otp.maxWrongTries;
    const now = this.clock.now();
    const steps = input.limits?.length ? limitSteps(input.limits, now, gate) : undefined;
    const subject = input.subject ?? (typeof accountId === 'string' ? accountId : undefined);
    if (subject === undefined) throw new Error("a check that reads its account names its code's subject");

    const hash = this.hash(subject, channel, input.code);
    // With `guard`: a held factor or a running lock reserves nothing (read as the statement starts;
    // the reservation checks the lock again on the row it takes, so a lock lifted meanwhile, by the
    // console or a recovery, lets the try through, and the answer is the try's, not 'locked'), and
    // counts whose lock ran out or that are older than the lockout start again from zero, in the
    // reservation itself.
    const held = guard
      ? sql<boolean>`exists (select 1 from factor_holds where account_id = ${accountId}
          and factor = ${guard.hold} and held_at is not null)`
      : sql<boolean>`false`;
    const locked = guard
      ? sql<boolean>`exists (select 1 from otp_counters where account_id = ${accountId}
          and channel = ${counter} and locked_until > ${now})`
      : sql<boolean>`false`;
    const stale = guard
      ? sql<boolean>`(otp_counters.locked_until is not null
          or otp_counters.updated_at <= ${new Date(now.getTime() - guard.lockoutMs)})`
      : sql<boolean>`false`;
    const tries = guard
      ? sql`case when ${stale} then 0 else otp_counters.wrong_tries end`
      : sql`otp_counters.wrong_tries`;
    const reservable = [
      ...(gate && !steps ? [gate] : []),
      ...(steps ? [steps.allowed] : []),
      ...(guard ? [sql<boolean>`not ${held}`] : []),
    ];
    // `live` and `spent`: the code as sent for this journey, unused or already used. The try is
    // reserved by the conditional upsert (nothing is compared once the limit is taken); a code that
    // matches costs no try (a right one clears the counts, the right one again is a double submit),
    // any other adds one. The accepting UPDATE runs only on a reserved try and only while the code
    // is unused: of simultaneous submissions of the right code exactly one sets used_at (the others
    // find it set when they get the row), and they are 'used'. The code's hash, journey, purpose and
    // expiry are compared again there: a resend replaces a live code in its row (migration 041).
    const queries = sql`${steps ? sql`${steps.queries}, ` : sql``}code as (
        select id, used_at is null as live from otp_codes
        where account_id = ${accountId} and channel = ${channel} and code_hash = ${hash}
          and revoked_at is null and expires_at > ${now} and purpose = ${input.purpose}
          and journey_id = ${input.journeyId}
      ), reserved as (
        insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at)
        select ${accountId}, ${counter}, case when exists (select 1 from code) then 0 else 1 end, 0, ${now}
        ${reservable.length ? sql`where ${sql.join(reservable, sql` and `)}` : sql``}
        on conflict (account_id, channel) do update set
          wrong_tries = case when exists (select 1 from code where live) then 0
            when exists (select 1 from code) then ${tries}
            else ${tries} + 1 end,
          unentered_sends = case when exists (select 1 from code where live) or ${stale} then 0
            else otp_counters.unentered_sends end,
          ${guard ? sql`locked_until = case when ${stale} then null else otp_counters.locked_until end,` : sql``}
          updated_at = ${now}
          where ${
            guard
              ? sql`(otp_counters.locked_until is null or otp_counters.locked_until <= ${now})
                and (${stale} or otp_counters.wrong_tries < ${max})`
              : sql`otp_counters.wrong_tries < ${max}`
          }
        returning wrong_tries
      ), accepted as (
        update otp_codes set used_at = ${now}
        where id in (select id from code where live) and used_at is null and revoked_at is null
          and code_hash = ${hash} and journey_id = ${input.journeyId} and purpose = ${input.purpose}
          and expires_at > ${now} and exists (select 1 from reserved)
        returning id
      )`;
    const columns = sql`(select wrong_tries from reserved) as check_wrong_tries,
        exists (select 1 from code) as check_spent,
        exists (select 1 from accepted) as check_accepted,
        ${held} as check_held,
        (${locked} and not exists (select 1 from reserved)) as check_locked${steps ? sql`, ${steps.columns}` : sql``}`;
    return {
      queries,
      accepted: sql<boolean>`exists (select 1 from accepted)`,
      columns,
      result(row) {
        if (steps) {
          const decisions = steps.decisions(row);
          if (decisions.length < steps.count || decisions.some((d) => !d.allowed)) {
            return { outcome: 'limited', decisions };
          }
        }
        if (row.check_held) return { outcome: 'held' };
        if (row.check_locked) return { outcome: 'locked' };
        if (row.check_wrong_tries === null || row.check_wrong_tries === undefined) return { outcome: 'busy' };
        if (row.check_accepted) return { outcome: 'accepted' };
        // The right code, already used (a double submit, or the losers of a race): not a guess.
        if (row.check_spent) return { outcome: 'used' };
        const tries = Number(row.check_wrong_tries);
        return { outcome: 'wrong', wrongTries: tries, exhausted: tries >= max };
      },
    };
  }

  /** The counters of an account under a key (see factorCounter), or undefined when none. */
  async counters(accountId: string, counter: string): Promise<Counters | undefined> {
    return (await this.state(accountId, counter)).counters;
  }

  /**
   * The counters under a key and, with `hold`, whether that factor is held (factors/holds.ts): both
   * in one statement, for a send or a check that needs both before it acts (issue 25).
   */
  async state(
    accountId: string,
    counter: string,
    hold?: string,
  ): Promise<{ held: boolean; counters?: Counters }> {
    const { rows } = await sql<Counters & { held: boolean; found: boolean }>`
      select c.wrong_tries, c.unentered_sends, c.updated_at, c.locked_until, c.account_id is not null as found,
        ${
          hold === undefined
            ? sql`false`
            : sql`exists (select 1 from factor_holds
          where account_id = ${accountId} and factor = ${hold} and held_at is not null)`
        } as held
      from (select 1) as one
      left join otp_counters c on c.account_id = ${accountId} and c.channel = ${counter}`.execute(this.db);
    const { held, found, ...counters } = rows[0]!;
    return found ? { held, counters } : { held };
  }

  /**
   * Clears the counters under a key (a lockout that has run its time). With `seen` (the counters as
   * the caller read them), only while the row is still as read: a read that went stale meanwhile (a
   * burst, each request resetting after the others' tries or their new lock) clears nothing, and the
   * check's own conditional reservation decides.
   */
  async resetCounters(accountId: string, counter: string, seen?: Counters): Promise<void> {
    let query = this.db
      .updateTable('otp_counters')
      .set({ wrong_tries: 0, unentered_sends: 0, locked_until: null, updated_at: this.clock.now() })
      .where('account_id', '=', accountId)
      .where('channel', '=', counter);
    if (seen) {
      query = query
        .where('wrong_tries', '=', seen.wrong_tries)
        .where('unentered_sends', '=', seen.unentered_sends)
        .where(sql<boolean>`updated_at = ${new Date(seen.updated_at)}`)
        .where(
          seen.locked_until === null
            ? sql<boolean>`locked_until is null`
            : sql<boolean>`locked_until = ${new Date(seen.locked_until)}`,
        );
    }
    await query.execute();
  }

  /** Refuses the channel under a key until `until` (the compared wrong code that reached the limit). */
  async lock(accountId: string, counter: string, until: Date): Promise<void> {
    await this.db
      .updateTable('otp_counters')
      .set({ locked_until: until })
      .where('account_id', '=', accountId)
      .where('channel', '=', counter)
      .execute();
  }

  /**
   * Cancels one issued code whose delivery failed, only while it is still that code: a later send
   * (another journey's, which took the live row's place) keeps its code.
   */
  async revokeIssued(issued: { id: string; codeHash: string }): Promise<void> {
    await this.db
      .updateTable('otp_codes')
      .set({ revoked_at: this.clock.now() })
      .where('id', '=', issued.id)
      .where('code_hash', '=', issued.codeHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Cancels every unused code of the account, channel and purpose (a delivery failed, a lock). */
  async revokeAll(accountId: string, channel: OtpChannelName, purpose: CodePurpose): Promise<void> {
    await this.db
      .updateTable('otp_codes')
      .set({ revoked_at: this.clock.now() })
      .where('account_id', '=', accountId)
      .where('channel', '=', channel)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
