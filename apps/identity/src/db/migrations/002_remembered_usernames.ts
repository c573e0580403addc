import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Saved usernames per device: the device is the SHA-256 of its GH_DEVICE cookie; the entry
  // names the account, so it follows a username change.
  await db.schema
    .createTable('remembered_usernames')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('remembered_usernames_device_account', ['device_key', 'account_id'])
    .execute();
  await db.schema
    .createIndex('remembered_usernames_device')
    .on('remembered_usernames')
    .columns(['device_key', 'last_used_at'])
    .execute();
  await db.schema
    .createIndex('remembered_usernames_account')
    .on('remembered_usernames')
    .column('account_id')
    .execute();
}
