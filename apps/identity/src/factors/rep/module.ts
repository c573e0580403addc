import type { RepCodePurpose } from '@gatehouse/contract';
import { otpCheck, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { REP_CHANNEL } from '../../console/plugin.ts';
import type { Context } from '../../context.ts';
import { answer, noLoginInProgress } from '../../lib/http.ts';
import { codeHash } from '../../lib/otp.ts';
import { defineRoute } from '../../lib/route.ts';
import { TryCounter } from '../app-codes.ts';
import type { FactorJourney } from '../engine.ts';
import type { FactorModule } from '../module.ts';
import { settings } from './settings.ts';

/**
 * The representative's code (widget spec §2 "Rep page"): the temporary security code a
 * representative issued for this customer in the console (console/plugin.ts; decision 028). It is
 * never in an account's list: the widget opens its page when the list is empty, a channel's limit is
 * reached, or the customer follows 'Can't receive the code?'. The code is the customer's, not a
 * journey's (the representative knows no journey): bound to the account by its HMAC, single use by
 * one conditional UPDATE, REP_CODE_MINUTES long. Wrong tries count per account, reserved before any
 * comparison (as every code: lib/otp.ts), FACTOR_MAX_WRONG_TRIES of them refuse the factor for
 * FACTOR_LOCKOUT_MINUTES and end the login journey.
 */

/** The counters' key in otp_counters. */
export const REP_COUNTER = 'factor:rep';

/** What checking a representative's code came to (as lib/otp.ts CheckResult). */
export type RepCheckResult =
  | { outcome: 'accepted' }
  | { outcome: 'wrong'; wrongTries: number; exhausted: boolean }
  | { outcome: 'used' }
  | { outcome: 'busy' };

/**
 * Checks a code a representative issued for `purpose` (the sign-in's factor, or recovery:
 * docs/decisions/043-recovery-channels.md), counting tries under `counter`. A try is reserved
 * before anything is compared (as lib/otp.ts): one conditional upsert adds it only while the count
 * is under `maxWrongTries`, so a burst compares at most that many codes ('busy' beyond: answered as a
 * wrong code, nothing compared). One conditional UPDATE uses the code, so of any number of
 * simultaneous right submissions exactly one is accepted; the losers give their try back ('used').
 * It sets no lock: the caller locks on an exhausted wrong code, as its journey locks.
 */
export async function checkRepCode(
  ctx: Context,
  input: { accountId: string; code: string; purpose: RepCodePurpose; counter: string; maxWrongTries: number },
): Promise<RepCheckResult> {
  const { accountId, counter } = input;
  const now = ctx.clock.now();
  const reserved = await sql<{ wrong_tries: number }>`
    insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at)
    values (${accountId}, ${counter}, 1, 0, ${now})
    on conflict (account_id, channel) do update set
      wrong_tries = otp_counters.wrong_tries + 1, updated_at = ${now}
      where otp_counters.wrong_tries < ${input.maxWrongTries}
    returning wrong_tries`.execute(ctx.db);
  const tries = reserved.rows[0]?.wrong_tries;
  if (tries === undefined) return { outcome: 'busy' };

  const hash = codeHash(ctx.config.otp.pepper, accountId, REP_CHANNEL, input.code);
  const accepted = await ctx.db
    .updateTable('rep_codes')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', hash)
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  if (accepted) {
    await ctx.db
      .updateTable('otp_counters')
      .set({ wrong_tries: 0, unentered_sends: 0, locked_until: null, updated_at: now })
      .where('account_id', '=', accountId)
      .where('channel', '=', counter)
      .execute();
    return { outcome: 'accepted' };
  }
  // The right code, already used (a double submit, or the losers of a race): refused, not a guess.
  const used = await ctx.db
    .selectFrom('rep_codes')
    .select('id')
    .where('account_id', '=', accountId)
    .where('code_hash', '=', hash)
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is not', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (used) {
    await sql`update otp_counters set wrong_tries = greatest(wrong_tries - 1, 0)
      where account_id = ${accountId} and channel = ${counter}`.execute(ctx.db);
    return { outcome: 'used' };
  }
  return { outcome: 'wrong', wrongTries: tries, exhausted: tries >= input.maxWrongTries };
}

/** Whether the account has a live (unused, unexpired) representative's code for `purpose`. */
export async function liveRepCode(
  ctx: Context,
  accountId: string,
  purpose: RepCodePurpose,
): Promise<boolean> {
  return !!(await ctx.db
    .selectFrom('rep_codes')
    .select('id')
    .where('account_id', '=', accountId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.clock.now())
    .executeTakeFirst());
}

/** Cancels the account's live representative's codes for `purpose` (a recovery lock). */
export async function revokeRepCodes(
  ctx: Context,
  accountId: string,
  purpose: RepCodePurpose,
): Promise<void> {
  await ctx.db
    .updateTable('rep_codes')
    .set({ revoked_at: ctx.clock.now() })
    .where('account_id', '=', accountId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

function routes(app: FastifyInstance, ctx: Context) {
  const tries = new TryCounter(ctx.db, ctx.clock, REP_COUNTER);
  const { factor } = ctx.config;

  const limitReached = async (
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    end: boolean,
  ) => {
    if (end) await ctx.engine.fail(request, reply, fj, 'OTP-REP');
    return answer(request, reply, Status.LIMIT_REACHED, { message: 'factorLimitReached' });
  };
  const incorrect = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });

  defineRoute(app, {
    method: 'PUT',
    path: paths.otpRep,
    tag: 'factors',
    summary:
      "Check the temporary security code a representative issued in the console (LOGIN signs in, STEPUP proves the factor again). Single use, REP_CODE_MINUTES, this customer's only.",
    body: otpCheck,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: fj }) => {
      const account = fj.account;
      if (account.status !== 'active') return limitReached(request, reply, fj, false);
      await ctx.limiter.enforce(request, [
        [`code-check:journey:${fj.journey.id}`, ctx.config.codeCheck.session],
        [`code-check:account:${account.id}`, ctx.config.codeCheck.account],
      ]);

      // A lock refuses every code, uncompared, until it runs out; then the count starts again.
      const state = await tries.state(account.id);
      if (state?.locked_until) {
        if (new Date(state.locked_until).getTime() > ctx.clock.now().getTime()) {
          request.log.warn({ account: account.id, journey: fj.kind }, 'representative code: refused (limit)');
          return limitReached(request, reply, fj, false);
        }
        await tries.clear(account.id, state.locked_until);
      }
      const result = await checkRepCode(ctx, {
        accountId: account.id,
        code: body.securityCode,
        purpose: 'factor',
        counter: REP_COUNTER,
        maxWrongTries: factor.maxWrongTries,
      });
      // The limit is taken by tries in flight (a burst): nothing is compared, answered as a wrong
      // code (lib/otp.ts 'busy'); only a compared wrong code that reaches the limit locks.
      if (result.outcome === 'busy') return incorrect(request, reply);
      if (result.outcome === 'accepted') {
        const done = await ctx.engine.complete(request, reply, fj, 'OTP-REP', {
          bindDevice: body.bindDevice,
        });
        if (!done) throw noLoginInProgress();
        request.log.info({ account: account.id, journey: fj.kind }, 'representative code: verified');
        return answer(request, reply, Status.SUCCESS, {
          message: 'factorVerified',
          successData: {
            authenticated: true,
            factor: 'OTP-REP',
            ...(done.steppedUpAt ? { steppedUpAt: done.steppedUpAt.toISOString() } : {}),
            ...(done.trustedUntil ? { trustedDeviceExpiresAt: done.trustedUntil.toISOString() } : {}),
          },
        });
      }
      if (result.outcome === 'used') {
        request.log.info({ account: account.id }, 'representative code: used before');
        return incorrect(request, reply);
      }
      const reserved = result.wrongTries;
      await ctx.engine.wrong(request, fj, 'OTP-REP', reserved);
      if (reserved >= factor.maxWrongTries) {
        await ctx.db
          .updateTable('otp_counters')
          .set({ locked_until: new Date(ctx.clock.now().getTime() + factor.lockoutMs) })
          .where('account_id', '=', account.id)
          .where('channel', '=', REP_COUNTER)
          .execute();
        request.log.warn(
          { account: account.id, journey: fj.kind },
          'representative code: too many wrong codes',
        );
        return limitReached(request, reply, fj, true);
      }
      return incorrect(request, reply);
    },
  });
}

export const factor: FactorModule = {
  names: {
    key: 'rep',
    types: ['OTP-REP'],
    credentialKinds: [],
    widgetRoutes: ['/authenticator/rep'],
    textGroup: 'otp',
    counterKey: REP_COUNTER,
    operations: ['otpRep'],
  },
  /** Its place in the list: last: the representative's temporary code (the widget's default page when nothing else is offered). */
  rank: 50,
  assurance: { level: 2, phishingResistant: false },
  settings,
  offer: () => [],
  routes,
  limits: (config) => ({
    REP_CODE_MINUTES: config.console.repCodeMs / 60_000,
    FACTOR_MAX_WRONG_TRIES: config.factor.maxWrongTries,
    FACTOR_LOCKOUT_MINUTES: config.factor.lockoutMs / 60_000,
    CODE_CHECK_SESSION_MAX: config.codeCheck.session.max,
    CODE_CHECK_ACCOUNT_MAX: config.codeCheck.account.max,
  }),
};
