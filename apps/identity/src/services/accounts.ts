import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Account } from '../db/schema.ts';

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
 * Count first, then decide: the attempt reserves its place in the failure counter with one
 * conditional UPDATE before the hash is compared, so however many attempts arrive at once, at most
 * LOGIN_LOCKOUT_FAILURES of them are compared, and a right password inside a burst that locks the
 * account cannot win. A right password clears the count only if the account is still active; the
 * wrong attempt that reaches the limit locks the account and ends all its sessions. An unknown
 * account gets the same work (`verifyOrBurn`). Accounts that are not active are not counted.
 */
export async function checkPassword(
  ctx: Context,
  account: Account | undefined,
  password: string,
): Promise<PasswordVerdict> {
  if (account?.status !== 'active') {
    return (await ctx.hasher.verifyOrBurn(account?.password_hash, password)) ? 'right' : 'wrong';
  }
  const limit = ctx.config.lockoutFailures;
  const reserved = await ctx.db
    .updateTable('accounts')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1), updated_at: ctx.clock.now() }))
    .where('id', '=', account.id)
    .where('status', '=', 'active')
    .where('failed_logins', '<', limit)
    .returning('failed_logins')
    .executeTakeFirst();
  const correct = await ctx.hasher.verify(account.password_hash, password);
  if (!reserved) return correct ? 'locked' : 'wrong';
  if (correct) {
    const cleared = await ctx.db
      .updateTable('accounts')
      .set({ failed_logins: 0 })
      .where('id', '=', account.id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(cleared.numUpdatedRows) > 0 ? 'right' : 'locked';
  }
  if (reserved.failed_logins < limit) return 'wrong';
  await ctx.db
    .updateTable('accounts')
    .set({ status: 'locked' })
    .where('id', '=', account.id)
    .where('status', '=', 'active')
    .execute();
  await ctx.sessions.endAllForAccount(account.id, 'locked');
  return 'locked';
}
