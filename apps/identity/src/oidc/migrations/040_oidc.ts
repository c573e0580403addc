import { type Kysely, sql } from 'kysely';

/**
 * The OpenID Provider's storage (oidc/adapter.ts; decision 048): every model oidc-provider keeps
 * (sessions, interactions, grants, codes, access and refresh tokens, ...) is a row of
 * `oidc_payloads`, keyed by model and id, with the indexes its adapter interface looks up by (grant,
 * session uid, user code), its expiry and the time it was consumed (set once, by a conditional
 * UPDATE: a code or refresh token is consumed by one request only). `oidc_signing_keys`: the
 * development signing key, made once and shared by every instance (production takes its keys from
 * OIDC_SIGNING_KEYS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_payloads')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').columns(['model', 'uid']).execute();
  await db.schema
    .createIndex('oidc_payloads_user_code')
    .on('oidc_payloads')
    .columns(['model', 'user_code'])
    .execute();
  await db.schema.createIndex('oidc_payloads_expiry').on('oidc_payloads').column('expires_at').execute();

  await db.schema
    .createTable('oidc_signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('jwk', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
