import { type Kysely, sql } from 'kysely';

/**
 * `accounts.locked_by_fraud` (issue 26): the account's lock came from a push its owner's device
 * reported as fraud (PUSH_FRAUD_LOCKS_ACCOUNT), so the sign-in says so and names recovery as the
 * way out, instead of the wrong-password lockout's "too many login attempts" (password
 * authentication 1206, docs/api.md). Whatever lifts the lock clears it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('locked_by_fraud', 'boolean', (c) => c.notNull().defaultTo(sql`false`))
    .execute();
}
