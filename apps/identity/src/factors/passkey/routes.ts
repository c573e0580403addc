import { randomBytes } from 'node:crypto';
import { Status } from '@gatehouse/contract';
import {
  passkeyAuthenticationRequest,
  passkeyLoginAssertionRequest,
  passkeyOptionsRequest,
  passkeyPaths,
} from '@gatehouse/contract/factors/passkey';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import type { HeldCredentials } from '../../credentials/held.ts';
import type { Credential } from '../../credentials/store.ts';
import { sha256 } from '../../lib/crypto.ts';
import { answer, noLoginInProgress } from '../../lib/http.ts';
import { clientKey } from '../../lib/rate-limit.ts';
import { defineRoute } from '../../lib/route.ts';
import { mayUse, usableFor, useOfJourney } from '../../security/credential-policy.ts';
import { findAccountById } from '../../services/accounts.ts';
import { cookieOptions } from '../../services/cookies.ts';
import { TryCounter } from '../app-codes.ts';
import type { FactorJourney } from '../engine.ts';
import { FactorHolds } from '../holds.ts';
import { expectedOrigins, type PasskeySettings, passkeySettingsOf } from './settings.ts';
import { advanceCounter, PasskeyChallenges, passkeyById, passkeyData, suspend } from './store.ts';

/** The counters' key in otp_counters: the passkey's wrong tries, per account. */
export const PASSKEY_COUNTER = 'factor:passkey';
export const PASSKEY = 'PASSKEY' as const;

/** The login screen's browser binding (conditional mediation): an HttpOnly cookie, its hash stored. */
export const loginCookieName = (ctx: Context) =>
  `${ctx.config.cookieHostPrefix ? '__Host-' : ''}passkey_login`;

/** What a browser's client data names: its challenge and origin (each undefined when not readable). */
function clientData(clientDataJSON: string): { challenge?: unknown; origin?: unknown } {
  try {
    const data: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    return typeof data === 'object' && data ? data : {};
  } catch {
    return {};
  }
}

/** The challenge a browser signed (clientDataJSON.challenge), or undefined when it is not readable. */
export function signedChallenge(clientDataJSON: string): string | undefined {
  const { challenge } = clientData(clientDataJSON);
  return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,512}$/.test(challenge) ? challenge : undefined;
}

/** The origins a response may come from (settings.ts `expectedOrigins`), given the one it names. */
export function originsFor(ctx: Context, clientDataJSON: string): string[] {
  const { origin } = clientData(clientDataJSON);
  return expectedOrigins(ctx.config, typeof origin === 'string' ? origin : undefined);
}

const suspended = (c: Credential) => passkeyData(c).suspendedAt !== undefined;

/**
 * The account's passkeys that may serve the journey: a recent one signs in, never a step-up
 * (credential-policy.ts); a suspended one (its counter went backwards) never.
 */
export async function usablePasskeys(
  ctx: Context,
  accountId: string,
  journey: 'login' | 'stepup',
  held?: HeldCredentials,
) {
  const all = held ? held.ofKind('passkey') : await ctx.credentials.list(accountId, 'passkey');
  return usableFor(ctx, all, useOfJourney(journey)).filter((c) => !suspended(c));
}

const descriptor = (c: Credential) => ({
  id: c.publicPart ?? '',
  transports: passkeyData(c).transports as AuthenticatorTransportFuture[],
});

/** Verifies an assertion against a stored passkey; undefined when anything fails to check out. */
async function verifyAssertion(
  ctx: Context,
  settings: PasskeySettings,
  response: AuthenticationResponseJSON,
  challenge: string,
  credential: Credential,
) {
  const data = passkeyData(credential);
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: originsFor(ctx, response.response.clientDataJSON),
      expectedRPID: settings.rpId,
      // The counter is compared after the signature (store.ts advanceCounter), so only a
      // verified assertion can mark a passkey as cloned.
      credential: {
        id: credential.publicPart ?? '',
        publicKey: isoBase64URL.toBuffer(data.publicKey),
        counter: 0,
        transports: data.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: true,
    });
    return result.verified ? result.authenticationInfo : undefined;
  } catch {
    return undefined;
  }
}

export function passkeyRoutes(app: FastifyInstance, ctx: Context) {
  const settings = passkeySettingsOf(ctx.config);
  const challenges = new PasskeyChallenges(ctx);
  const tries = new TryCounter(ctx.db, ctx.clock, PASSKEY_COUNTER);
  const holds = new FactorHolds(ctx);
  const blockMinutes = Math.round(settings.blockMs / 60_000);
  const tag = 'factors';

  const notRecognized = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.FORBIDDEN, { message: 'passkeyNotRecognized' });
  const expired = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.INCORRECT_CODE, { message: 'passkeyChallengeExpired' });
  const notVerified = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.INCORRECT_CODE, { message: 'passkeyNotVerified' });
  const unavailable = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.REDIRECT_REP, { message: 'appCodeUnavailable' });
  /** 1204 to the representative: held after repeated blocks until a recovery or the console (decision 033). */
  const held = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.REDIRECT_REP, { message: 'passkeyHeld' });

  /** A refused passkey step, for the audit trail (never a credential ID or a signature). */
  const refused = (request: FastifyRequest, fj: FactorJourney, reason: string) =>
    ctx.audit.record(request, {
      event: 'factor-failed',
      outcome: 'failure',
      accountId: fj.account.id,
      journeyId: fj.journey.id,
      detail: { factor: PASSKEY, journey: fj.kind, reason },
    });

  /** A verified assertion whose counter went backwards: refused, audited, the passkey suspended. */
  async function cloned(request: FastifyRequest, credential: Credential, journeyId?: string) {
    await suspend(ctx, credential);
    await ctx.audit.record(request, {
      event: 'passkey-counter-regressed',
      outcome: 'failure',
      accountId: credential.accountId,
      ...(journeyId ? { journeyId } : {}),
      detail: { factor: PASSKEY, credential: credential.id, stored: passkeyData(credential).counter },
    });
    request.log.warn(
      { account: credential.accountId, credential: credential.id },
      'passkey: counter regressed',
    );
  }

  defineRoute(app, {
    method: 'POST',
    path: passkeyPaths.passkeyOptions,
    tag,
    summary:
      "Start a passkey check (sign-in or step-up): a single-use challenge bound to this journey (PASSKEY_CHALLENGE_SECONDS), allowCredentials the account's passkeys usable for it, user verification required.",
    body: passkeyOptionsRequest,
    auth: 'factor',
    handler: async ({ request, reply, auth: fj }) => {
      const keys = fj.account.status === 'active' ? await usablePasskeys(ctx, fj.account.id, fj.kind) : [];
      if (!keys.length) return unavailable(request, reply);
      await ctx.limiter.enforce(request, [
        [`code-check:journey:${fj.journey.id}`, ctx.config.codeCheck.session],
        [`code-check:account:${fj.account.id}`, ctx.config.codeCheck.account],
      ]);
      if (await holds.held(fj.account.id, 'passkey')) return held(request, reply);
      const options = await generateAuthenticationOptions({
        rpID: settings.rpId,
        allowCredentials: keys.map(descriptor),
        userVerification: 'required',
        timeout: settings.challengeMs,
      });
      await challenges.issue({
        purpose: 'journey',
        challenge: options.challenge,
        binding: `journey:${fj.journey.id}`,
        accountId: fj.account.id,
        ttlMs: settings.challengeMs,
      });
      return answer(request, reply, Status.SUCCESS, { successData: { options } });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: passkeyPaths.passkeyAuthentication,
    tag,
    summary:
      "Check a passkey's assertion against this journey's challenge (or the login screen's single-use proof): LOGIN signs in, STEPUP proves the factor again; a phishing-resistant proof. A counter that goes backwards is refused and the passkey suspended; PASSKEY_MAX_WRONG_TRIES assertions that do not verify block it for PASSKEY_BLOCK_MINUTES.",
    body: passkeyAuthenticationRequest,
    auth: 'factor',
    handler: async ({ request, reply, body, auth: fj }) => {
      const { account } = fj;
      const keys = account.status === 'active' ? await usablePasskeys(ctx, account.id, fj.kind) : [];
      if (!keys.length) return unavailable(request, reply);
      await ctx.limiter.enforce(request, [
        [`code-check:journey:${fj.journey.id}`, ctx.config.codeCheck.session],
        [`code-check:account:${account.id}`, ctx.config.codeCheck.account],
      ]);
      // A hold refuses every assertion, unverified, until a recovery or the console lifts it.
      if (await holds.held(account.id, 'passkey')) {
        await refused(request, fj, 'held');
        return held(request, reply);
      }
      const state = await tries.state(account.id);
      if (state?.locked_until) {
        if (new Date(state.locked_until).getTime() > ctx.clock.now().getTime()) {
          return answer(request, reply, Status.LIMIT_REACHED, {
            message: 'passkeyBlocked',
            params: [blockMinutes],
          });
        }
        await tries.clear(account.id, state.locked_until);
      }

      let credential: Credential | undefined;
      if ('proof' in body) {
        // The login screen's proof: this account's login journey, from the same browser, once.
        const browser = loginBrowser(ctx, request);
        const used =
          fj.kind === 'login' && browser
            ? await challenges.consume('proof', `browser:${browser}`, {
                id: body.proof,
                accountId: account.id,
              })
            : undefined;
        credential = used ? keys.find((k) => k.id === used.credential_id) : undefined;
        if (!credential) {
          await refused(request, fj, 'proof');
          return notRecognized(request, reply);
        }
      } else {
        const { response } = body;
        credential = keys.find((k) => k.publicPart === response.id);
        if (!credential) {
          await refused(request, fj, 'unknown-credential');
          return notRecognized(request, reply);
        }
        const challenge = signedChallenge(response.response.clientDataJSON);
        const used = challenge
          ? await challenges.consume('journey', `journey:${fj.journey.id}`, { challenge })
          : undefined;
        if (!challenge || !used) {
          await refused(request, fj, 'challenge');
          return expired(request, reply);
        }
        const info = await verifyAssertion(
          ctx,
          settings,
          response as AuthenticationResponseJSON,
          challenge,
          credential,
        );
        if (!info) {
          const reserved = await tries.reserve(account.id, settings.maxWrongTries, settings.blockMs);
          await ctx.engine.wrong(request, fj, PASSKEY, reserved);
          // The block that reached the hold: the journey goes on to the representative (whose
          // temporary code can still sign the owner in), or to another factor.
          if (reserved !== undefined && reserved >= settings.maxWrongTries) {
            if (await holds.blocked(request, account, 'passkey', fj.journey.id)) return held(request, reply);
          }
          if (reserved === undefined || reserved >= settings.maxWrongTries) {
            await ctx.engine.fail(request, reply, fj, PASSKEY, { blockedNow: reserved !== undefined });
            return answer(request, reply, Status.LIMIT_REACHED, {
              message: 'passkeyBlocked',
              params: [blockMinutes],
            });
          }
          return notVerified(request, reply);
        }
        if (!(await advanceCounter(ctx, credential, info.newCounter, info.credentialBackedUp))) {
          await cloned(request, credential, fj.journey.id);
          return notRecognized(request, reply);
        }
      }

      await tries.clear(account.id);
      await ctx.credentials.markUsed(credential.id);
      const done = await ctx.engine.complete(request, reply, fj, PASSKEY, { bindDevice: body.bindDevice });
      if (!done) throw noLoginInProgress();
      request.log.info(
        { account: account.id, journey: fj.kind, trusted: !!done.trustedUntil },
        'passkey: verified',
      );
      return answer(request, reply, Status.SUCCESS, {
        message: 'factorVerified',
        successData: {
          authenticated: true,
          factor: PASSKEY,
          ...(done.steppedUpAt ? { steppedUpAt: done.steppedUpAt.toISOString() } : {}),
          ...(done.trustedUntil ? { trustedDeviceExpiresAt: done.trustedUntil.toISOString() } : {}),
        },
      });
    },
  });

  // --- the login screen (conditional mediation; decision 041) ---------------------------------------
  defineRoute(app, {
    method: 'POST',
    path: passkeyPaths.passkeyLoginOptions,
    tag,
    summary:
      'The login screen, before the password: a challenge for conditional mediation (empty allowCredentials), bound to this browser by the HttpOnly passkey_login cookie; single use, PASSKEY_CHALLENGE_SECONDS; rate limited per address.',
    body: passkeyOptionsRequest,
    handler: async ({ request, reply }) => {
      await ctx.limiter.enforce(request, [
        [`passkey-login:client:${clientKey(request.ip)}`, ctx.config.rateLimits.client],
      ]);
      let token = request.cookies[loginCookieName(ctx)];
      if (!token || !/^[A-Za-z0-9_-]{32}$/.test(token)) {
        token = randomBytes(24).toString('base64url');
        reply.setCookie(loginCookieName(ctx), token, {
          ...cookieOptions(ctx),
          maxAge: Math.ceil(ctx.config.loginFlowMs / 1000),
        });
      }
      const options = await generateAuthenticationOptions({
        rpID: settings.rpId,
        allowCredentials: [],
        userVerification: 'required',
        timeout: settings.challengeMs,
      });
      await challenges.issue({
        purpose: 'login',
        challenge: options.challenge,
        binding: `browser:${sha256(token)}`,
        ttlMs: settings.challengeMs,
      });
      return answer(request, reply, Status.SUCCESS, { successData: { options } });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: passkeyPaths.passkeyLoginAssertion,
    tag,
    summary:
      "The login screen's passkey assertion: the passkey's account's username (the customer still types the password) and a single-use proof that completes the passkey factor of that account's login journey from this browser.",
    body: passkeyLoginAssertionRequest,
    handler: async ({ request, reply, body }) => {
      await ctx.limiter.enforce(request, [
        [`passkey-login:client:${clientKey(request.ip)}`, ctx.config.rateLimits.client],
      ]);
      const { response } = body;
      const browser = loginBrowser(ctx, request);
      const challenge = signedChallenge(response.response.clientDataJSON);
      const used =
        browser && challenge
          ? await challenges.consume('login', `browser:${browser}`, { challenge })
          : undefined;
      if (!browser || !challenge || !used) return expired(request, reply);
      const credential = await passkeyById(ctx, response.id);
      const account = credential ? await findAccountById(ctx.db, credential.accountId) : undefined;
      if (!credential || !account || account.status !== 'active' || suspended(credential)) {
        return notRecognized(request, reply);
      }
      if (!mayUse(ctx, credential, 'signIn')) return notRecognized(request, reply);
      const info = await verifyAssertion(
        ctx,
        settings,
        response as AuthenticationResponseJSON,
        challenge,
        credential,
      );
      if (!info) {
        await ctx.audit.record(request, {
          event: 'factor-failed',
          outcome: 'failure',
          accountId: account.id,
          detail: { factor: PASSKEY, journey: 'login-screen', reason: 'not-verified' },
        });
        return notVerified(request, reply);
      }
      if (!(await advanceCounter(ctx, credential, info.newCounter, info.credentialBackedUp))) {
        await cloned(request, credential);
        return notRecognized(request, reply);
      }
      const proof = await challenges.issue({
        purpose: 'proof',
        challenge: null,
        binding: `browser:${browser}`,
        accountId: account.id,
        credentialId: credential.id,
        ttlMs: settings.challengeMs,
      });
      return answer(request, reply, Status.SUCCESS, { successData: { username: account.username, proof } });
    },
  });
}

/** The browser of the login screen's passkey: the SHA-256 of its passkey_login cookie. */
function loginBrowser(ctx: Context, request: FastifyRequest): string | undefined {
  const token = request.cookies[loginCookieName(ctx)];
  return token && /^[A-Za-z0-9_-]{32}$/.test(token) ? sha256(token) : undefined;
}
