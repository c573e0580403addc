import { type Kysely, sql } from 'kysely';

/**
 * Push transactions (docs/decisions/022-push-and-device.md): one row per push, bound to the journey
 * that sent it (a login journey or a session's step-up journey) and to the device credential it went
 * to. Every change of status is one conditional UPDATE (`WHERE status = 'PENDING' AND expires_at >
 * now`). A removed device takes its pushes with it (the cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('journey_id', 'uuid', (c) => c.notNull().references('journeys.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('credential_id', 'uuid', (c) => c.notNull().references('credentials.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull())
    // PENDING | APPROVED | DECLINED | FRAUD | WRONG_NUMBER | EXPIRED
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('numbers', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('answered_at', 'timestamptz')
    // The RFC 7638 thumbprint of the key that signed the answer.
    .addColumn('answer_key', 'text')
    // When an approval completed its journey (the poll that signed in or stepped up).
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('push_transactions_journey')
    .on('push_transactions')
    .column('journey_id')
    .execute();
  await db.schema
    .createIndex('push_transactions_credential')
    .on('push_transactions')
    .columns(['credential_id', 'created_at'])
    .execute();
  // Push devices are found by their key's thumbprint.
  await sql`create index credentials_push_thumbprint on credentials ((data->>'thumbprint')) where kind = 'push'`.execute(
    db,
  );
}
