import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { deleteExpiredPayloads } from '../oidc/adapter.ts';

/** What has run its time is kept this long after, for support and investigations. */
const GRACE_MS = 24 * 3600_000;

/**
 * Deletes what has run its time (CLEANUP_INTERVAL_MINUTES): journeys and one-time codes a day past
 * their expiry, sessions a day after they ended or expired (their factors go with them), trusted
 * devices past their expiry, the security page's pending additions a day past their expiry,
 * wrong-password counts a day after their last failure,
 * finished rate-limit windows, audit rows past AUDIT_RETENTION_DAYS.
 * Every delete is idempotent, so any number of instances may run it at once.
 */
export async function cleanUp(ctx: Context): Promise<Record<string, number>> {
  const { db, clock, config } = ctx;
  const now = clock.now();
  const before = new Date(now.getTime() - GRACE_MS);
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const journeys = await ctx.journeys.deleteExpired(before);
  const codes = await db.deleteFrom('otp_codes').where('expires_at', '<', before).executeTakeFirst();
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('ended_at', '<', before),
        eb('absolute_expires_at', '<', before),
        eb('idle_expires_at', '<', before),
      ]),
    )
    .executeTakeFirst();
  // The security page's pending authenticator apps and contacts (security/confirmations.ts): an
  // expired one's secret is wiped at once (red-team finding 1), the row a day later.
  await db
    .updateTable('security_confirmations')
    .set({ secret: null, secret_key_id: null, code_hash: null })
    .where('expires_at', '<', now)
    .where('secret', 'is not', null)
    .execute();
  const confirmations = await db
    .deleteFrom('security_confirmations')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  const devices = await db.deleteFrom('trusted_devices').where('expires_at', '<', now).executeTakeFirst();
  // Wrong-password counts per username and client (decision 034): a day after the last one.
  await db.deleteFrom('login_failures').where('updated_at', '<', before).execute();
  const windows = await sql`delete from rate_limits
    where window_start + (window_ms * interval '1 millisecond') < ${now}`.execute(db);
  const repCodes = await db.deleteFrom('rep_codes').where('expires_at', '<', before).executeTakeFirst();
  const staffSessions = await db
    .deleteFrom('staff_sessions')
    .where((eb) =>
      eb.or([
        eb('ended_at', '<', before),
        eb('absolute_expires_at', '<', before),
        eb('idle_expires_at', '<', before),
      ]),
    )
    .executeTakeFirst();
  const audit = await ctx.audit.prune(config.auditRetentionMs);
  // The OpenID Provider's expired rows (its expiries are on the wall clock, as the provider's are).
  const oidc = await deleteExpiredPayloads(db, new Date());
  return {
    journeys,
    codes: count(codes) + count(repCodes),
    staffSessions: count(staffSessions),
    sessions: count(sessions),
    trustedDevices: count(devices),
    securityConfirmations: count(confirmations),
    rateLimits: Number(windows.numAffectedRows ?? 0n),
    audit,
    oidc,
  };
}

/** Runs the clean-up every CLEANUP_INTERVAL_MINUTES while the app lives (not at all when 0). */
export function scheduleCleanUp(ctx: Context, log: (fields: object, message: string) => void): () => void {
  if (ctx.config.cleanupIntervalMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const deleted = await cleanUp(ctx);
      if (Object.values(deleted).some((n) => n > 0)) log({ deleted }, 'clean-up');
    } catch (error) {
      log({ reason: error instanceof Error ? error.message : 'unknown' }, 'clean-up failed');
    } finally {
      running = false;
    }
  }, ctx.config.cleanupIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
