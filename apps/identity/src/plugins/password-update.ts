import {
  limits,
  passwordEnrollmentPost,
  passwordEnrollmentPut,
  passwordPolicyStatus,
  passwordStatusRequest,
  paths,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { Account, Journey, Session } from '../db/schema.ts';
import { loadFlow } from '../journeys/recovery.ts';
import { isCommonPassword } from '../lib/common-passwords.ts';
import { ApiError, answer } from '../lib/http.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';
import { afterIdentityChange } from '../services/account-security.ts';
import { checkPassword, findAccount, findAccountById, usernameKey } from '../services/accounts.ts';
import { clearFlowCookie, clearSessionCookies } from '../services/cookies.ts';
import { browserSubject } from '../services/session-guard.ts';

/**
 * The password state as the portal's enrollment rule reads it (portal spec §4): 1203 blocked or
 * locked, 1205 expired, 1201 temporary (POST with only the password), 1200 normal.
 */
function passwordStateCode(account: Account): number {
  if (account.status === 'locked' || account.status === 'blocked') return Status.BLOCKED_FOR_RESET;
  if (account.password_state === 'expired') return Status.PASSWORD_EXPIRED;
  if (account.password_state === 'temporary') return Status.PASSWORD_TEMPORARY;
  return Status.SUCCESS;
}

/**
 * The user-state check and the password update of the reset-password screen (portal spec §2
 * "Reset Password", §4, §8). An update needs a recovery flow whose one-time code was confirmed,
 * or (POST with oldPassword) the old password.
 */
export async function passwordUpdatePlugin(app: FastifyInstance, ctx: Context) {
  const { db, clock, config, hasher, sessions } = ctx;
  const notConfirmed = () =>
    new ApiError(401, Status.UNAUTHENTICATED, serverMessages.otpConfirmationRequired);
  const invalid = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.FORBIDDEN, { message: 'invalidInformation' });
  const support = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.LIMIT_REACHED, { params: [config.supportEmail] });

  /** The confirmed recovery flow of the request and its account, or undefined. */
  async function confirmedFlow(request: FastifyRequest) {
    const flow = await loadFlow(ctx, request);
    if (!flow?.account_id || flow.state !== 'confirmed') return undefined;
    const account = await findAccountById(db, flow.account_id);
    return account ? { flow, account } : undefined;
  }

  const sameUser = (account: Account, username: string | undefined) =>
    username === undefined || usernameKey(username) === account.username_key;

  defineRoute(app, {
    method: 'POST',
    path: paths.passwordStatus,
    tag: 'recovery',
    summary:
      "The account's password state for the enrollment rule: after a confirmed one-time code, or in a login transaction.",
    body: passwordStatusRequest,
    handler: async ({ request, reply, body }) => {
      let account = (await confirmedFlow(request))?.account;
      if (!account) {
        const subject = await browserSubject(ctx, request);
        if (subject) account = await findAccountById(db, subject.accountId);
      }
      if (!account) throw notConfirmed();
      if (!sameUser(account, body?.username)) return invalid(request, reply);
      return answer(request, reply, passwordStateCode(account));
    },
  });

  /** The request's own signed-in session of the account, which a password change keeps. */
  async function ownSession(request: FastifyRequest, account: Account): Promise<Session | undefined> {
    const session = await sessions.load(request.cookies[ctx.cookieNames.session]);
    return session && session.account_id === account.id ? session : undefined;
  }

  /**
   * Checks the new password against the policy and the history, then sets it: HTTP 400 with the
   * §8 code on a rule failure; else 1200 and every other session of the account ends.
   */
  async function update(
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      account: Account;
      newPassword: string;
      flow?: Journey;
      enrollmentState: 'CREATE' | null;
    },
  ) {
    const { account, newPassword, flow } = input;
    if (account.status === 'blocked' || account.status === 'disabled') return support(request, reply);

    const personal = await db
      .selectFrom('accounts')
      .select([sql<string | null>`birth_date::text`.as('birth_date'), 'tax_id'])
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    let code = passwordPolicyStatus(newPassword, {
      username: account.username,
      birthDate: personal.birth_date,
      taxId: personal.tax_id,
      isCommon: isCommonPassword,
    });
    if (code === Status.SUCCESS) {
      const history = await db
        .selectFrom('password_history')
        .select('password_hash')
        .where('account_id', '=', account.id)
        .orderBy('created_at', 'desc')
        .limit(limits.passwordHistory)
        .execute();
      for (const stored of [account.password_hash, ...history.map((h) => h.password_hash)]) {
        if (await hasher.verify(stored, newPassword)) {
          code = Status.PASSWORD_REUSED;
          break;
        }
      }
    }
    if (code !== Status.SUCCESS) {
      request.log.info({ account: account.id, status: code }, 'password update refused by the policy');
      return answer(request, reply, code);
    }

    const newHash = await hasher.hash(newPassword);
    const now = clock.now();
    const changed = await db.transaction().execute(async (tx) => {
      if (flow) {
        // The flow is used once: of simultaneous updates on one flow exactly one goes through.
        if (!(await ctx.journeys.withDb(tx).consumeRecovery(flow.id))) return false;
      }
      const updated = await tx
        .updateTable('accounts')
        .set({
          password_hash: newHash,
          password_changed_at: now,
          password_state: 'ok',
          password_enrollment_state: input.enrollmentState,
          failed_logins: 0,
          // A reset unlocks a lockout after failed sign-ins; a security block stays for support.
          status: sql<string>`case when status = 'locked' then 'active' else status end`,
          locked_by_fraud: false,
          updated_at: now,
        })
        .where('id', '=', account.id)
        // Nobody changed the password since it was read (the old password or history check holds).
        .where('password_hash', '=', account.password_hash)
        .returning('id')
        .executeTakeFirst();
      if (!updated) return false;
      await tx
        .insertInto('password_history')
        .values({ account_id: account.id, password_hash: account.password_hash, created_at: now })
        .execute();
      await sql`
        delete from password_history
        where account_id = ${account.id}
          and id not in (
            select id from password_history where account_id = ${account.id}
            order by created_at desc limit ${limits.passwordHistory})`.execute(tx);
      return true;
    });
    if (!changed) throw notConfirmed();

    const keep = await ownSession(request, account);
    await afterIdentityChange(ctx, request, account, {
      reason: 'password_changed',
      notice: 'password-changed',
      keepSessionId: keep?.id,
    });
    if (!keep && request.cookies[ctx.cookieNames.session]) {
      clearSessionCookies(ctx, request, reply);
    }
    if (flow) clearFlowCookie(ctx, reply);
    await ctx.audit.record(request, {
      event: 'password-changed',
      outcome: 'success',
      accountId: account.id,
      journeyId: flow?.id,
      detail: { via: flow ? 'recovery' : 'old password', enrollment: input.enrollmentState ?? 'UPDATE' },
    });
    request.log.info(
      {
        account: account.id,
        enrollment: input.enrollmentState ?? 'UPDATE',
        via: flow ? 'recovery' : 'old password',
      },
      'password changed',
    );
    return answer(request, reply, Status.SUCCESS);
  }

  defineRoute(app, {
    method: 'PUT',
    path: paths.passwordEnrollment,
    tag: 'recovery',
    summary: 'Set a new password after a confirmed one-time code (statuses 1200, 1203, 1205).',
    body: passwordEnrollmentPut,
    handler: async ({ request, reply, body }) => {
      const confirmed = await confirmedFlow(request);
      if (!confirmed) throw notConfirmed();
      if (!sameUser(confirmed.account, body.username)) return invalid(request, reply);
      return update(request, reply, {
        account: confirmed.account,
        newPassword: body.newPassword,
        flow: confirmed.flow,
        enrollmentState: null,
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.passwordEnrollment,
    tag: 'recovery',
    summary:
      'Set a password: { password } replaces a temporary one (enrollment state CREATE) after a confirmed code; { username, oldPassword, newPassword } with a confirmed code or the old password.',
    body: passwordEnrollmentPost,
    handler: async ({ request, reply, body }) => {
      const confirmed = await confirmedFlow(request);
      if (!('oldPassword' in body)) {
        if (!confirmed) throw notConfirmed();
        return update(request, reply, {
          account: confirmed.account,
          newPassword: body.password,
          flow: confirmed.flow,
          enrollmentState: 'CREATE',
        });
      }
      if (confirmed) {
        if (!sameUser(confirmed.account, body.username)) return invalid(request, reply);
        return update(request, reply, {
          account: confirmed.account,
          newPassword: body.newPassword,
          flow: confirmed.flow,
          enrollmentState: confirmed.account.password_state === 'temporary' ? 'CREATE' : null,
        });
      }

      // No confirmed code: the old password proves who it is, as a sign-in would.
      await ctx.limiter.enforce(request, [
        [`pwd:client:${clientKey(request.ip)}`, config.rateLimits.client],
        [`pwd:account:${usernameKey(body.username)}`, config.rateLimits.account],
      ]);
      const account = await findAccount(db, body.username);
      const verdict = await checkPassword(ctx, account, body.oldPassword, {
        request,
        purpose: 'password change',
        username: body.username,
      });
      if (!account || verdict === 'wrong') {
        return answer(request, reply, Status.FORBIDDEN, { message: 'incorrectCredentials' });
      }
      if (verdict === 'locked') {
        request.log.warn({ account: account.id }, 'account locked after failed attempts (password update)');
        return answer(request, reply, Status.BLOCKED_FOR_RESET);
      }
      if (account.status !== 'active') return support(request, reply);
      // A password that is not expired or temporary is changed by its old one only from a session
      // that passed the second factor the account has: a leaked password alone changes nothing.
      const needsFactor = account.second_factor && account.password_state === 'ok';
      if (needsFactor && !(await ownSession(request, account))) {
        request.log.warn(
          { account: account.id },
          'password change by old password without the second factor',
        );
        return answer(request, reply, Status.UNAUTHENTICATED, { message: 'passwordChangeNeedsFactor' });
      }
      return update(request, reply, {
        account,
        newPassword: body.newPassword,
        enrollmentState: account.password_state === 'temporary' ? 'CREATE' : null,
      });
    },
  });
}
