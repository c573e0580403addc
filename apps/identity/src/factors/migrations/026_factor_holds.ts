import type { Kysely } from 'kysely';

/**
 * Blocks of a second factor counted per account (docs/decisions/033-abuse-limits.md): `blocks`
 * since `window_start` (FACTOR_HOLD_WINDOW_HOURS); the block that reaches FACTOR_BLOCKS_BEFORE_HOLD
 * sets `held_at`, and the factor stays refused until a recovery or the console lifts it (the row goes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('factor_holds')
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('factor', 'text', (c) => c.notNull())
    .addColumn('blocks', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('held_at', 'timestamptz')
    .addPrimaryKeyConstraint('factor_holds_pk', ['account_id', 'factor'])
    .execute();
}
