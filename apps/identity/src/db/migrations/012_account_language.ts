import { type Kysely, sql } from 'kysely';

/**
 * The customer's language (docs/decisions/029-languages.md): set from the language the customer
 * used when signing in or recovering the account, read when e-mails, texts and calls go out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('language', 'text', (column) =>
      column.notNull().defaultTo('en').check(sql`language in ('en', 'es')`),
    )
    .execute();
}
