import type { Kysely } from 'kysely';

/**
 * Console actions in the audit trail name the staff member who acted (staff_id), so a supervisor
 * filters by it and a representative sees only their own rows. No foreign key: the trail outlives
 * what it describes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('staff_id', 'uuid').execute();
  await db.schema.createIndex('audit_events_staff').on('audit_events').columns(['staff_id', 'at']).execute();
}
