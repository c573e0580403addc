import type { FastifyRequest } from 'fastify';
import type { DB } from '../db/database.ts';
import { loadFactors } from '../factors/registry.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * The audit trail (docs/operations.md "Audit trail"): every security event is a row with its time,
 * account, journey, client address, request id and outcome. Never a secret: no password, code,
 * token, cookie or credential secret goes in `detail` (only kinds, channels, masked labels, counts).
 *
 * The core's events are listed here; a factor adds its own in its name table (`names.auditEvents`,
 * factors/module.ts: push's `push-sent`, the contacts' `security.contact-added`…). Recording an
 * event neither declares is a programming error.
 */
const coreAuditEvents = [
  'sign-in',
  'sign-in-failed',
  'lockout',
  'factor-passed',
  'factor-failed',
  'factor-locked',
  'step-up',
  'code-issued',
  'recovery-started',
  'recovery-confirmed',
  'recovery-failed',
  'recovery-locked',
  // A lock strangers caused, lifted by the owner's known device or a completed sign-in (decision 034).
  'lock-lifted',
  'password-changed',
  'username-changed',
  'trusted-device-bound',
  'trusted-device-revoked',
  'sign-out',
  // Abuse limits (decision 033): a factor held after repeated blocks, and what lifted it.
  'factor-held',
  'factor-hold-lifted',
  // The portal's security page (security/; docs/decisions/025-security-page-api.md).
  'security.credential-removed',
  'security.trusted-browser-revoked',
  'security.session-ended',
  // The representative console (console/plugin.ts): every one names the staff member (staff_id).
  'console-sign-in',
  'console-sign-in-failed',
  'console-sign-out',
  'console-lookup',
  'rep-code-issued',
  'console-unlock',
  'console-unblock',
  'console-unlock-recovery',
  'console-unblock-factors',
  'console-require-password-reset',
  'console-refused',
] as const;
type CoreAuditEvent = (typeof coreAuditEvents)[number];
/** A core event (checked by the type), or one a factor module declares (checked when recorded). */
export type AuditEvent = CoreAuditEvent | (string & {});

let known: Promise<ReadonlySet<string>> | undefined;
/** The core's events and every module's. */
const knownEvents = () =>
  (known ??= loadFactors().then(
    (registry) =>
      new Set<string>([...coreAuditEvents, ...registry.modules.flatMap((m) => m.names.auditEvents ?? [])]),
  ));

/** success: it happened; failure: refused (wrong, locked, limited); the event names which. */
export type AuditOutcome = 'success' | 'failure';

export type AuditEntry = {
  event: AuditEvent;
  outcome: AuditOutcome;
  accountId?: string | null | undefined;
  journeyId?: string | null | undefined;
  /** A console action: the staff member who acted. */
  staffId?: string | null | undefined;
  detail?: Record<string, string | number | boolean | null>;
};

export class AuditTrail {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
  ) {}

  /** The same trail writing on `db` (a transaction: the event commits with the change or not at all). */
  withDb(db: DB): AuditTrail {
    return new AuditTrail(db, this.clock);
  }

  async record(request: FastifyRequest | null, entry: AuditEntry): Promise<void> {
    if (!(await knownEvents()).has(entry.event))
      throw new Error(`No factor declares the audit event ${entry.event}`);
    await this.db
      .insertInto('audit_events')
      .values({
        at: this.clock.now(),
        event: entry.event,
        outcome: entry.outcome,
        account_id: entry.accountId ?? null,
        journey_id: entry.journeyId ?? null,
        client_ip: request?.ip ?? null,
        request_id: request ? String(request.id) : null,
        detail: JSON.stringify(entry.detail ?? {}),
        user_agent: request?.headers['user-agent']?.slice(0, 300) ?? null,
        staff_id: entry.staffId ?? null,
      })
      .execute();
  }

  /** Deletes events older than the retention period; returns how many. */
  async prune(retentionMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_events')
      .where('at', '<', new Date(this.clock.now().getTime() - retentionMs))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
