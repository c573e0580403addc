import { paths, Status, totpAuthenticationRequest } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import type { HeldCredentials } from '../../credentials/held.ts';
import type { Credential } from '../../credentials/store.ts';
import { answer, noLoginInProgress } from '../../lib/http.ts';
import { defineRoute } from '../../lib/route.ts';
import { usableFor, useOfJourney } from '../../security/credential-policy.ts';
import { claimStep, findStep, parametersOf, TryCounter, timeStep } from '../app-codes.ts';
import type { FactorJourney } from '../engine.ts';
import { FactorHolds } from '../holds.ts';
import type { FactorModule } from '../module.ts';
import { security } from './security.ts';
import { settings } from './settings.ts';

/**
 * The authenticator app (widget spec §2 "Authenticator-app (TOTP) screen" and "TOTP block page",
 * §4 status mapping; design: RFC 6238 SHA-1, 6 digits, 30 s, one step of skew, a used code never
 * accepted again, too many tries block it for 5 minutes). The account's `totp` credential holds the
 * secret (encrypted, decision 021) and, in its data, the last accepted time step.
 */

/** The counters' key in otp_counters: the block is the account's, across journeys and instances. */
export const TOTP_COUNTER = 'factor:totp';

/**
 * The account's authenticator apps (`totp` credentials) that may serve the journey, newest first: a
 * code of any one of them counts (a recent one signs in, never a step-up: credential-policy.ts).
 */
async function authenticatorApps(
  ctx: Context,
  accountId: string,
  journey: 'login' | 'stepup',
  held?: HeldCredentials,
): Promise<Credential[]> {
  const apps = held ? held.ofKind('totp') : await ctx.credentials.list(accountId, 'totp');
  return usableFor(ctx, apps, useOfJourney(journey)).reverse();
}

/** The app and time step whose code this is (within the skew), or undefined. */
async function matchCode(ctx: Context, apps: Credential[], code: string) {
  for (const credential of apps) {
    const parameters = parametersOf(credential);
    const now = timeStep(ctx.clock.now(), parameters.period);
    const secret = await ctx.credentials.readSecret(credential);
    try {
      const step = findStep(secret, code, now, ctx.config.totp.skewSteps, parameters);
      if (step !== null) return { credential, step, skew: step - now };
    } finally {
      secret.fill(0);
    }
  }
  return undefined;
}

function routes(app: FastifyInstance, ctx: Context) {
  const tries = new TryCounter(ctx.db, ctx.clock, TOTP_COUNTER);
  const holds = new FactorHolds(ctx);
  const { totp } = ctx.config;
  const blockMinutes = Math.round(totp.blockMs / 60_000);

  /**
   * 1491, the TOTP block page. `end` (only the compared wrong code that reached the limit): the LOGIN
   * journey ends too (its cookies are cleared). A code refused uncompared during a block leaves the
   * journey as it is: the block may have been set a moment ago by a try still in flight, whose right
   * code must still be able to complete the journey (and another factor still can).
   */
  const blocked = async (request: FastifyRequest, reply: FastifyReply, fj: FactorJourney, end: boolean) => {
    if (end) await ctx.engine.fail(request, reply, fj, 'TOTPAUTHN');
    return answer(request, reply, Status.LIMIT_REACHED, { message: 'totpBlocked', params: [blockMinutes] });
  };
  /** 1204 to the representative: held after repeated blocks until a recovery or the console (decision 033). */
  const held = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.REDIRECT_REP, { message: 'factorHeld' });
  const incorrect = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });

  defineRoute(app, {
    method: 'POST',
    path: paths.totpAuthentication,
    tag: 'factors',
    summary:
      'Check a code of the authenticator app (RFC 6238; LOGIN signs in, STEPUP proves the factor again). TOTP_MAX_WRONG_TRIES wrong codes block it for TOTP_BLOCK_MINUTES (1491).',
    body: totpAuthenticationRequest,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: fj }) => {
      const account = fj.account;
      const apps = account.status === 'active' ? await authenticatorApps(ctx, account.id, fj.kind) : [];
      if (!apps.length) return answer(request, reply, Status.REDIRECT_REP, { message: 'appCodeUnavailable' });
      await ctx.limiter.enforce(request, [
        [`code-check:journey:${fj.journey.id}`, ctx.config.codeCheck.session],
        [`code-check:account:${account.id}`, ctx.config.codeCheck.account],
      ]);

      // A hold refuses every code, uncompared, until a recovery or the console lifts it.
      if (await holds.held(account.id, 'totp')) {
        request.log.warn({ account: account.id, journey: fj.kind }, 'authenticator app: held');
        return held(request, reply);
      }
      // A block refuses every code, uncompared, until it runs out; then the count starts again (and
      // the block counts towards the hold).
      const state = await tries.state(account.id);
      if (state?.locked_until) {
        if (new Date(state.locked_until).getTime() > ctx.clock.now().getTime()) {
          request.log.warn({ account: account.id, journey: fj.kind }, 'authenticator app: blocked');
          return blocked(request, reply, fj, false);
        }
        await tries.clear(account.id, state.locked_until);
      }
      const reserved = await tries.reserve(account.id, totp.maxWrongTries, totp.blockMs);
      // The limit is taken by tries in flight (or a block began meanwhile): nothing is compared.
      if (reserved === undefined) return blocked(request, reply, fj, false);

      const match = await matchCode(ctx, apps, body.securityCode);
      if (match) {
        if (await claimStep(ctx.db, ctx.clock, match.credential.id, match.step)) {
          await tries.clear(account.id);
          const done = await ctx.engine.complete(request, reply, fj, 'TOTPAUTHN', {
            bindDevice: body.bindDevice,
          });
          // Another request on the same journey finished first (or it ended meanwhile).
          if (!done) throw noLoginInProgress();
          request.log.info(
            { account: account.id, journey: fj.kind, skew: match.skew, trusted: !!done.trustedUntil },
            'authenticator app: verified',
          );
          return answer(request, reply, Status.SUCCESS, {
            message: 'factorVerified',
            successData: {
              authenticated: true,
              factor: 'TOTPAUTHN',
              ...(done.steppedUpAt ? { steppedUpAt: done.steppedUpAt.toISOString() } : {}),
              ...(done.trustedUntil ? { trustedDeviceExpiresAt: done.trustedUntil.toISOString() } : {}),
            },
          });
        }
        // A code (time step) accepted before: refused, and not counted (it is not a guess).
        await tries.giveBack(account.id, totp.maxWrongTries);
        await ctx.audit.record(request, {
          event: 'factor-failed',
          outcome: 'failure',
          accountId: account.id,
          journeyId: fj.journey.id,
          detail: { factor: 'TOTPAUTHN', journey: fj.kind, reason: 'replay' },
        });
        request.log.warn({ account: account.id, journey: fj.kind }, 'authenticator app: code used before');
        return incorrect(request, reply);
      }

      await ctx.engine.wrong(request, fj, 'TOTPAUTHN', reserved);
      if (reserved >= totp.maxWrongTries) {
        request.log.warn(
          { account: account.id, journey: fj.kind },
          'authenticator app: too many wrong codes',
        );
        // The block that reached the hold: the journey goes on to the representative (whose
        // temporary code can still sign the owner in), or to another factor.
        if (await holds.blocked(request, account, 'totp', fj.journey.id)) return held(request, reply);
        return blocked(request, reply, fj, true);
      }
      return incorrect(request, reply);
    },
  });
}

/** The authenticator app (TOTPAUTHN): offered to an account with a `totp` credential. */
export const factor: FactorModule = {
  names: {
    key: 'totp',
    types: ['TOTPAUTHN'],
    credentialKinds: ['totp'],
    widgetRoutes: ['/authenticator/totp', '/authenticator/totp-block'],
    textGroup: 'appCodes',
    counterKey: TOTP_COUNTER,
    holds: ['totp'],
    operations: ['totpAuthentication'],
    auditEvents: ['security.authenticator-added', 'security.authenticator-failed'],
  },
  /** Its place in the list: after the push: codes of an app on a device the customer holds. */
  rank: 20,
  assurance: { level: 2, phishingResistant: false },
  settings,
  security,
  offer: async (ctx, account, held, journey = 'login') =>
    (await authenticatorApps(ctx, account.id, journey, held)).length ? [{ type: 'TOTPAUTHN' }] : [],
  routes,
  limits: (config) => ({
    TOTP_SKEW_STEPS: config.totp.skewSteps,
    TOTP_MAX_WRONG_TRIES: config.totp.maxWrongTries,
    TOTP_BLOCK_MINUTES: config.totp.blockMs / 60_000,
  }),
};
