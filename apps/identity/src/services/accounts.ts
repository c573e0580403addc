import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Account } from '../db/schema.ts';
import { namedLanguage } from '../lib/language.ts';

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

/**
 * One password attempt for an account (password authentication, change username, password update).
 * Count first, then decide: the attempt holds the account's row (`SELECT … FOR UPDATE`) while it is
 * compared and counted, so the attempts on one account are decided one after another, each seeing
 * every earlier one. A burst therefore gets exactly the sequential answers: at most
 * LOGIN_LOCKOUT_FAILURES wrong ones are compared, the one that reaches the limit locks the account,
 * and a right password after it answers as the lockout, never 1200. Attempts on different accounts
 * go on side by side. A right password clears the count; the lock ends every session of the
 * account. An unknown account gets the same work (`verifyOrBurn`); accounts that are not active
 * are not counted.
 */
export async function checkPassword(
  ctx: Context,
  account: Account | undefined,
  password: string,
  audit: { request: FastifyRequest; purpose: string },
): Promise<PasswordVerdict> {
  const verdict = await decide(ctx, account, password);
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

async function decide(
  ctx: Context,
  account: Account | undefined,
  password: string,
): Promise<PasswordVerdict> {
  if (account?.status !== 'active') {
    return (await ctx.hasher.verifyOrBurn(account?.password_hash, password)) ? 'right' : 'wrong';
  }
  const limit = ctx.config.lockoutFailures;
  const verdict = await ctx.db.transaction().execute(async (tx): Promise<PasswordVerdict> => {
    const row = await tx
      .selectFrom('accounts')
      .select(['status', 'failed_logins', 'password_hash'])
      .where('id', '=', account.id)
      .forUpdate()
      .executeTakeFirst();
    const correct = await ctx.hasher.verifyOrBurn(row?.password_hash, password);
    if (row?.status !== 'active') return correct ? 'locked' : 'wrong';
    const now = ctx.clock.now();
    if (correct) {
      if (row.failed_logins > 0) {
        await tx.updateTable('accounts').set({ failed_logins: 0 }).where('id', '=', account.id).execute();
      }
      return 'right';
    }
    const failures = row.failed_logins + 1;
    await tx
      .updateTable('accounts')
      .set({ failed_logins: failures, updated_at: now, ...(failures >= limit ? { status: 'locked' } : {}) })
      .where('id', '=', account.id)
      .execute();
    return failures >= limit ? 'locked' : 'wrong';
  });
  // Outside the transaction (its handle is the only one PGlite has until it ends).
  if (verdict === 'locked') await ctx.sessions.endAllForAccount(account.id, 'locked');
  return verdict;
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
