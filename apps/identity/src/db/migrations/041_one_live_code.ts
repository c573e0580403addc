import { type Kysely, sql } from 'kysely';

/**
 * At most one live one-time code per account, channel and purpose (issue 25). A new code replaced
 * the earlier ones by revoking them in the statement that inserted it, but two sends at once each
 * revoked what their own snapshot held and both inserted: a burst of sends left several codes
 * usable, each a target for a guess. Now the row is unique while neither used nor revoked, and a
 * new code takes the live row's place (lib/otp.ts `countAndIssue`). Codes already doubled this way
 * keep only their newest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update otp_codes set revoked_at = now()
    where used_at is null and revoked_at is null
      and exists (select 1 from otp_codes newer
        where newer.account_id = otp_codes.account_id and newer.channel = otp_codes.channel
          and newer.purpose = otp_codes.purpose and newer.used_at is null and newer.revoked_at is null
          and (newer.created_at, newer.id) > (otp_codes.created_at, otp_codes.id))`.execute(db);
  await sql`create unique index otp_codes_one_live on otp_codes (account_id, channel, purpose)
    where used_at is null and revoked_at is null`.execute(db);
}
