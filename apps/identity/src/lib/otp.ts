import { randomInt } from 'node:crypto';
import { limits } from '@gatehouse/contract';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Clock } from './clock.ts';
import { hmac } from './crypto.ts';

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
 * What is stored for a code: an HMAC-SHA-256 under the server's pepper, over the account, the
 * channel and the code, so a stolen table gives neither the codes nor a way to try them offline
 * without the pepper, and one account's code never matches another's row.
 */
export function codeHash(pepper: string, accountId: string, channel: string, code: string): string {
  return hmac(pepper, `${accountId}|${channel}|${code}`);
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
  | { outcome: 'busy' };

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

  private hash(accountId: string, channel: string, code: string) {
    return codeHash(this.config.otp.pepper, accountId, channel, code);
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

  /** Issues a new code: earlier unused codes of the account and channel stop working. */
  async issue(input: {
    accountId: string;
    channel: OtpChannelName;
    recipient: string;
    /** factor: a second factor (login or step-up); recovery: account recovery. */
    purpose: CodePurpose;
    /** Only this journey may use the code. */
    journeyId: string;
  }): Promise<{ code: string; expiresAt: Date }> {
    const now = this.clock.now();
    const code = newCode();
    const expiresAt = new Date(now.getTime() + this.config.otp.expiryMs);
    await this.db.transaction().execute(async (tx) => {
      // A new code replaces the earlier ones of its kind: second-factor codes replace
      // second-factor codes, recovery codes recovery codes.
      await tx
        .updateTable('otp_codes')
        .set({ revoked_at: now })
        .where('account_id', '=', input.accountId)
        .where('channel', '=', input.channel)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('purpose', '=', input.purpose)
        .execute();
      await tx
        .insertInto('otp_codes')
        .values({
          account_id: input.accountId,
          channel: input.channel,
          recipient: input.recipient,
          code_hash: this.hash(input.accountId, input.channel, code),
          purpose: input.purpose,
          journey_id: input.journeyId,
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
    });
    return { code, expiresAt };
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
   * the right code submitted again (a double submit) gives its try back.
   */
  async check(input: {
    accountId: string;
    channel: OtpChannelName;
    code: string;
    purpose: CodePurpose;
    /** Only a code sent for this journey matches. */
    journeyId: string;
    /** The counters' key (default: the channel); see factorCounter. */
    counter?: string;
    /** Default OTP_MAX_WRONG_TRIES. */
    maxWrongTries?: number;
  }): Promise<CheckResult> {
    const { accountId, channel } = input;
    const counter = input.counter ?? channel;
    const max = input.maxWrongTries ?? this.config.otp.maxWrongTries;
    const now = this.clock.now();

    const reserved = await sql<{ wrong_tries: number }>`
      insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at)
      values (${accountId}, ${counter}, 1, 0, ${now})
      on conflict (account_id, channel) do update set
        wrong_tries = otp_counters.wrong_tries + 1, updated_at = ${now}
        where otp_counters.wrong_tries < ${max}
      returning wrong_tries`.execute(this.db);
    const tries = reserved.rows[0]?.wrong_tries;
    if (tries === undefined) return { outcome: 'busy' };

    const hash = this.hash(accountId, channel, input.code);
    const accept = this.db
      .updateTable('otp_codes')
      .set({ used_at: now })
      .where('account_id', '=', accountId)
      .where('channel', '=', channel)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('purpose', '=', input.purpose)
      .where('journey_id', '=', input.journeyId);
    const accepted = await accept.returning('id').executeTakeFirst();
    if (accepted) {
      await this.db
        .updateTable('otp_counters')
        .set({ wrong_tries: 0, unentered_sends: 0, updated_at: now })
        .where('account_id', '=', accountId)
        .where('channel', '=', counter)
        .execute();
      return { outcome: 'accepted' };
    }

    // The right code, already used (a double submit, or the losers of a race): not a guess.
    const used = await this.db
      .selectFrom('otp_codes')
      .select('id')
      .where('account_id', '=', accountId)
      .where('channel', '=', channel)
      .where('code_hash', '=', hash)
      .where('used_at', 'is not', null)
      .where('expires_at', '>', now)
      .where('purpose', '=', input.purpose)
      .where('journey_id', '=', input.journeyId)
      .executeTakeFirst();
    if (used) {
      await sql`update otp_counters set wrong_tries = greatest(wrong_tries - 1, 0)
        where account_id = ${accountId} and channel = ${counter}`.execute(this.db);
      return { outcome: 'used' };
    }
    return { outcome: 'wrong', wrongTries: tries, exhausted: tries >= max };
  }

  /** The counters of an account under a key (see factorCounter), or undefined when none. */
  async counters(accountId: string, counter: string) {
    return this.db
      .selectFrom('otp_counters')
      .select(['wrong_tries', 'unentered_sends', 'updated_at', 'locked_until'])
      .where('account_id', '=', accountId)
      .where('channel', '=', counter)
      .executeTakeFirst();
  }

  /** Clears the counters under a key (a lockout that has run its time). */
  async resetCounters(accountId: string, counter: string): Promise<void> {
    await this.db
      .updateTable('otp_counters')
      .set({ wrong_tries: 0, unentered_sends: 0, locked_until: null, updated_at: this.clock.now() })
      .where('account_id', '=', accountId)
      .where('channel', '=', counter)
      .execute();
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
