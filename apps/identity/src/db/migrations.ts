import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';

/**
 * One schema for PGlite and PostgreSQL. Migrations are code, run in order at start and by
 * `npm run migrate`; Kysely's migrator takes a lock, so concurrent starts are safe.
 */
const migrations: Record<string, Migration> = {
  '001_foundation': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('username_key', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('password_changed_at', 'timestamptz', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('password_state', 'text', (c) => c.notNull().defaultTo('ok'))
        .addColumn('require_username_update', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('maintenance', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('second_factor', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('prohibited', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();

      await db.schema
        .createTable('password_history')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('password_history_account')
        .on('password_history')
        .columns(['account_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('contacts')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('country_code', 'text')
        .addColumn('voice', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('added_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('contacts_account').on('contacts').column('account_id').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('journey', 'text', (c) => c.notNull().defaultTo('LOGIN'))
        .addColumn('context', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
        .addColumn('idle_expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('absolute_expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('ended_at', 'timestamptz')
        .addColumn('end_reason', 'text')
        .addColumn('client_ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('window_start', 'timestamptz', (c) => c.notNull())
        .addColumn('window_ms', 'integer', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('outbox_recipient')
        .on('outbox')
        .columns(['recipient', 'sent_at'])
        .execute();
    },
  },
  '002_remembered_usernames': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '003_recovery': {
    async up(db: Kysely<unknown>) {
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
      await db.schema
        .createIndex('recovery_flows_account')
        .on('recovery_flows')
        .column('account_id')
        .execute();

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
    },
  },
  '004_factors': {
    async up(db: Kysely<unknown>) {
      // The second factor a session passed at sign-in (OTP-SMS, ..., TRUSTED-DEVICE; null: none was
      // due) and when it last proved a factor again (step-up).
      await db.schema
        .alterTable('sessions')
        .addColumn('factor_passed', 'text')
        .addColumn('stepped_up_at', 'timestamptz')
        .execute();

      // A second-factor code belongs to the session (login transaction or signed-in session) it
      // was sent for: another transaction cannot use it. Recovery codes have flow_id instead.
      await db.schema.alterTable('otp_codes').addColumn('session_id', 'text').execute();

      // Devices that skip the second factor at sign-in: the SHA-256 of the GH_DEVICE cookie, per
      // account, until expires_at.
      await db.schema
        .createTable('trusted_devices')
        .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
        .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('device_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addUniqueConstraint('trusted_devices_account_device', ['account_id', 'device_key'])
        .execute();
    },
  },
  '005_recovery_lock': {
    async up(db: Kysely<unknown>) {
      // A stranger's sends or wrong codes lock the recovery channel for a while, never the
      // account: the lock lives on the recovery counters.
      await db.schema.alterTable('otp_counters').addColumn('locked_until', 'timestamptz').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Kysely<unknown>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: a
  // kysely_migration table of another schema (another application, a parallel test run) would
  // count as ours. Pin them to the schema our tables go to (search_path's first, usually public).
  const current = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = current.rows[0]?.schema ?? undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
