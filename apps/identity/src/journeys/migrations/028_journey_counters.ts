import { type Kysely, sql } from 'kysely';

/**
 * A journey's try counts leave its untyped `data` (issue 24; docs/decisions/037): one row per
 * journey and counter in `journey_tries`, an integer, written by JourneyStore only (an upsert that
 * counts only while under the limit). The token's counts in flight move across: `tokenWrong` and
 * `tokenSyncWrong` become the counters 'token-wrong' and 'token-sync-wrong', and leave `data`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('journey_tries')
    .addColumn('journey_id', 'uuid', (c) => c.notNull().references('journeys.id').onDelete('cascade'))
    .addColumn('counter', 'text', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('journey_tries_pkey', ['journey_id', 'counter'])
    .execute();

  for (const [field, counter] of [
    ['tokenWrong', 'token-wrong'],
    ['tokenSyncWrong', 'token-sync-wrong'],
  ] as const) {
    await sql`insert into journey_tries (journey_id, counter, tries)
      select id, ${counter}::text, greatest((data->>${field})::int, 0) from journeys
      where jsonb_typeof(data->${field}) = 'number'`.execute(db);
  }
  await sql`update journeys set data = data - 'tokenWrong' - 'tokenSyncWrong'
    where data ? 'tokenWrong' or data ? 'tokenSyncWrong'`.execute(db);
}
