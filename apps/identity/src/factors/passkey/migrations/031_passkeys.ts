import { type Kysely, sql } from 'kysely';

/**
 * Passkey challenges (docs/decisions/041-passkeys.md): one row per WebAuthn challenge the service
 * issued, and per proof of the login screen's conditional mediation. Each is single use (consumed by
 * one conditional UPDATE … WHERE used_at IS NULL AND expires_at > now RETURNING) and bound to what
 * asked for it: a journey (sign-in or step-up), a signed-in session (registration on the security
 * page) or a browser (the HttpOnly passkey_login cookie's hash). The passkeys themselves are
 * credentials (kind passkey) of the credential store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // journey (options at sign-in / step-up), register (security page), login (conditional
    // mediation, before the password), proof (login-assertion's result, for the login journey).
    .addColumn('purpose', 'text', (c) => c.notNull())
    // The base64url challenge the browser signs (none for a proof).
    .addColumn('challenge', 'text')
    // What it is bound to: `journey:<id>`, `session:<id>` or `browser:<sha256 of the cookie>`.
    .addColumn('binding', 'text', (c) => c.notNull())
    .addColumn('account_id', 'uuid', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('credential_id', 'uuid', (c) => c.references('credentials.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addCheckConstraint(
      'passkey_challenges_purpose',
      sql`purpose in ('journey', 'register', 'login', 'proof')`,
    )
    .execute();
  await db.schema
    .createIndex('passkey_challenges_challenge')
    .unique()
    .on('passkey_challenges')
    .column('challenge')
    .execute();
  await db.schema
    .createIndex('passkey_challenges_expires')
    .on('passkey_challenges')
    .column('expires_at')
    .execute();
  // A passkey is found by its credential ID (the credential's public part) across accounts.
  await sql`create unique index credentials_passkey_id on credentials (public_part) where kind = 'passkey'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists credentials_passkey_id`.execute(db);
  await db.schema.dropTable('passkey_challenges').execute();
}
