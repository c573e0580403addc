import { type Kysely, sql } from 'kysely';

/**
 * The two locks a stranger could chain (issue 22; docs/decisions/034-locks-a-stranger-can-chain.md):
 * - `known_devices`: the browsers (SHA-256 of GH_DEVICE) an account completed a sign-in on. The
 *   password lockout that strangers' failures cause does not refuse them.
 * - `login_failures`: wrong passwords per username (known or not) and client (a known device, or a
 *   client address), since that client's last right one. A known device's own failures count here,
 *   not against the account.
 * - `accounts.locked_by_failures`: the account's lock came from wrong passwords (not from a fraud
 *   report, the console or the seed), so the owner's known device may lift it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('known_devices')
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_devices_pkey', ['account_id', 'device_key'])
    .execute();
  await db.schema
    .createTable('login_failures')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_failures_pkey', ['username_key', 'client'])
    .execute();
  await db.schema
    .createIndex('login_failures_updated_at')
    .on('login_failures')
    .column('updated_at')
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('locked_by_failures', 'boolean', (c) => c.notNull().defaultTo(sql`false`))
    .execute();
}
