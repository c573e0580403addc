import { type Kysely, sql } from 'kysely';

/**
 * Journeys as records (docs/decisions/008-journeys-as-records.md): the login transaction, step-up
 * and recovery become rows of one `journeys` table; a session is only ever a signed-in one, and the
 * factors that proved it are rows of `session_factors`. Data in flight moves across: recovery flows
 * keep their ids, login transactions keep their cookie (the token's hash is the browser binding),
 * and codes follow their journey.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('journeys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('session_id', 'text')
    .addColumn('account_id', 'uuid', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('factors', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('client_ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('journeys_account').on('journeys').columns(['account_id', 'kind']).execute();
  await db.schema.createIndex('journeys_expires').on('journeys').column('expires_at').execute();
  // At most one open step-up per signed-in session: concurrent first calls share it.
  await sql`create unique index journeys_open_stepup on journeys (session_id)
    where kind = 'stepup' and state = 'factor'`.execute(db);

  await db.schema
    .createTable('session_factors')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('journey_kind', 'text', (c) => c.notNull())
    .addColumn('journey_id', 'uuid')
    .addColumn('verified_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('session_factors_session')
    .on('session_factors')
    .columns(['session_id', 'kind', 'verified_at'])
    .execute();

  // Recovery flows become recovery journeys with the same ids (their codes point at them).
  await sql`insert into journeys (id, kind, state, token_hash, account_id, created_at, updated_at,
      expires_at, client_ip)
    select id, 'recovery', case when otp_confirmed and state = 'code_sent' then 'confirmed' else state end,
      token_hash, account_id, created_at, created_at, expires_at, client_ip
    from recovery_flows`.execute(db);

  // Login transactions in flight (sessions before sign-in completed) become login journeys bound to
  // the same cookie; their codes follow them.
  await sql`insert into journeys (kind, state, token_hash, account_id, data, created_at, updated_at,
      expires_at, client_ip, user_agent, factors)
    select 'login', state, id, account_id,
      jsonb_build_object('context', context), created_at, last_seen_at,
      least(idle_expires_at, absolute_expires_at), client_ip, user_agent,
      jsonb_build_array(jsonb_build_object('kind', 'password', 'level', 1, 'at', created_at))
    from sessions where state in ('password', 'factor') and ended_at is null`.execute(db);

  // What signed-in sessions recorded: the password, the factor passed at sign-in, the last step-up.
  await sql`insert into session_factors (session_id, kind, level, journey_kind, verified_at)
    select id, 'password', 1, 'login', created_at from sessions where state = 'authenticated'`.execute(db);
  await sql`insert into session_factors (session_id, kind, level, journey_kind, verified_at)
    select id, factor_passed, 2, 'login', created_at from sessions
    where state = 'authenticated' and factor_passed is not null`.execute(db);
  await sql`insert into session_factors (session_id, kind, level, journey_kind, verified_at)
    select id, coalesce(factor_passed, 'UNRECORDED'), 2, 'stepup', stepped_up_at from sessions
    where state = 'authenticated' and stepped_up_at is not null`.execute(db);

  await db.schema
    .alterTable('otp_codes')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('factor'))
    .addColumn('journey_id', 'uuid')
    .execute();
  await sql`update otp_codes set purpose = 'recovery', journey_id = flow_id where session_id is null`.execute(
    db,
  );
  await sql`update otp_codes set journey_id = j.id from journeys j
    where j.kind = 'login' and j.token_hash = otp_codes.session_id`.execute(db);
  await db.schema.alterTable('otp_codes').dropColumn('flow_id').dropColumn('session_id').execute();
  await db.schema.createIndex('otp_codes_journey').on('otp_codes').column('journey_id').execute();
  await db.schema.createIndex('otp_codes_expires').on('otp_codes').column('expires_at').execute();

  await sql`delete from sessions where state <> 'authenticated'`.execute(db);
  await db.schema
    .alterTable('sessions')
    .dropColumn('state')
    .dropColumn('journey')
    .dropColumn('factor_passed')
    .dropColumn('stepped_up_at')
    .execute();
  await db.schema.dropTable('recovery_flows').execute();
}
