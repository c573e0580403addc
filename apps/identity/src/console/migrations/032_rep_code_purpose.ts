import { type Kysely, sql } from 'kysely';

/**
 * What a representative's code is for (docs/decisions/043-recovery-channels.md): `factor`, the
 * sign-in's second factor (the widget's rep page), or `recovery`, the portal's password recovery
 * (portal spec §4 step 6). A code of one never serves the other; each purpose has one live code per
 * customer. Codes issued before this migration were second-factor codes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rep_codes')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('factor'))
    .execute();
  await sql`alter table rep_codes add constraint rep_codes_purpose check (purpose in ('factor', 'recovery'))`.execute(
    db,
  );
  // One live code per customer and purpose (was: per customer).
  await sql`drop index rep_codes_one_live`.execute(db);
  await sql`create unique index rep_codes_one_live on rep_codes (account_id, purpose)
    where used_at is null and revoked_at is null`.execute(db);
}
