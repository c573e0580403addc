import { type Kysely, sql } from 'kysely';

/**
 * The portal's security page (docs/decisions/025-security-page-api.md):
 * - sessions get a public id (what the page names a session by: never its token or the token's
 *   hash); a step-up's rotation carries it to the new row;
 * - trusted devices get the browser's user agent, address and last use;
 * - audit events get the user agent (the page's activity shows browser and OS);
 * - security_confirmations: a pending authenticator app (its secret encrypted under the credential
 *   cipher) or a new phone or e-mail address (the HMAC of the code sent to it), with its wrong tries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
  await sql`update sessions set public_id = gen_random_uuid()::text where public_id is null`.execute(db);
  await db.schema.createIndex('sessions_public_id').on('sessions').column('public_id').execute();
  await db.schema
    .createIndex('sessions_account_live')
    .on('sessions')
    .columns(['account_id', 'ended_at'])
    .execute();

  await db.schema
    .alterTable('trusted_devices')
    .addColumn('user_agent', 'text')
    .addColumn('client_ip', 'text')
    .addColumn('last_used_at', 'timestamptz')
    .execute();

  await db.schema.alterTable('audit_events').addColumn('user_agent', 'text').execute();

  await db.schema
    .createTable('security_confirmations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // totp | phone | email
    .addColumn('kind', 'text', (c) => c.notNull())
    // phone: the national number; email: the address; totp: null.
    .addColumn('value', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // totp: the pending secret, sealed by the credential cipher (never the secret itself).
    .addColumn('secret', 'bytea')
    .addColumn('secret_key_id', 'text')
    // phone, email: HMAC of the code sent (lib/otp.ts codeHash).
    .addColumn('code_hash', 'text')
    .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    // Set once: confirmed (the credential was added) or ended (too many wrong codes).
    .addColumn('completed_at', 'timestamptz')
    .addColumn('outcome', 'text')
    .execute();
  await db.schema
    .createIndex('security_confirmations_account')
    .on('security_confirmations')
    .columns(['account_id', 'created_at'])
    .execute();
}
