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
 * One wrong password for an account (password authentication, change username, password update):
 * the failure counter goes up atomically, and the attempt that reaches the lockout limit locks
 * the account and ends all its sessions. Returns true when this attempt locked it.
 */
export async function countFailedPassword(ctx: Context, accountId: string): Promise<boolean> {
  const counted = await ctx.db
    .updateTable('accounts')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1), updated_at: ctx.clock.now() }))
    .where('id', '=', accountId)
    .returning(['failed_logins', 'status'])
    .executeTakeFirstOrThrow();
  if (counted.status !== 'active' || counted.failed_logins < ctx.config.lockoutFailures) return false;
  const locked = await ctx.db
    .updateTable('accounts')
    .set({ status: 'locked' })
    .where('id', '=', accountId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  await ctx.sessions.endAllForAccount(accountId, 'locked');
  return Number(locked.numUpdatedRows) > 0;
}
