import { type Kysely, sql } from 'kysely';

/**
 * One credential model per account (decision 021): phones and e-mail addresses (the contacts table
 * until now), and the authenticator app, the token and the push device to come. Today's contacts
 * move in with their ids kept (the widget addresses a contact by its id) and their added time as
 * the creation time (the wait of a new contact, widget spec §5, counts from it); then the contacts
 * table goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credentials')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_part', 'text')
    // AES-256-GCM: version | IV | ciphertext | tag, and the id of the key it is under; both or neither.
    .addColumn('secret', 'bytea')
    .addColumn('secret_key_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .addCheckConstraint('credentials_secret_key', sql`(secret is null) = (secret_key_id is null)`)
    .execute();
  await db.schema
    .createIndex('credentials_account_kind')
    .on('credentials')
    .columns(['account_id', 'kind'])
    .execute();

  await sql`
    insert into credentials (id, account_id, kind, name, public_part, data, created_at)
    select id, account_id, kind,
           case kind when 'phone' then 'Phone' when 'email' then 'E-mail' else kind end,
           value,
           case kind
             when 'phone' then jsonb_build_object('countryCode', country_code, 'voice', voice)
             else '{}'::jsonb
           end,
           added_at
    from contacts`.execute(db);
  await db.schema.dropTable('contacts').execute();
}
