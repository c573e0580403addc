import { type Kysely, sql } from 'kysely';

/**
 * The representative console (docs/decisions/028-representative-console.md): staff members (their
 * own accounts, apart from customers'), their sessions, and the temporary security codes they issue.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    /** representative | supervisor */
    .addColumn('role', 'text', (c) => c.notNull())
    /** argon2id, as customers' passwords. */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    /** The authenticator app's secret: AES-256-GCM under the credential keys (decision 021). */
    .addColumn('totp_secret', 'bytea', (c) => c.notNull())
    .addColumn('totp_key_id', 'text', (c) => c.notNull())
    /** The last accepted RFC 6238 time step: a code is never accepted twice. */
    .addColumn('totp_last_step', 'bigint')
    /** The staff member's own customer account (its username key), on which they may not act. */
    .addColumn('customer_username_key', 'text')
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    /** active | disabled */
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_sessions')
    /** SHA-256 of the token; the token lives only in the HttpOnly cookie. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'uuid', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    /** factor: password right, authenticator code due | active: signed in */
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('idle_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text')
    .addColumn('client_ip', 'text')
    .execute();
  await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').column('staff_id').execute();

  await db.schema
    .createTable('rep_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('staff_id', 'uuid', (c) => c.references('staff.id').onDelete('set null'))
    /** HMAC-SHA-256 under the OTP pepper over account, channel 'rep' and code (lib/otp.ts codeHash). */
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // At most one live code per customer, whatever the races: issuing revokes the old one first.
  await sql`create unique index rep_codes_one_live on rep_codes (account_id)
    where used_at is null and revoked_at is null`.execute(db);
}
