import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Personal data the password policy checks against (1427, 1473), the enrollment state of
  // the last password set (CREATE: a temporary password was replaced).
  await db.schema
    .alterTable('accounts')
    .addColumn('birth_date', 'date')
    .addColumn('tax_id', 'text')
    .addColumn('password_enrollment_state', 'text')
    .execute();

  // A recovery flow (portal username / one-time code screen, then reset password): a row
  // keyed by the SHA-256 of its GH_RECOVERY cookie, so any instance continues it.
  await db.schema
    .createTable('recovery_flows')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'uuid', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('otp_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('client_ip', 'text')
    .execute();
  await db.schema.createIndex('recovery_flows_account').on('recovery_flows').column('account_id').execute();

  // One-time codes of any channel (email now; sms and voice later): only an HMAC of the code
  // is stored. used_at marks the one accepted use; revoked_at a code replaced or cancelled.
  await db.schema
    .createTable('otp_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('flow_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('otp_codes_account_channel')
    .on('otp_codes')
    .columns(['account_id', 'channel', 'created_at'])
    .execute();

  // Per account and channel: wrong codes and sends since the last correct code. Rows, so the
  // counts hold across resends, restarts and instances.
  await db.schema
    .createTable('otp_counters')
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unentered_sends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('otp_counters_pk', ['account_id', 'channel'])
    .execute();
}
