import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A stranger's sends or wrong codes lock the recovery channel for a while, never the
  // account: the lock lives on the recovery counters.
  await db.schema.alterTable('otp_counters').addColumn('locked_until', 'timestamptz').execute();
}
