import { type Kysely, sql } from 'kysely';

/**
 * Server-owned push text and typed number matching (docs/decisions/032-server-owned-push-text.md).
 *
 * A push's content is the server's alone from here on: the browser and system its parser reads from
 * the send's User-Agent, the push's own time, the host the send came from and the journey kind of its
 * journey row. Rows written before held the caller's browserName, osName and journey: those are
 * cleared (an empty name shows as 'Unknown' on the device) and the journey is taken from the row it
 * belongs to, so no past push in a device's history still shows a caller's words.
 *
 * The device no longer gets choices to pick from (the customer types the number the sign-in screen
 * shows), so the column of the three choices goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update push_transactions as p
    set content = jsonb_build_object(
      'browserName', '',
      'osName', '',
      'time', coalesce(p.content->>'time', ''),
      'host', coalesce(p.content->>'host', ''),
      'journey', case when j.kind = 'stepup' then 'STEPUP' else 'LOGIN' end
    )
    from journeys as j
    where j.id = p.journey_id
  `.execute(db);
  await db.schema.alterTable('push_transactions').dropColumn('numbers').execute();
}
