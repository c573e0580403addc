import { type Kysely, sql } from 'kysely';

/**
 * What a journey row may hold, said by the database (issue 24; docs/decisions/037): its kind is one
 * of login, stepup, recovery; its state one of its kind's (JourneysTable); a try count is never
 * below 0. A write outside the store's vocabulary fails with 23514 instead of leaving a journey no
 * step can move.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table journeys add constraint journeys_kind
    check (kind in ('login', 'stepup', 'recovery'))`.execute(db);
  await sql`alter table journeys add constraint journeys_state check (
    (kind = 'login' and state in ('password', 'factor', 'completed', 'failed', 'ended', 'expired'))
    or (kind = 'stepup' and state in ('factor', 'completed', 'ended', 'expired'))
    or (kind = 'recovery' and state in ('identified', 'code_sent', 'confirmed', 'consumed', 'ended', 'expired'))
  )`.execute(db);
  await sql`alter table journey_tries add constraint journey_tries_not_negative check (tries >= 0)`.execute(
    db,
  );
}
