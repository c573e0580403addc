import { type Kysely, sql } from 'kysely';

/**
 * The audit trail: one row per security event, kept AUDIT_RETENTION_DAYS. No foreign key to the
 * account: the trail outlives what it describes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('account_id', 'uuid')
    .addColumn('journey_id', 'uuid')
    .addColumn('client_ip', 'text')
    .addColumn('request_id', 'text')
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema
    .createIndex('audit_events_account')
    .on('audit_events')
    .columns(['account_id', 'at'])
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
  await db.schema.createIndex('audit_events_event').on('audit_events').columns(['event', 'at']).execute();
}
