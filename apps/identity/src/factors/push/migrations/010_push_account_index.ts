import { type Kysely, sql } from 'kysely';

/**
 * The per-account push limit (PUSH_ACCOUNT_MAX per PUSH_ACCOUNT_WINDOW_MINUTES, decision 022) counts
 * an account's recent pushes on every send.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index push_transactions_account on push_transactions (account_id, created_at)`.execute(db);
}
