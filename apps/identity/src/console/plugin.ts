import {
  type ConsoleAuditEvent,
  type ConsoleCustomer,
  consoleAuditQuery,
  consoleCustomerRequest,
  consoleFactorRequest,
  consoleIssueCodeRequest,
  consoleLiftRequest,
  consolePaths,
  consoleSignInRequest,
  emptyBody,
  headers,
  type LiftAction,
  Status,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { accountContacts } from '../credentials/contacts.ts';
import type { DB } from '../db/database.ts';
import type { Account, Staff } from '../db/schema.ts';
import { FactorHolds } from '../factors/holds.ts';
import { hmac } from '../lib/crypto.ts';
import { answer } from '../lib/http.ts';
import { maskEmail, maskPhoneLabel } from '../lib/mask.ts';
import { codeHash, newCode } from '../lib/otp.ts';
import { clientKey, refuseOver } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';
import { consoleNoSession, type SignedInStaff } from '../plugins/guards.ts';
import { notifyOwner } from '../services/account-security.ts';
import { findAccount, findAccountById } from '../services/accounts.ts';

/**
 * The representative console's calls (consolePaths; docs/decisions/028-representative-console.md).
 * A staff session of its own (the GH_STAFF cookie, path /api/console, never a customer's ET): a
 * password, then an authenticator-app code; it ends after STAFF_IDLE_MINUTES without a call. Every
 * call but sign-in needs it; a customer's session or none is refused with 4401. Every action is an
 * audit row naming the staff member (staff_id), the customer, the reason and the time.
 */

/** 1404 and 1409 in the console's tables: no such customer; the account is not in that state. */
const UNKNOWN_CUSTOMER = Status.UNKNOWN_TRANSACTION;
const WRONG_STATE = Status.ALREADY_ANSWERED;

/** The channel name rep codes are hashed under (lib/otp.ts codeHash binds account and channel). */
export const REP_CHANNEL = 'rep';

/** The audit event of each lift action. */
const liftEvents = {
  unlock: 'console-unlock',
  unblock: 'console-unblock',
  'unlock-recovery': 'console-unlock-recovery',
  'unblock-factors': 'console-unblock-factors',
  'require-password-reset': 'console-require-password-reset',
} as const satisfies Record<LiftAction, string>;

export async function consolePlugin(app: FastifyInstance, ctx: Context) {
  const { db, clock, config } = ctx;
  const lockMinutes = () => Math.round(config.console.lockoutMs / 60_000);
  const store = ctx.staffStore;
  const cookieName = ctx.cookieNames.staff;
  const cookiePath = '/api/console';
  const cookieOptions = {
    path: cookiePath,
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: 'strict',
  } as const;

  const setStaffCookie = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    reply.setCookie(cookieName, token, cookieOptions);
    // The console's CSRF token travels in the response header only, bound to the new cookie.
    reply.header(headers.csrf, request.server.csrf.consoleToken(token));
  };
  const clearStaffCookie = (request: FastifyRequest, reply: FastifyReply) => {
    reply.clearCookie(cookieName, cookieOptions);
    reply.header(headers.csrf, request.server.csrf.consoleToken(undefined, request, reply));
  };

  /**
   * A per-staff limit (lookups, codes, lifts) with its alert: past CONSOLE_ALERT_PERCENT of the limit,
   * every call writes an error line `console alert` naming the staff member, for the monitoring.
   */
  const limit = async (
    request: FastifyRequest,
    staff: Staff,
    scope: 'lookups' | 'codes' | 'lifts',
    rule: { max: number; windowMs: number },
  ) => {
    const key = `console-${scope}:staff:${staff.id}`;
    const decision = await ctx.limiter.hit(key, rule.max, rule.windowMs);
    const alertAt = Math.ceil((rule.max * config.console.alertPercent) / 100);
    if ((decision.hits ?? 0) > alertAt) {
      request.log.error(
        { alert: 'console-usage', staff: staff.name, scope, hits: decision.hits, max: rule.max },
        'console alert: a staff member passed the usage threshold',
      );
    }
    // The first refusal of each window is audited (every one is logged): a flood writes one row.
    if (!decision.allowed && decision.hits === rule.max + 1) {
      await audit(request, staff, 'console-refused', {
        outcome: 'failure',
        detail: { action: scope, reason: 'rate-limited' },
      });
    }
    refuseOver(request, key, decision);
  };

  const audit = (
    request: FastifyRequest,
    staff: Pick<Staff, 'id' | 'name'>,
    event: Parameters<Context['audit']['record']>[1]['event'],
    fields: {
      accountId?: string | undefined;
      outcome?: 'success' | 'failure';
      detail?: Record<string, string>;
    },
    /** A transaction when the row must stand or fall with the action it records (red-team finding 1). */
    executor?: DB,
  ) =>
    (executor ? ctx.audit.withDb(executor) : ctx.audit).record(request, {
      event,
      outcome: fields.outcome ?? 'success',
      accountId: fields.accountId,
      staffId: staff.id,
      detail: { staff: staff.name, ...(fields.detail ?? {}) },
    });

  // --- sign-in -------------------------------------------------------------------------------------

  /**
   * What the trail keeps of a name that is no staff member's: a keyed fingerprint, never the text
   * typed (a password typed into the name field never lands in the trail). One name, one value.
   */
  const nameFingerprint = (name: string) => hmac(config.sessionSecret, `console-name|${name}`).slice(0, 16);

  /**
   * Counts a password try on a limit before the compare (one atomic upsert: a burst cannot outrun
   * it); past the limit the 429 envelope, the first refusal of each window audited.
   */
  const passwordTry = async (
    request: FastifyRequest,
    key: string,
    rule: { max: number; windowMs: number },
    staff: Pick<Staff, 'id' | 'name'> | undefined,
    name: string,
    limit: string,
  ) => {
    const decision = await ctx.limiter.hit(key, rule.max, rule.windowMs);
    if (!decision.allowed && decision.hits === rule.max + 1) {
      await ctx.audit.record(request, {
        event: 'console-refused',
        outcome: 'failure',
        staffId: staff?.id,
        detail: {
          action: 'sign-in',
          reason: 'rate-limited',
          limit,
          ...(staff ? { staff: staff.name } : { nameFingerprint: nameFingerprint(name) }),
        },
      });
    }
    refuseOver(request, key, decision);
  };

  defineRoute(app, {
    method: 'POST',
    path: consolePaths.consoleSession,
    tag: 'console',
    summary:
      'Staff sign-in, first step: name and password (argon2id). Right: the authenticator-app code is due (a short-lived GH_STAFF cookie).',
    body: consoleSignInRequest,
    handler: async ({ request, reply, body }) => {
      // Strangers cannot lock staff (issue 22 point 2): wrong passwords count per client address and
      // per client and name, reserved before the compare, and never against the member; only wrong
      // authenticator codes after the right password lock a member.
      const client = clientKey(request.ip);
      const staff = await store.byName(body.name);
      await passwordTry(
        request,
        `console-sign-in:client:${client}`,
        config.rateLimits.client,
        staff,
        body.name,
        'client',
      );
      await passwordTry(
        request,
        `console-sign-in:client-name:${client}:${body.name}`,
        config.console.passwordTries,
        staff,
        body.name,
        'client-name',
      );
      const right = await ctx.hasher.verifyOrBurn(staff?.password_hash, body.password);
      if (!staff || !right || staff.status !== 'active') {
        if (staff) {
          await audit(request, staff, 'console-sign-in-failed', {
            outcome: 'failure',
            detail: { reason: staff.status !== 'active' ? 'disabled' : 'wrong password' },
          });
        } else {
          await ctx.audit.record(request, {
            event: 'console-sign-in-failed',
            outcome: 'failure',
            detail: { reason: 'unknown name', nameFingerprint: nameFingerprint(body.name) },
          });
        }
        request.log.info('console: sign-in refused');
        return answer(request, reply, Status.FORBIDDEN);
      }
      // The right password: the member's lock (wrong codes) as it stands now, after the compare.
      const now = await store.byId(staff.id);
      if (!now || store.lockedNow(now)) {
        await audit(request, staff, 'console-refused', {
          outcome: 'failure',
          detail: { action: 'sign-in', reason: 'locked' },
        });
        return answer(request, reply, Status.LIMIT_REACHED, { params: [lockMinutes()] });
      }
      await store.endByToken(request.cookies[cookieName], 'replaced');
      const token = await store.startSession(staff.id, 'factor', request.ip);
      setStaffCookie(request, reply, token);
      return answer(request, reply, Status.SUCCESS);
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: consolePaths.consoleFactor,
    tag: 'console',
    summary:
      'Staff sign-in, second step: the authenticator-app code (RFC 6238, a used code never again). Right: signed in under a new GH_STAFF cookie.',
    body: consoleFactorRequest,
    auth: 'staffFactor',
    handler: async ({ request, reply, body, auth: { staff, session } }) => {
      // The try is reserved before the compare (StaffStore.reserveCodeTry): at most
      // STAFF_LOCKOUT_FAILURES codes are compared, however many arrive at once, and none while locked.
      const reserved = await store.reserveCodeTry(staff.id);
      if (reserved === undefined) {
        await audit(request, staff, 'console-refused', {
          outcome: 'failure',
          detail: { action: 'authenticator code', reason: 'locked' },
        });
        return answer(request, reply, Status.LIMIT_REACHED, { params: [lockMinutes()] });
      }
      if (!(await store.checkCode(staff, body.securityCode))) {
        const locked = await store.lockIfSpent(staff.id);
        await audit(request, staff, 'console-sign-in-failed', {
          outcome: 'failure',
          detail: { reason: 'wrong authenticator code', ...(locked ? { locked: 'true' } : {}) },
        });
        if (locked) {
          request.log.warn(
            { staff: staff.name },
            'console: staff member locked after wrong authenticator codes',
          );
          await store.end(session.id, 'locked');
          clearStaffCookie(request, reply);
          return answer(request, reply, Status.LIMIT_REACHED, { params: [lockMinutes()] });
        }
        return answer(request, reply, Status.INCORRECT_CODE);
      }
      // No sign-in past a lock that other tries set while this one was compared.
      if (!(await store.succeeded(staff.id))) {
        await audit(request, staff, 'console-refused', {
          outcome: 'failure',
          detail: { action: 'authenticator code', reason: 'locked' },
        });
        await store.end(session.id, 'locked');
        clearStaffCookie(request, reply);
        return answer(request, reply, Status.LIMIT_REACHED, { params: [lockMinutes()] });
      }
      // One code, one session: the step ends once (a second request with it loses here).
      if (!(await store.end(session.id, 'signed-in'))) throw consoleNoSession();
      const token = await store.startSession(staff.id, 'active', request.ip);
      setStaffCookie(request, reply, token);
      await audit(request, staff, 'console-sign-in', {});
      request.log.info({ staff: staff.name, role: staff.role }, 'console: signed in');
      return answer(request, reply, Status.SUCCESS, { successData: staffData(staff) });
    },
  });

  const staffData = (staff: Staff) => ({
    name: staff.name,
    role: staff.role,
    idleMinutes: Math.round(config.console.idleMs / 60_000),
    warningSeconds: Math.round(config.console.warningMs / 1000),
    codeMinutes: Math.round(config.console.repCodeMs / 60_000),
  });

  defineRoute(app, {
    method: 'GET',
    path: consolePaths.consoleSession,
    tag: 'console',
    summary: 'The signed-in staff member (name, role, idle minutes); 4401 without a console session.',
    auth: 'staff',
    handler: async ({ request, reply, auth: { staff } }) => {
      return answer(request, reply, Status.SUCCESS, { successData: staffData(staff) });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: consolePaths.consoleSessionExtend,
    tag: 'console',
    summary:
      'The staff member is still here (the time-limit warning, or typing): the session’s idle limit moves forward as with any call, never past its absolute limit. No body.',
    body: emptyBody,
    auth: 'staff',
    handler: async ({ request, reply, auth: { staff } }) => {
      return answer(request, reply, Status.SUCCESS, { successData: staffData(staff) });
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    path: consolePaths.consoleSession,
    tag: 'console',
    summary: 'Staff sign-out: the session ends on the server and its cookie is cleared.',
    body: emptyBody,
    handler: async ({ request, reply }) => {
      const found = await store.session(request.cookies[cookieName], 'active');
      if (found) {
        await store.end(found.session.id, 'sign-out');
        await audit(request, found.staff, 'console-sign-out', {});
      } else {
        await store.endByToken(request.cookies[cookieName], 'sign-out');
      }
      clearStaffCookie(request, reply);
      return answer(request, reply, Status.SUCCESS);
    },
  });

  // --- customers -----------------------------------------------------------------------------------

  /** Whether the staff member may act on the account; the refusal's message when not. */
  const refusal = async ({ staff, may }: SignedInStaff, account: Account) => {
    if (staff.customer_username_key === account.username_key) return 'consoleOwnAccount' as const;
    if (!may.actOnStaffAccounts && (await isStaffAccount(account))) return 'consoleStaffAccount' as const;
    return null;
  };
  const isStaffAccount = async (account: Account) =>
    !!(await db
      .selectFrom('staff')
      .select('id')
      .where('customer_username_key', '=', account.username_key)
      .executeTakeFirst());

  /** The customer with exactly this username (case as the sign-in matches it), or the 1404 answer. */
  const customerOf = async (username: string) => findAccount(db, username);

  async function customerView(staff: Staff, account: Account): Promise<ConsoleCustomer> {
    const now = clock.now();
    const counters = await db
      .selectFrom('otp_counters')
      .select(['channel', 'locked_until'])
      .where('account_id', '=', account.id)
      .execute();
    const lockOf = (channel: string) => {
      const until = counters.find((c) => c.channel === channel)?.locked_until;
      return until && new Date(until).getTime() > now.getTime() ? new Date(until).toISOString() : null;
    };
    const contacts = await accountContacts(db, account.id);
    const credentials = await ctx.credentials.list(account.id);
    const factorLocks: Record<string, string> = {
      phone: 'factor:sms',
      email: 'factor:email',
      totp: 'factor:totp',
    };
    const events = await db
      .selectFrom('audit_events')
      .select(['at', 'event', 'outcome'])
      .where('account_id', '=', account.id)
      .orderBy('at', 'desc')
      .limit(10)
      .execute();
    const live = await db
      .selectFrom('rep_codes')
      .select('expires_at')
      .where('account_id', '=', account.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const forced = [
      ...(account.password_state === 'expired' ? ['passwordExpired'] : []),
      ...(account.password_state === 'temporary' ? ['temporaryPassword'] : []),
      ...(account.require_username_update ? ['usernameUpdate'] : []),
    ];
    return {
      username: account.username,
      displayName: account.display_name,
      status: account.status,
      failedLogins: account.failed_logins,
      recoveryLockedUntil: lockOf('email'),
      forced,
      contacts: [
        ...contacts.filter((c) => c.kind === 'phone'),
        ...contacts.filter((c) => c.kind !== 'phone'),
      ].map((c) => ({
        kind: c.kind === 'phone' ? ('phone' as const) : ('email' as const),
        label: c.kind === 'phone' ? maskPhoneLabel(c.value, c.country_code) : maskEmail(c.value),
      })),
      factors: credentials
        .filter((c) => c.kind !== 'phone' && c.kind !== 'email')
        .map((c) => ({
          kind: c.kind,
          name: c.name,
          lockedUntil: factorLocks[c.kind] ? lockOf(factorLocks[c.kind]!) : null,
        })),
      events: events.map((e) => ({ at: new Date(e.at).toISOString(), event: e.event, outcome: e.outcome })),
      liveCodeExpiresAt: live ? new Date(live.expires_at).toISOString() : null,
      staffAccount: await isStaffAccount(account),
      ownAccount: staff.customer_username_key === account.username_key,
    };
  }

  defineRoute(app, {
    method: 'POST',
    path: consolePaths.consoleCustomer,
    tag: 'console',
    summary:
      'Find a customer by exact username: state, masked contacts, enrolled factors, recent security events. No search by other details.',
    body: consoleCustomerRequest,
    auth: 'staff',
    handler: async ({ request, reply, body, auth: { staff } }) => {
      await limit(request, staff, 'lookups', config.console.lookups);
      const account = await customerOf(body.username);
      await audit(request, staff, 'console-lookup', {
        accountId: account?.id,
        outcome: account ? 'success' : 'failure',
        ...(account ? {} : { detail: { reason: 'no such username' } }),
      });
      if (!account) return answer(request, reply, UNKNOWN_CUSTOMER);
      return answer(request, reply, Status.SUCCESS, { successData: await customerView(staff, account) });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: consolePaths.consoleIssueCode,
    tag: 'console',
    summary:
      "Issue the customer's temporary security code after recording how the caller was verified: for the sign-in (purpose factor, the default) or a password recovery (purpose recovery, portal spec §4 step 6). 6 digits, shown once, single use, REP_CODE_MINUTES, one live code per customer and purpose.",
    body: consoleIssueCodeRequest,
    auth: 'staff',
    handler: async ({ request, reply, body, auth: caller }) => {
      const { staff } = caller;
      await limit(request, staff, 'codes', config.console.codes);
      const account = await customerOf(body.username);
      if (!account) return answer(request, reply, UNKNOWN_CUSTOMER);
      const refused = await refusal(caller, account);
      if (refused) {
        await audit(request, staff, 'console-refused', {
          accountId: account.id,
          outcome: 'failure',
          detail: { action: 'issue-code', reason: refused },
        });
        return answer(request, reply, Status.FORBIDDEN, { message: refused });
      }
      if (account.status !== 'active') return answer(request, reply, WRONG_STATE);

      const now = clock.now();
      const code = newCode();
      const expiresAt = new Date(now.getTime() + config.console.repCodeMs);
      await db.transaction().execute(async (tx) => {
        // One issuance at a time per customer: the account's row is held while the old code goes.
        await tx.selectFrom('accounts').select('id').where('id', '=', account.id).forUpdate().execute();
        // One live code per customer and purpose: a sign-in code never resets a password, and a
        // recovery code never signs in (decision 043).
        await tx
          .updateTable('rep_codes')
          .set({ revoked_at: now })
          .where('account_id', '=', account.id)
          .where('purpose', '=', body.purpose)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .execute();
        await tx
          .insertInto('rep_codes')
          .values({
            account_id: account.id,
            staff_id: staff.id,
            code_hash: codeHash(config.otp.pepper, account.id, REP_CHANNEL, code),
            purpose: body.purpose,
            created_at: now,
            expires_at: expiresAt,
          })
          .execute();
        // The audit row in the same transaction: no code is issued (nor the old one revoked) unaudited.
        await audit(
          request,
          staff,
          'rep-code-issued',
          {
            accountId: account.id,
            detail: { verification: body.verification, note: body.note, purpose: body.purpose },
          },
          tx,
        );
      });
      request.log.info(
        { staff: staff.name, account: account.id, purpose: body.purpose },
        'console: temporary security code issued',
      );
      return answer(request, reply, Status.SUCCESS, {
        params: [Math.round(config.console.repCodeMs / 60_000)],
        successData: { code, expiresAt: expiresAt.toISOString() },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: consolePaths.consoleLift,
    tag: 'console',
    summary:
      'Lift what blocks a customer, with a reason: unlock after failed passwords, unblock, unlock recovery by e-mail, or require a new password at next sign-in. The customer is told by e-mail.',
    body: consoleLiftRequest,
    auth: 'staff',
    handler: async ({ request, reply, body, auth: caller }) => {
      const { staff } = caller;
      await limit(request, staff, 'lifts', config.console.lifts);
      const account = await customerOf(body.username);
      if (!account) return answer(request, reply, UNKNOWN_CUSTOMER);
      const refused = await refusal(caller, account);
      if (refused) {
        await audit(request, staff, 'console-refused', {
          accountId: account.id,
          outcome: 'failure',
          detail: { action: body.action, reason: refused },
        });
        return answer(request, reply, Status.FORBIDDEN, { message: refused });
      }
      // The change, the end of the customer's sessions (a required reset) and its audit row in one
      // transaction holding the account: nothing lifted unaudited, no reset with sessions alive.
      const changed = await ctx.sessions.underAccount(account.id, 'update', async (sessions, tx) => {
        if (!(await lift(tx, account, body.action))) return false;
        if (body.action === 'require-password-reset') {
          await sessions.endAll(account.id, 'password-reset-required', {});
        }
        await audit(
          request,
          staff,
          liftEvents[body.action],
          { accountId: account.id, detail: { reason: body.reason } },
          tx,
        );
        return true;
      });
      if (!changed) return answer(request, reply, WRONG_STATE);
      await notifyOwner(ctx, request, account, liftEvents[body.action]);
      request.log.info({ staff: staff.name, account: account.id, action: body.action }, 'console: lifted');
      const lifted = (await findAccountById(db, account.id)) ?? account;
      return answer(request, reply, Status.SUCCESS, { successData: await customerView(staff, lifted) });
    },
  });

  /** One conditional UPDATE per action: false when the account is not in the state it lifts. */
  async function lift(db: DB, account: Account, action: LiftAction): Promise<boolean> {
    const now = clock.now();
    if (action === 'unlock' || action === 'unblock') {
      const result = await db
        .updateTable('accounts')
        .set({ status: 'active', failed_logins: 0, locked_by_fraud: false, updated_at: now })
        .where('id', '=', account.id)
        .where('status', '=', action === 'unlock' ? 'locked' : 'blocked')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    }
    // Second factors held after repeated blocks of wrong codes (decision 033).
    if (action === 'unblock-factors') return (await new FactorHolds(ctx).liftAll(db, account.id)) > 0;
    if (action === 'unlock-recovery') {
      const result = await db
        .updateTable('otp_counters')
        .set({ wrong_tries: 0, unentered_sends: 0, locked_until: null, updated_at: now })
        .where('account_id', '=', account.id)
        .where('channel', '=', 'email')
        .where('locked_until', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    }
    const result = await db
      .updateTable('accounts')
      .set({ password_state: 'expired', updated_at: now })
      .where('id', '=', account.id)
      .where('password_state', '!=', 'expired')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  // --- audit ---------------------------------------------------------------------------------------

  defineRoute(app, {
    method: 'GET',
    path: consolePaths.consoleAudit,
    tag: 'console',
    summary:
      "Console actions, newest first, filtered by staff member, customer or event. A supervisor sees everyone's; a representative only their own (another's: 1403).",
    query: consoleAuditQuery,
    auth: 'staff',
    handler: async ({ request, reply, query, auth: { staff, may } }) => {
      if (!may.readEveryonesActions && query.staff !== undefined && query.staff !== staff.name) {
        await audit(request, staff, 'console-refused', {
          outcome: 'failure',
          detail: { action: 'audit', reason: 'consoleNotPermitted' },
        });
        return answer(request, reply, Status.FORBIDDEN, { message: 'consoleNotPermitted' });
      }
      let rows = db
        .selectFrom('audit_events')
        .leftJoin('staff', 'staff.id', 'audit_events.staff_id')
        .leftJoin('accounts', 'accounts.id', 'audit_events.account_id')
        .select([
          'audit_events.at',
          'audit_events.event',
          'audit_events.outcome',
          'audit_events.detail',
          'staff.name as staff',
          'accounts.username as customer',
        ])
        // Console rows: a staff member's, or a sign-in try under a name that is no member's.
        .where((eb) =>
          eb.or([eb('audit_events.staff_id', 'is not', null), eb('audit_events.event', 'like', 'console-%')]),
        )
        .orderBy('audit_events.at', 'desc')
        .limit(query.limit ?? 100);
      if (!may.readEveryonesActions) rows = rows.where('audit_events.staff_id', '=', staff.id);
      else if (query.staff) rows = rows.where('staff.name', '=', query.staff);
      if (query.customer) rows = rows.where('accounts.username_key', '=', query.customer.toLowerCase());
      if (query.event) rows = rows.where('audit_events.event', '=', query.event);
      const events: ConsoleAuditEvent[] = (await rows.execute()).map((r) => {
        const detail = (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<
          string,
          unknown
        >;
        const said = [detail.verification, detail.note, detail.reason, detail.action, detail.nameFingerprint]
          .filter((v): v is string => typeof v === 'string')
          .join(': ');
        return {
          at: new Date(r.at).toISOString(),
          event: r.event,
          outcome: r.outcome,
          staff: r.staff ?? null,
          customer: r.customer ?? null,
          detail: said,
        };
      });
      return answer(request, reply, Status.SUCCESS, { successData: { events } });
    },
  });
}
