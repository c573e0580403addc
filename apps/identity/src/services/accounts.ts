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
