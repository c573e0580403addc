import type { FastifyRequest } from 'fastify';
import { isOperationNodeSource, type RawBuilder, sql } from 'kysely';
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
  'code-delivery-failed',
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
  // The device-risk step (decision 045): a second factor the rule demanded of a login journey.
  'device-risk-factor-due',
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
  // The OpenID Provider (oidc/provider.ts; decision 048).
  'oidc-authorized',
  'oidc-token-issued',
  'oidc-token-refused',
  'oidc-grant-revoked',
  'oidc-consent-implied',
  'oidc-logout',
] as const;
export type CoreAuditEvent = (typeof coreAuditEvents)[number];
/** A core event (checked by the type), or one a factor module declares (checked when recorded). */
export type AuditEvent = CoreAuditEvent | (string & {});

const isSql = (value: unknown): value is RawBuilder<unknown> => isOperationNodeSource(value);

let known: Promise<ReadonlySet<string>> | undefined;
/** The core's events and every module's. */
const knownEvents = () =>
  (known ??= loadFactors().then(
    (registry) =>
      new Set<string>([...coreAuditEvents, ...registry.modules.flatMap((m) => m.names.auditEvents ?? [])]),
  ));

/** An event of `insertFrom`: as `AuditEntry`, with columns and SQL where its statement has them. */
export type StatementAuditEntry = Omit<AuditEntry, 'event' | 'accountId' | 'journeyId' | 'detail'> & {
  event: AuditEvent | { either: [AuditEvent, AuditEvent]; when: RawBuilder<boolean> };
  accountId?: { column: string } | string | null;
  journeyId?: { column: string };
  /** Values, or a `jsonb` SQL expression over the rows (still never a secret). */
  detail?: AuditEntry['detail'] | RawBuilder<unknown>;
};

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

  /**
   * Events as part of a statement that writes their change (issue 25: a sign-in in five
   * statements): `insert into audit_events … select … from <from>`, one row per entry and row of
   * `from` (the statement's WITH queries, joined or filtered: SQL text of the caller's, never
   * input), so they are written exactly when the change is, in the order given. An entry's `event`
   * may choose by an SQL condition over those rows; `accountId` and `journeyId` may name columns.
   */
  async insertFrom(
    from: string,
    request: FastifyRequest | null,
    entries: StatementAuditEntry | StatementAuditEntry[],
  ): Promise<RawBuilder<unknown>> {
    const list = Array.isArray(entries) ? entries : [entries];
    const known = await knownEvents();
    const column = (value: { column: string } | string | null | undefined) =>
      value && typeof value === 'object' ? sql.ref(value.column) : sql`${value ?? null}`;
    const rows = list.map((entry, n) => {
      const events = typeof entry.event === 'string' ? [entry.event] : entry.event.either;
      for (const event of events)
        if (!known.has(event)) throw new Error(`No factor declares the audit event ${event}`);
      const event =
        typeof entry.event === 'string'
          ? sql`${entry.event}::text`
          : sql`case when ${entry.event.when} then ${events[0]}::text else ${events[1]}::text end`;
      return sql`select ${n}::int as n, ${event} as event, ${entry.outcome}::text as outcome,
          ${column(entry.accountId)}::uuid as account_id, ${column(entry.journeyId)}::uuid as journey_id,
          ${isSql(entry.detail) ? entry.detail : sql`${JSON.stringify(entry.detail ?? {})}::jsonb`} as detail,
          ${entry.staffId ?? null}::uuid as staff_id
        from ${sql.raw(from)}`;
    });
    return sql`insert into audit_events (at, event, outcome, account_id, journey_id, client_ip, request_id, detail, user_agent, staff_id)
      select ${this.clock.now()}, e.event, e.outcome, e.account_id, e.journey_id,
        ${request?.ip ?? null}, ${request ? String(request.id) : null}, e.detail,
        ${request?.headers['user-agent']?.slice(0, 300) ?? null}, e.staff_id
      from (${sql.join(rows, sql` union all `)}) e
      order by e.n`;
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
