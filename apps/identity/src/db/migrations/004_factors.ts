import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
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
}
