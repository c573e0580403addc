import {
  paths,
  Status,
  svipAuthenticationRequest,
  svipStatusData,
  svipSynchronizationData,
  svipSynchronizationRequest,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import type { HeldCredentials } from '../../credentials/held.ts';
import type { Credential } from '../../credentials/store.ts';
import { answer, noLoginInProgress } from '../../lib/http.ts';
import { defineRoute } from '../../lib/route.ts';
import { usableFor, useOfJourney } from '../../security/credential-policy.ts';
import { notifyOwner } from '../../services/account-security.ts';
import { claimStep, findConsecutive, findStep, parametersOf, TryCounter, timeStep } from '../app-codes.ts';
import type { FactorJourney } from '../engine.ts';
import { FactorHolds } from '../holds.ts';
import type { FactorModule } from '../module.ts';
import { security } from './security.ts';
import { settings } from './settings.ts';

/**
 * The token app, VIP-style (widget spec §2 "Token app code screen" and "Token resync screen", §3
 * "Token challenge", §4 "Token flow"; design: an RFC 6238 credential with an id, 2 wrong codes send
 * the user to resync, resync takes two consecutive codes inside a look-ahead window and stores the
 * drift). The account's `token` credential: public part the credential id (`VSST` + 8 digits), the
 * secret encrypted (decision 021), in its data `drift` (the token's clock minus the server's, in
 * steps) and `lastStep` (the last accepted step of the token's clock).
 */

/** The widget's token screen (packages/signin routes.authenticatorSvip): where a resync sends it back. */
export const TOKEN_SCREEN_PATH = '/authenticator/svip';
/**
 * The account's wrong token codes and resyncs in otp_counters, across journeys and instances: at
 * TOKEN_MAX_WRONG_TRIES the token is blocked for TOKEN_BLOCK_MINUTES, and the blocks count towards
 * the hold (factors/holds.ts; decision 033). A new journey never starts the count again.
 */
export const TOKEN_COUNTER = 'factor:token';
/** The journey's counts (journey_tries, through JourneyStore). */
const WRONG = 'token-wrong';
const SYNC_WRONG = 'token-sync-wrong';

/** The account's tokens that may serve the journey (a recent one signs in, never a step-up: credential-policy.ts). */
const tokens = async (ctx: Context, accountId: string, journey: 'login' | 'stepup', held?: HeldCredentials) =>
  usableFor(
    ctx,
    held ? held.ofKind('token') : await ctx.credentials.list(accountId, 'token'),
    useOfJourney(journey),
  );
const driftOf = (credential: Credential) =>
  typeof credential.data.drift === 'number' && Number.isInteger(credential.data.drift)
    ? credential.data.drift
    : 0;

function routes(app: FastifyInstance, ctx: Context) {
  const { token, totp } = ctx.config;
  const accountTries = new TryCounter(ctx.db, ctx.clock, TOKEN_COUNTER);
  const holds = new FactorHolds(ctx);
  const blockMinutes = Math.round(token.blockMs / 60_000);

  /**
   * The account's refusal before anything is compared: held (until lifted), or blocked (until the
   * block runs out; then the count starts again). Undefined: the token may be tried.
   */
  const refusal = async (request: FastifyRequest, reply: FastifyReply, fj: FactorJourney) => {
    if (await holds.held(fj.account.id, 'token')) {
      request.log.warn({ account: fj.account.id, journey: fj.kind }, 'token: held');
      return answer(request, reply, Status.REDIRECT_REP, { message: 'factorHeld' });
    }
    const state = await accountTries.state(fj.account.id);
    if (state?.locked_until) {
      if (new Date(state.locked_until).getTime() > ctx.clock.now().getTime()) return blocked(request, reply);
      await accountTries.clear(fj.account.id, state.locked_until);
    }
    return undefined;
  };
  const blocked = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.REDIRECT_REP, { message: 'totpBlocked', params: [blockMinutes] });
  /** Reserves a try of the account (undefined: none left; the journey's try `giveBack` goes back). */
  const reserveAccountTry = async (fj: FactorJourney, giveBack: string) => {
    const reserved = await accountTries.reserve(fj.account.id, token.maxWrongTries, token.blockMs);
    if (reserved === undefined) await ctx.journeys.giveBackTry(fj.journey.id, giveBack);
    return reserved;
  };
  /**
   * A compared wrong code or resync: the one that reached TOKEN_MAX_WRONG_TRIES set the block, which
   * counts towards the hold. The answer then (1204), or undefined for the call's own.
   */
  const afterWrong = async (
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    reserved: number,
  ) => {
    if (reserved < token.maxWrongTries) return undefined;
    request.log.warn({ account: fj.account.id, journey: fj.kind }, 'token: too many wrong codes, blocked');
    await ctx.audit.record(request, {
      event: 'factor-locked',
      outcome: 'failure',
      accountId: fj.account.id,
      journeyId: fj.journey.id,
      detail: { factor: 'TOTPSVIP', journey: fj.kind },
    });
    if (await holds.blocked(request, fj.account, 'token', fj.journey.id)) {
      return answer(request, reply, Status.REDIRECT_REP, { message: 'factorHeld' });
    }
    // The try that set the block tells the owner, as every factor's does (decision 030); the hold
    // above has a notice of its own instead.
    await notifyOwner(ctx, request, fj.account, 'factor-blocked');
    return blocked(request, reply);
  };

  const checkLimits = (request: FastifyRequest, fj: FactorJourney) =>
    ctx.limiter.enforce(request, [
      [`code-check:journey:${fj.journey.id}`, ctx.config.codeCheck.session],
      [`code-check:account:${fj.account.id}`, ctx.config.codeCheck.account],
    ]);

  defineRoute(app, {
    method: 'GET',
    path: paths.svipStatus,
    tag: 'factors',
    summary:
      "The account's token credentials (the widget uses the first): successData.credentials [{ credentialId, name }].",
    successData: svipStatusData,
    auth: 'factor',
    handler: async ({ request, reply, auth: fj }) => {
      const list = fj.account.status === 'active' ? await tokens(ctx, fj.account.id, fj.kind) : [];
      return answer(request, reply, Status.SUCCESS, {
        message: 'success',
        successData: {
          credentials: list
            .filter((c) => c.publicPart)
            .map((c) => ({ credentialId: c.publicPart as string, name: c.name })),
        },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.svipAuthentication,
    tag: 'factors',
    summary:
      "Check a code of the token (its stored drift, TOTP_SKEW_STEPS either way; LOGIN signs in, STEPUP proves the factor again). The journey's TOKEN_FAILURES_BEFORE_SYNC-th wrong code answers 1491: resync.",
    body: svipAuthenticationRequest,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: fj }) => {
      const id = body.credentialId.trim().toUpperCase();
      const credential =
        fj.account.status === 'active'
          ? (await tokens(ctx, fj.account.id, fj.kind)).find((c) => c.publicPart === id)
          : undefined;
      if (!credential) return answer(request, reply, Status.REDIRECT_REP, { message: 'appCodeUnavailable' });
      await checkLimits(request, fj);
      const refused = await refusal(request, reply, fj);
      if (refused) return refused;

      const tries = await ctx.journeys.countTry(fj.journey.id, WRONG, token.failuresBeforeSync);
      // The journey's wrong codes are spent: only a resync lets it try again (nothing is compared).
      if (tries === undefined) {
        return answer(request, reply, Status.LIMIT_REACHED, { message: 'tokenSyncRequired' });
      }
      const accountTry = await reserveAccountTry(fj, WRONG);
      if (accountTry === undefined) return blocked(request, reply);
      const parameters = parametersOf(credential);
      const secret = await ctx.credentials.readSecret(credential);
      const center = timeStep(ctx.clock.now(), parameters.period) + driftOf(credential);
      let step: number | null;
      try {
        step = findStep(secret, body.securityCode1, center, totp.skewSteps, parameters);
      } finally {
        secret.fill(0);
      }
      if (step !== null) {
        if (await claimStep(ctx.db, ctx.clock, credential.id, step)) {
          await accountTries.clear(fj.account.id);
          const done = await ctx.engine.complete(request, reply, fj, 'TOTPSVIP', {
            bindDevice: body.bindDevice,
          });
          if (!done) throw noLoginInProgress();
          request.log.info(
            { account: fj.account.id, journey: fj.kind, skew: step - center, trusted: !!done.trustedUntil },
            'token: verified',
          );
          return answer(request, reply, Status.SUCCESS, {
            message: 'factorVerified',
            successData: {
              authenticated: true,
              factor: 'TOTPSVIP',
              ...(done.steppedUpAt ? { steppedUpAt: done.steppedUpAt.toISOString() } : {}),
              ...(done.trustedUntil ? { trustedDeviceExpiresAt: done.trustedUntil.toISOString() } : {}),
            },
          });
        }
        // A step accepted before (a replay, or the loser of a double submit): refused, not counted.
        await ctx.journeys.giveBackTry(fj.journey.id, WRONG);
        await accountTries.giveBack(fj.account.id, token.maxWrongTries);
        await ctx.audit.record(request, {
          event: 'factor-failed',
          outcome: 'failure',
          accountId: fj.account.id,
          journeyId: fj.journey.id,
          detail: { factor: 'TOTPSVIP', journey: fj.kind, reason: 'replay' },
        });
        return answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });
      }
      await ctx.engine.wrong(request, fj, 'TOTPSVIP', tries);
      const stop = await afterWrong(request, reply, fj, accountTry);
      if (stop) return stop;
      if (tries >= token.failuresBeforeSync) {
        request.log.info({ account: fj.account.id, journey: fj.kind }, 'token: wrong codes, resync asked');
        return answer(request, reply, Status.LIMIT_REACHED, { message: 'tokenSyncRequired' });
      }
      return answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.svipSynchronization,
    tag: 'factors',
    summary:
      "Resynchronise the account's token with two consecutive codes found within TOKEN_RESYNC_WINDOW_MINUTES either way of the token's clock (RFC 4226 §7.4), newer than any accepted before: the drift is stored and redirectPath leads back to the token screen, where the token's current code signs in.",
    body: svipSynchronizationRequest,
    successData: svipSynchronizationData,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: fj }) => {
      // The widget's first credential (svip/status); the call names none (widget spec §3).
      const credential =
        fj.account.status === 'active'
          ? (await tokens(ctx, fj.account.id, fj.kind)).find((c) => c.publicPart)
          : undefined;
      if (!credential) return answer(request, reply, Status.REDIRECT_REP, { message: 'appCodeUnavailable' });
      await checkLimits(request, fj);
      const refused = await refusal(request, reply, fj);
      if (refused) return refused;
      const tries = await ctx.journeys.countTry(fj.journey.id, SYNC_WRONG, token.syncMaxTries);
      if (tries === undefined) {
        return answer(request, reply, Status.TOTP_REDIRECT_REP, { message: 'factorLimitReached' });
      }
      const accountTry = await reserveAccountTry(fj, SYNC_WRONG);
      if (accountTry === undefined) return blocked(request, reply);
      const parameters = parametersOf(credential);
      const serverStep = timeStep(ctx.clock.now(), parameters.period);
      const secret = await ctx.credentials.readSecret(credential);
      let first: number | null;
      try {
        first = findConsecutive(
          secret,
          body.securityCode1,
          body.securityCode2,
          serverStep + driftOf(credential),
          // The window in steps of the token's period, either way of the token's clock.
          Math.max(1, Math.floor(token.resyncWindowMs / (parameters.period * 1000))),
          parameters,
        );
      } finally {
        secret.fill(0);
      }
      // The second code is the token's newest: the drift is its step minus the server's. Both steps
      // must be newer than any accepted before. The first is recorded as the last accepted step, so
      // neither pair nor any older code is accepted again, while the token's current code (the
      // second, until the token moves on) signs in once on the token screen.
      const drift = first === null ? 0 : first + 1 - serverStep;
      if (first !== null && (await claimStep(ctx.db, ctx.clock, credential.id, first, { drift }, first))) {
        await accountTries.clear(fj.account.id);
        await ctx.journeys.clearTries(fj.journey.id, [WRONG, SYNC_WRONG]);
        await ctx.audit.record(request, {
          event: 'token-resynced',
          outcome: 'success',
          accountId: fj.account.id,
          journeyId: fj.journey.id,
          detail: { factor: 'TOTPSVIP', journey: fj.kind, drift, previousDrift: driftOf(credential) },
        });
        request.log.info({ account: fj.account.id, journey: fj.kind, drift }, 'token: resynchronised');
        return answer(request, reply, Status.SUCCESS, {
          message: 'tokenResynced',
          redirectPath: TOKEN_SCREEN_PATH,
          successData: { drift },
        });
      }
      await ctx.audit.record(request, {
        event: 'token-resync-failed',
        outcome: 'failure',
        accountId: fj.account.id,
        journeyId: fj.journey.id,
        detail: {
          factor: 'TOTPSVIP',
          journey: fj.kind,
          wrongTries: tries,
          ...(first !== null ? { reason: 'replay' } : {}),
        },
      });
      // A replayed pair is not a guess: the account's try goes back (the journey's stays).
      if (first !== null) await accountTries.giveBack(fj.account.id, token.maxWrongTries);
      else {
        const stop = await afterWrong(request, reply, fj, accountTry);
        if (stop) return stop;
      }
      if (tries >= token.syncMaxTries) {
        request.log.warn({ account: fj.account.id, journey: fj.kind }, 'token: resync limit reached');
        return answer(request, reply, Status.TOTP_REDIRECT_REP, { message: 'factorLimitReached' });
      }
      return answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });
    },
  });
}

/** The token app (TOTPSVIP): offered to an account with a `token` credential. */
export const factor: FactorModule = {
  names: {
    key: 'token',
    types: ['TOTPSVIP'],
    credentialKinds: ['token'],
    widgetRoutes: ['/authenticator/svip', '/authenticator/svip/sync'],
    textGroup: 'appCodes',
    counterKey: TOKEN_COUNTER,
    holds: ['token'],
    operations: ['svipStatus', 'svipAuthentication', 'svipSynchronization'],
    auditEvents: ['token-resynced', 'token-resync-failed'],
  },
  /** Its place in the list: after the authenticator app: the token app's codes. */
  rank: 30,
  assurance: { level: 2, phishingResistant: false },
  settings,
  security,
  offer: async (ctx, account, held, journey = 'login') =>
    (await tokens(ctx, account.id, journey, held)).some((c) => c.publicPart) ? [{ type: 'TOTPSVIP' }] : [],
  routes,
  limits: (config) => ({
    TOKEN_FAILURES_BEFORE_SYNC: config.token.failuresBeforeSync,
    TOKEN_RESYNC_WINDOW_MINUTES: config.token.resyncWindowMs / 60_000,
    TOKEN_SYNC_MAX_TRIES: config.token.syncMaxTries,
    TOKEN_MAX_WRONG_TRIES: config.token.maxWrongTries,
    TOKEN_BLOCK_MINUTES: config.token.blockMs / 60_000,
  }),
};
