import {
  changeUsernameData,
  changeUsernameRequest,
  checkUsername,
  paths,
  Status,
  serverMessages,
  usernameStatus,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Account, Journey, Session } from '../db/schema.ts';
import { ApiError, blockedForReset, failure, outcome, sessionExpired } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { afterIdentityChange } from '../services/account-security.ts';
import { checkPassword, findAccountById, type PasswordVerdict, usernameKey } from '../services/accounts.ts';
import { clearSessionCookies, deviceKey } from '../services/cookies.ts';
import { browserSubject } from '../services/session-guard.ts';

/** The message of each username rule verdict (widget spec §8), by the status code of §4. */
const ruleMessages: Record<number, string> = {
  [Status.USERNAME_MIN_LENGTH]: serverMessages.usernameMinLength,
  [Status.USERNAME_MAX_LENGTH]: serverMessages.usernameMaxLength,
  [Status.USERNAME_INVALID_CHARACTER]: serverMessages.usernameInvalidCharacter,
  [Status.USERNAME_NO_ALPHA]: serverMessages.usernameNoAlpha,
  [Status.USERNAME_GUIDELINES]: serverMessages.usernameGuidelines,
};

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
      return failure(request, reply, blockedForReset());
    }
    return failure(request, reply, new ApiError(200, Status.FORBIDDEN, serverMessages.incorrectPassword));
  }

  defineRoute(app, {
    method: 'PUT',
    path: paths.changeUsername,
    tag: 'identity',
    summary: 'Change the username: a forced update during sign-in (login transaction) or a signed-in change.',
    body: changeUsernameRequest,
    successData: changeUsernameData,
    codes: {
      [Status.SUCCESS]: 'Changed: successData.username is the new username ("You\'ve changed your username")',
      [Status.BLOCKED_FOR_RESET]:
        'Too many wrong passwords: the account is locked and its sessions end (as password authentication)',
      [Status.FORBIDDEN]: 'Incorrect password (the current password is wrong; counts toward the lockout)',
      [Status.USERNAME_TAKEN]: 'The username is taken (by another account, or it is the current one)',
      [Status.USERNAME_MIN_LENGTH]: 'Fewer than 8 characters',
      [Status.USERNAME_MAX_LENGTH]: 'More than 15 characters',
      [Status.USERNAME_NO_ALPHA]: '9-11 characters with fewer than 2 letters',
      [Status.USERNAME_INVALID_CHARACTER]: 'A character other than a letter or digit',
      [Status.USERNAME_GUIDELINES]:
        'A run of repeated or sequential characters, or more than 5 consecutive characters shared with the password',
      [Status.UNAUTHENTICATED]:
        'No session that may change the username: signed in, or a login transaction with a forced update (HTTP 401)',
    },
    handler: async ({ request, reply, body }) => {
      const { session, login, account } = await changer(request);

      const password = await checkPassword(ctx, account, body.password, {
        request,
        purpose: 'username change',
      });
      if (password !== 'right') return wrongPassword(request, reply, account, password);

      // The rules of the on-screen checklist, from the contract.
      const verdict = usernameStatus(body.username, body.password);
      if (verdict !== Status.SUCCESS) {
        const message =
          verdict === Status.USERNAME_GUIDELINES && !checkUsername(body.username, body.password).password
            ? serverMessages.usernameSharesWithPassword
            : (ruleMessages[verdict] ?? serverMessages.usernameGuidelines);
        return failure(request, reply, new ApiError(200, verdict, message));
      }

      const key = usernameKey(body.username);
      const taken = new ApiError(200, Status.USERNAME_TAKEN, serverMessages.usernameTaken);
      if (key === account.username_key) return failure(request, reply, taken);
      let changed: bigint;
      try {
        // One statement, so one transaction: name, key and the cleared flag change together. The
        // unique index on username_key decides a race for the same name: exactly one wins.
        const result = await db
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
        changed = result.numUpdatedRows;
      } catch (error) {
        if (isUniqueViolation(error)) return failure(request, reply, taken);
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
      return outcome(request, reply, Status.SUCCESS, serverMessages.usernameChanged, {
        successData: { username: body.username },
      });
    },
  });
}
