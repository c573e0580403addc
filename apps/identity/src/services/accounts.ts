import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Account } from '../db/schema.ts';
import { namedLanguage } from '../lib/language.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { deviceKey } from './cookies.ts';

/** Usernames are matched case-insensitively; the key is what the unique index holds. */
export const usernameKey = (username: string): string => username.trim().toLowerCase();

export async function findAccount(db: DB, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
}

export async function findAccountById(db: DB, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * What a password attempt decided: right, wrong, or `locked` (this attempt reached the lockout, or
 * the account was locked or about to be by attempts in flight: the answer is the lockout's).
 */
export type PasswordVerdict = 'right' | 'wrong' | 'locked';

/** The id no account has: an unknown username's statements look for it and find nothing. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/**
 * One password attempt for an account (password authentication, change username, password update).
 * Count first, then decide: the attempt holds the account's row (`SELECT … FOR UPDATE`) while it is
 * compared and counted, so the attempts on one account are decided one after another, each seeing
 * every earlier one. A burst therefore gets exactly the sequential answers: at most
 * LOGIN_LOCKOUT_FAILURES wrong ones are compared, the one that reaches the limit locks the account,
 * and a right password after it answers as the lockout, never 1200. Attempts on different accounts
 * go on side by side. A right password clears the count; the lock ends every session of the
 * account.
 *
 * The lock strangers cause does not hold for the owner's own browser (docs/decisions/034): at
 * sign-in, a browser this account completed a sign-in on (known_devices) is a client of its own.
 * Its wrong passwords count on its own row of login_failures, never against the account (at
 * LOGIN_LOCKOUT_FAILURES of them it is no longer known); its right password signs in through a lock
 * that wrong passwords caused, and lifts it at once.
 *
 * An unknown username does the same work as a known one (issue 22 finding 8, the timing of the
 * password step): the same statements in one transaction (the account's row, the known device,
 * the client's count, the account's count; each finds no account), and an argon2id compare against
 * a dummy hash of the same parameters (`verifyOrBurn`).
 */
export async function checkPassword(
  ctx: Context,
  account: Account | undefined,
  password: string,
  audit: { request: FastifyRequest; purpose: string; username?: string },
): Promise<PasswordVerdict> {
  const key = usernameKey(audit.username ?? account?.username ?? '');
  const verdict = await decide(ctx, key, account, password, audit.request, audit.purpose === 'sign-in');
  if (verdict !== 'right') {
    // A wrong password is a failed sign-in (or a failed proof in a change); the one that locks the
    // account is the lockout.
    await ctx.audit.record(audit.request, {
      event: verdict === 'locked' ? 'lockout' : 'sign-in-failed',
      outcome: 'failure',
      accountId: account?.id,
      detail: { reason: account ? 'wrong password' : 'unknown username', during: audit.purpose },
    });
  }
  return verdict;
}

/**
 * Whether a lock came from wrong passwords: the flag, and the count still at the lockout. Whatever
 * unlocks an account (support, a password reset) clears the count, so a later lock for another
 * reason (a fraud report) is never taken for one that the owner's browser may lift.
 */
const lockedByFailures = (
  row: Pick<Account, 'status' | 'locked_by_failures' | 'failed_logins'>,
  limit: number,
): boolean => row.status === 'locked' && row.locked_by_failures && row.failed_logins >= limit;

async function decide(
  ctx: Context,
  key: string,
  account: Account | undefined,
  password: string,
  request: FastifyRequest,
  atSignIn: boolean,
): Promise<PasswordVerdict> {
  const limit = ctx.config.lockoutFailures;
  if (account && account.status !== 'active' && !(atSignIn && lockedByFailures(account, limit))) {
    // Blocked, closed, or locked by a fraud report, the console or support: no count, no way round.
    return (await ctx.hasher.verifyOrBurn(account.password_hash, password)) ? 'right' : 'wrong';
  }
  const device = atSignIn ? deviceKey(ctx, request) : undefined;
  const address = `address:${clientKey(request.ip)}`;
  const outcome = await ctx.db
    .transaction()
    .execute(async (tx): Promise<{ verdict: PasswordVerdict; lifted?: boolean; endSessions?: boolean }> => {
      const row = await tx
        .selectFrom('accounts')
        .select(['id', 'status', 'failed_logins', 'password_hash', 'locked_by_failures'])
        .where('username_key', '=', key)
        .forUpdate()
        .executeTakeFirst();
      const known = await tx
        .selectFrom('known_devices')
        .select('device_key')
        .where('account_id', '=', row?.id ?? NO_ACCOUNT)
        .where('device_key', '=', device ?? '')
        .executeTakeFirst();
      const client = known ? `device:${device}` : address;
      const correct = await ctx.hasher.verifyOrBurn(row?.password_hash, password);
      const now = ctx.clock.now();
      if (row && row.status !== 'active' && !(known && lockedByFailures(row, limit))) {
        return { verdict: correct ? 'locked' : 'wrong', endSessions: correct };
      }
      if (row && correct) {
        await tx
          .deleteFrom('login_failures')
          .where('username_key', '=', key)
          .where('client', '=', client)
          .execute();
        const lifted = row.status !== 'active';
        if (row.failed_logins > 0 || lifted) {
          await tx
            .updateTable('accounts')
            .set({ failed_logins: 0, status: 'active', locked_by_failures: false, updated_at: now })
            .where('id', '=', row.id)
            .execute();
        }
        return { verdict: 'right', lifted };
      }
      // Wrong (or no such account): this client's count...
      const counted = await sql<{ failures: number }>`
        insert into login_failures (username_key, client, failures, updated_at)
        values (${key}, ${client}, 1, ${now})
        on conflict (username_key, client) do update
          set failures = login_failures.failures + 1, updated_at = ${now}
        returning failures`.execute(tx);
      if (known) {
        // The owner's browser guessing: its own count, never the account's. At the limit it is
        // no longer known, and its next wrong passwords count against the account like any other.
        if (counted.rows[0]!.failures >= limit) {
          await tx
            .deleteFrom('known_devices')
            .where('account_id', '=', row!.id)
            .where('device_key', '=', device!)
            .execute();
          await tx
            .deleteFrom('login_failures')
            .where('username_key', '=', key)
            .where('client', '=', client)
            .execute();
        }
        return { verdict: 'wrong' };
      }
      // ...and the account's (an unknown username's update finds no row).
      const updated = await tx
        .updateTable('accounts')
        .set({
          failed_logins: sql`failed_logins + 1`,
          status: sql`case when failed_logins + 1 >= ${limit} then 'locked' else status end`,
          locked_by_failures: sql`failed_logins + 1 >= ${limit}`,
          updated_at: now,
        })
        .where('username_key', '=', key)
        .where('status', '=', 'active')
        .returning('failed_logins')
        .executeTakeFirst();
      const locked = !!updated && updated.failed_logins >= limit;
      return { verdict: locked ? 'locked' : 'wrong', endSessions: locked };
    });
  // Outside the transaction (its handle is the only one PGlite has until it ends).
  if (outcome.endSessions && account) await ctx.sessions.endAllForAccount(account.id, 'locked');
  if (outcome.lifted && account) {
    // The owner's own browser lifted a lock that wrong passwords caused: the caller sees the
    // account as it now is.
    account.status = 'active';
    account.failed_logins = 0;
    account.locked_by_failures = false;
    await ctx.audit.record(request, {
      event: 'lock-lifted',
      outcome: 'success',
      accountId: account.id,
      detail: { lock: 'password', by: 'known device' },
    });
  }
  return outcome.verdict;
}

/**
 * After a completed sign-in (engine.signIn): the browser is now a known device of the account, and
 * a recovery lock that strangers caused (recovery.ts) is lifted at once: the owner has just proved
 * who they are with every factor the sign-in asked for (docs/decisions/034).
 */
export async function afterSignIn(ctx: Context, request: FastifyRequest, accountId: string): Promise<void> {
  const now = ctx.clock.now();
  const device = deviceKey(ctx, request);
  if (device) {
    await ctx.db
      .insertInto('known_devices')
      .values({ account_id: accountId, device_key: device, last_sign_in_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'device_key']).doUpdateSet({ last_sign_in_at: now }))
      .execute();
  }
  const lifted = await ctx.db
    .updateTable('otp_counters')
    .set({ wrong_tries: 0, unentered_sends: 0, locked_until: null, updated_at: now })
    .where('account_id', '=', accountId)
    .where('channel', '=', 'email')
    .where('locked_until', '>', now)
    .executeTakeFirst();
  if (Number(lifted.numUpdatedRows) > 0) {
    await ctx.audit.record(request, {
      event: 'lock-lifted',
      outcome: 'success',
      accountId,
      detail: { lock: 'recovery', by: 'sign-in' },
    });
  }
}

/**
 * Keeps on the account the language its owner signs in with (the request's Accept-Language, as
 * the client sends the language its page shows), for the e-mails, texts and calls that follow. A
 * request that names no language changes nothing, and only a proven owner sets it: a stranger who
 * starts a recovery does not (docs/decisions/029-languages.md).
 */
export async function keepLanguage(db: DB, request: FastifyRequest, account: Account): Promise<void> {
  const language = namedLanguage(request);
  if (!language || language === account.language) return;
  await db.updateTable('accounts').set({ language }).where('id', '=', account.id).execute();
  account.language = language;
}
