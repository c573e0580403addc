import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Account } from '../db/schema.ts';
import { notifyOwner } from '../services/account-security.ts';
import { factors } from './registry.ts';

/**
 * The cumulative cap on second-factor guessing (docs/decisions/033-abuse-limits.md). Each factor's
 * own block (the authenticator app's and the token's TOTP/TOKEN_BLOCK_MINUTES, a one-time-code
 * channel's FACTOR_LOCKOUT_MINUTES) ends by itself, so on its own it only slows a guesser down: the
 * count restarts after each block. Here the blocks themselves are counted per account and factor;
 * the block that reaches FACTOR_BLOCKS_BEFORE_HOLD within FACTOR_HOLD_WINDOW_HOURS holds the factor:
 * every code is refused, uncompared, until a recovery of the account or the console's
 * 'unblock-factors' lifts it, and the owner is told. Rows in factor_holds, so every instance sees them.
 */

/**
 * What is held: a name a module declares in its name table (`names.holds`: the apps' `totp` and
 * `token`, the one-time-code channels `sms`, `voice`, `email`), each counting its own block under
 * `factor:<name>` in otp_counters. A new factor joins by declaring its names, not by editing this file.
 */
export type HoldFactor = string;

/** Every hold name the modules declare. */
const holdFactors = (): string[] => factors().modules.flatMap((m) => m.names.holds ?? []);

/** The otp_counters keys of each factor's own block (lifted with the hold). */
const counterKeys = () => holdFactors().map((f) => `factor:${f}`);

export class FactorHolds {
  constructor(private readonly ctx: Context) {}

  /** Whether the factor is held for the account (refused until lifted). */
  async held(accountId: string, factor: HoldFactor): Promise<boolean> {
    const row = await this.ctx.db
      .selectFrom('factor_holds')
      .select('held_at')
      .where('account_id', '=', accountId)
      .where('factor', '=', factor)
      .where('held_at', 'is not', null)
      .executeTakeFirst();
    return !!row;
  }

  /**
   * A block of the factor was set (called once per block: by the try that reached its limit). One
   * atomic upsert counts it within the window and holds the factor when it reaches the limit; a held
   * factor's row is not touched again, so exactly one call sees the hold begin: that one writes the
   * audit row and tells the owner. True when the factor is held now.
   */
  async blocked(
    request: FastifyRequest,
    account: Pick<Account, 'id' | 'email' | 'language'>,
    factor: HoldFactor,
    journeyId?: string,
  ): Promise<boolean> {
    if (!holdFactors().includes(factor)) throw new Error(`No factor declares the hold ${factor}`);
    const { db, clock, config } = this.ctx;
    const { blocksBeforeHold: max, windowMs } = config.factorHold;
    const now = clock.now();
    const expired = sql<boolean>`factor_holds.window_start + ${windowMs} * interval '1 millisecond' <= ${now}`;
    // The hold and its audit row commit together: a fault between them leaves no hold that was
    // never recorded (nor announced: the notice goes once the hold is committed).
    const row = await db.transaction().execute(async (tx) => {
      const result = await sql<{ blocks: number; held_at: Date | string | null }>`
      insert into factor_holds (account_id, factor, blocks, window_start, held_at)
      values (${account.id}, ${factor}, 1, ${now}, ${max <= 1 ? now : null})
      on conflict (account_id, factor) do update set
        blocks = case when ${expired} then 1 else factor_holds.blocks + 1 end,
        window_start = case when ${expired} then ${now} else factor_holds.window_start end,
        held_at = case when (case when ${expired} then 1 else factor_holds.blocks + 1 end) >= ${max}
          then ${now}::timestamptz else null end
        where factor_holds.held_at is null
      returning blocks, held_at`.execute(tx);
      const row = result.rows[0];
      if (!row?.held_at) return undefined;
      await this.ctx.audit.withDb(tx).record(request, {
        event: 'factor-held',
        outcome: 'failure',
        accountId: account.id,
        journeyId: journeyId ?? null,
        detail: { factor, blocks: row.blocks },
      });
      return row;
    });
    if (!row) return false;
    request.log.warn(
      { account: account.id, factor, blocks: row.blocks },
      'second factor: held after repeated blocks',
    );
    await notifyOwner(this.ctx, request, account, 'factor-held');
    return true;
  }

  /**
   * Lifts every hold of the account (a recovery, the console), on `db` (the caller's transaction),
   * with the counts and the factors' own blocks: the owner starts afresh. The number of factors that
   * were held.
   */
  async liftAll(db: DB, accountId: string): Promise<number> {
    const removed = await db
      .deleteFrom('factor_holds')
      .where('account_id', '=', accountId)
      .returning('held_at')
      .execute();
    const held = removed.filter((r) => r.held_at !== null).length;
    if (held > 0) {
      await db
        .updateTable('otp_counters')
        .set({ wrong_tries: 0, locked_until: null, updated_at: this.ctx.clock.now() })
        .where('account_id', '=', accountId)
        .where('channel', 'in', counterKeys())
        .execute();
    }
    return held;
  }
}
