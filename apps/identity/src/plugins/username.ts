import {
  changeUsernameData,
  changeUsernameRequest,
  checkUsername,
  paths,
  Status,
  usernameStatus,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Account, Journey, Session } from '../db/schema.ts';
import { answer, sessionExpired } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { afterIdentityChange } from '../services/account-security.ts';
import { checkPassword, findAccountById, type PasswordVerdict, usernameKey } from '../services/accounts.ts';
import { clearSessionCookies, deviceKey } from '../services/cookies.ts';
import { browserSubject } from '../services/session-guard.ts';

/** PostgreSQL's unique_violation, from pg and from PGlite alike. */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/**
 * Change username (widget spec §2 "Change username", §4, §8): the forced update during sign-in
 * (a login transaction whose account must update its username) or a signed-in change.
 */
export async function usernamePlugin(app: FastifyInstance, ctx: Context) {
  const { db, clock, sessions } = ctx;

  /** The session allowed to change the username, with its account; else the 401 envelope. */
  async function changer(
    request: FastifyRequest,
  ): Promise<{ session?: Session; login?: Journey; account: Account }> {
    const subject = await browserSubject(ctx, request);
    if (!subject) throw sessionExpired();
    const account = await findAccountById(db, subject.accountId);
    const allowed =
      account?.status === 'active' &&
      (!!subject.session || (subject.login?.state === 'password' && account.require_username_update));
    if (!account || !allowed) throw sessionExpired();
    if (subject.session) await sessions.touch(subject.session);
    return { ...subject, account };
  }

  /**
   * A wrong current password counts like a failed login: the same counter and lockout as password
   * authentication. At the lockout every session of the account ends, this one included.
   */
  async function wrongPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    verdict: PasswordVerdict,
  ) {
    if (verdict === 'locked') {
      clearSessionCookies(ctx, request, reply);
      request.log.warn({ account: account.id }, 'account locked after failed attempts (change username)');
      return answer(request, reply, Status.BLOCKED_FOR_RESET);
    }
    return answer(request, reply, Status.FORBIDDEN);
  }

  defineRoute(app, {
    method: 'PUT',
    path: paths.changeUsername,
    tag: 'identity',
    summary: 'Change the username: a forced update during sign-in (login transaction) or a signed-in change.',
    body: changeUsernameRequest,
    successData: changeUsernameData,
    handler: async ({ request, reply, body }) => {
      const { session, login, account } = await changer(request);

      const password = await checkPassword(ctx, account, body.password, {
        request,
        purpose: 'username change',
      });
      if (password !== 'right') return wrongPassword(request, reply, account, password);

      // The rules of the on-screen checklist, from the contract; each verdict is a code of the
      // table with its message (1485 names the shared characters when that is the rule).
      const verdict = usernameStatus(body.username, body.password);
      if (verdict !== Status.SUCCESS) {
        const sharesWithPassword =
          verdict === Status.USERNAME_GUIDELINES && !checkUsername(body.username, body.password).password;
        return answer(
          request,
          reply,
          verdict,
          sharesWithPassword ? { message: 'usernameSharesWithPassword' } : {},
        );
      }

      const key = usernameKey(body.username);
      const taken = () => answer(request, reply, Status.USERNAME_TAKEN);
      if (key === account.username_key) return taken();
      let changed: bigint;
      try {
        // One transaction: name, key and the cleared flag change together. The unique index on
        // username_key decides a race for the same name: exactly one wins.
        // A staff member's own customer account (console/staff.ts customer_username_key) follows
        // the new name in the same transaction, so the console still refuses them acting on it
        // (red-team console finding 2).
        changed = await db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('accounts')
            .set({
              username: body.username,
              username_key: key,
              require_username_update: false,
              updated_at: clock.now(),
            })
            .where('id', '=', account.id)
            .where('status', '=', 'active')
            .executeTakeFirst();
          if (result.numUpdatedRows > 0n) {
            await tx
              .updateTable('staff')
              .set({ customer_username_key: key })
              .where('customer_username_key', '=', account.username_key)
              .execute();
          }
          return result.numUpdatedRows;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return taken();
        throw error;
      }
      // Locked or blocked by a simultaneous request: nothing changed.
      if (changed === 0n) throw sessionExpired();
      request.log.info({ account: account.id }, 'username changed');
      await ctx.audit.record(request, {
        event: 'username-changed',
        outcome: 'success',
        accountId: account.id,
        journeyId: login?.id,
        detail: { during: login ? 'sign-in' : 'signed in' },
      });
      await afterIdentityChange(ctx, request, account, {
        reason: 'username_changed',
        notice: 'username-changed',
        keepSessionId: session?.id,
        keepJourneyIds: [login?.id],
        keepDeviceKey: deviceKey(ctx, request),
      });
      return answer(request, reply, Status.SUCCESS, { successData: { username: body.username } });
    },
  });
}
