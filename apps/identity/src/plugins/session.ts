import {
  type Callback,
  emptyBody,
  paths,
  redirectPaths,
  Status,
  sessionExtendRequest,
  sessionUpdateRequest,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { HeldCredentials } from '../credentials/held.ts';
import type { PassedFactor } from '../db/schema.ts';
import { allowedAuthenticators } from '../factors/registry.ts';
import { endBrowserFlow } from '../journeys/recovery.ts';
import { passed } from '../journeys/store.ts';
import { answer, contextHeader, noLoginInProgress, sessionExpired } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { endProviderSession } from '../oidc/provider.ts';
import { findAccountById } from '../services/accounts.ts';
import { clearSessionCookies, setSessionCookies } from '../services/cookies.ts';
import { type DeviceRiskRule, recordedRisk, riskDemandsFactor } from '../services/device-risk.ts';
import { prohibitedAddresses } from '../services/prohibited.ts';
import { TRUSTED_DEVICE } from '../services/sessions.ts';
import { trustedOrFactorDue } from '../services/trusted-devices.ts';

/** 1200 for a signed-in session, with its context. */
function signedInAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  data: { username: string; displayName: string },
  context: string | null,
) {
  return answer(request, reply, Status.SUCCESS, {
    message: 'authenticated',
    successData: { ...data, authenticated: true, ...(context ? { context } : {}) },
  });
}

export async function sessionPlugin(app: FastifyInstance, ctx: Context, deviceRiskRule: DeviceRiskRule) {
  const { db, sessions, journeys } = ctx;

  const prohibitedAddress = prohibitedAddresses(ctx.config);

  defineRoute(app, {
    method: 'POST',
    path: paths.sessionLogin,
    tag: 'session',
    summary: 'Continue the login transaction after the password: complete it, or say what is due.',
    body: emptyBody,
    handler: async ({ request, reply }) => {
      const token = request.cookies[ctx.cookieNames.session];
      const context = contextHeader(request);
      // The login journey the cookie binds, or, already signed in (by a second factor, or an earlier
      // call), its session: either with its account, in one statement (issue 25). Signed in, the
      // context of this call is recorded and the answer is 1200 again. A journey whose password step
      // found only the second factor due moves to 'factor' in that statement (decision 053).
      // Not from a prohibited network: that journey is refused below, never moved first.
      const read = await sessions.loginOrSession(
        token,
        prohibitedAddress(request.ip) ? undefined : { context },
      );
      const found = read && 'login' in read ? read.login : null;
      const journey = found?.journey ?? null;
      const signedIn = read && 'session' in read ? read.session : null;
      const account = read && 'login' in read ? read.login.account : read?.account;
      if (!account) throw noLoginInProgress();
      const end = async (reason: string) => {
        if (journey)
          await journeys.transition(journey, [journey.state], 'ended', { data: { endReason: reason } });
        if (signedIn) await sessions.end(signedIn.id, reason);
        clearSessionCookies(ctx, request, reply);
      };
      if (account.status !== 'active') {
        await end('blocked');
        await ctx.audit.record(request, {
          event: 'sign-in-failed',
          outcome: 'failure',
          accountId: account.id,
          journeyId: journey?.id,
          detail: { reason: account.status },
        });
        return answer(request, reply, Status.FORBIDDEN, { message: 'securityBlocked' });
      }
      if (account.prohibited || prohibitedAddress(request.ip)) {
        await end('prohibited');
        const reason = account.prohibited ? 'account' : 'network';
        request.log.warn({ account: account.id, reason }, 'sign-in from a prohibited location');
        await ctx.audit.record(request, {
          event: 'sign-in-failed',
          outcome: 'failure',
          accountId: account.id,
          journeyId: journey?.id,
          detail: { reason: `prohibited ${reason}` },
        });
        return answer(request, reply, Status.FORBIDDEN, {
          message: 'prohibitedLocation',
          redirectPath: redirectPaths.prohibited,
        });
      }
      const data = { username: account.username, displayName: account.display_name };

      if (signedIn) {
        const current = context ?? signedIn.context;
        if (current !== signedIn.context) {
          await db.updateTable('sessions').set({ context: current }).where('id', '=', signedIn.id).execute();
        }
        setSessionCookies(ctx, request, reply, token as string, current);
        return signedInAnswer(request, reply, data, current);
      }
      if (!journey) throw noLoginInProgress();
      await journeys.touch(journey);

      /** A second factor is due: the allowed authenticators (empty: the widget's default, the rep page). */
      const factorDue = async () =>
        answer(request, reply, Status.AUTH_NOT_COMPLETED, {
          message: 'authNotCompleted',
          successData: {
            ...data,
            authenticated: false,
            // The credentials came with the journey (one read, issue 25).
            authenticators: await allowedAuthenticators(
              ctx,
              account,
              found ? HeldCredentials.of(found.credentials) : undefined,
            ),
          },
        });
      if (journey.state === 'factor') return factorDue();

      const callbacks: Callback[] = [];
      if (account.password_state !== 'ok') callbacks.push({ name: 'PASSWORD', type: 'EXPIRED' });
      if (account.require_username_update) callbacks.push({ name: 'PASSWORD', type: 'SETUP' });
      if (account.maintenance) callbacks.push({ name: 'IDENTITY', type: 'MAINTENANCE' });
      if (callbacks.length) {
        return answer(request, reply, Status.CALLBACKS_REQUIRED, {
          message: 'callbacksRequired',
          successData: { ...data, authenticated: false },
          callbacks,
        });
      }
      // A device bound to the account skips the second factor (login journey only), unless the
      // device-risk rule finds the journey risky (decision 045).
      let extra: PassedFactor | undefined;
      if (account.second_factor) {
        const risky = await riskDemandsFactor(ctx.config, deviceRiskRule, journey, account);
        if (risky) {
          const signals = recordedRisk(journey);
          await ctx.audit.record(request, {
            event: 'device-risk-factor-due',
            outcome: 'success',
            accountId: account.id,
            journeyId: journey.id,
            detail: signals
              ? { provider: signals.provider, score: signals.score, reasons: signals.reasons.join(',') }
              : { signals: 'none' },
          });
        }
        const contextData = context ? { context } : undefined;
        let next: 'trusted' | 'due' | 'gone';
        if (risky) {
          const moved = await journeys.transition(journey, ['password'], 'factor', {
            ...(contextData ? { data: contextData } : {}),
          });
          next = moved ? 'due' : 'gone';
        } else {
          // Not risky: a trusted device skips the factor; one statement decides (issue 25).
          next = await trustedOrFactorDue(ctx, request, account.id, journey, contextData);
        }
        if (next === 'gone') throw noLoginInProgress();
        if (next === 'due') return factorDue();
        extra = passed(TRUSTED_DEVICE, 2, ctx.clock.now());
        request.log.info({ account: account.id }, 'second factor skipped: trusted device');
      }
      // Complete: a signed-in session under a new token (the login journey's token dies with it).
      const session = await ctx.engine.signIn(request, reply, journey, {
        from: 'password',
        ...(extra ? { extra } : {}),
        context,
      });
      // Another call on the same journey signed in first (or the journey was ended meanwhile).
      if (!session) throw noLoginInProgress();
      request.log.info({ account: account.id }, 'signed in');
      return signedInAnswer(request, reply, data, session.context);
    },
  });

  defineRoute(app, {
    method: 'GET',
    path: paths.sessionLogin,
    tag: 'session',
    summary: 'The signed-in session (used by the portal route guard); 401 when there is none.',
    auth: 'session',
    handler: async ({ request, reply, auth: session }) => {
      const account = await findAccountById(db, session.account_id);
      if (!account) throw sessionExpired();
      const steppedUpAt = await sessions.provedSince(session.id, {
        withinMs: ctx.config.sessionAbsoluteMs,
        journeyKind: 'stepup',
      });
      return answer(request, reply, Status.SUCCESS, {
        message: 'authenticated',
        successData: {
          authenticated: true,
          username: account.username,
          displayName: account.display_name,
          signedInAt: new Date(session.created_at).toISOString(),
          idleExpiresAt: new Date(session.idle_expires_at).toISOString(),
          absoluteExpiresAt: new Date(session.absolute_expires_at).toISOString(),
          ...(steppedUpAt ? { steppedUpAt: steppedUpAt.toISOString() } : {}),
        },
      });
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    path: paths.sessionLogout,
    tag: 'session',
    summary: 'Sign out: the session ends on the server and its cookies are cleared. 204.',
    body: emptyBody,
    handler: async ({ request, reply }) => {
      const token = request.cookies[ctx.cookieNames.session];
      const session = await sessions.load(token);
      await sessions.endByToken(token, 'logout');
      await journeys.endByToken('login', token);
      // The OpenID Provider's session of this browser ends too, with the refresh tokens bound to it.
      const endedSso = await endProviderSession(ctx, request.raw, reply.raw);
      clearSessionCookies(ctx, request, reply);
      await endBrowserFlow(ctx, request, reply);
      if (session) {
        await ctx.audit.record(request, {
          event: 'sign-out',
          outcome: 'success',
          accountId: session.account_id,
          ...(endedSso ? { detail: { singleSignOn: 'ended' } } : {}),
        });
      }
      request.log.info('signed out');
      return answer(request, reply, Status.SUCCESS);
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.sessionUpdate,
    tag: 'session',
    summary: 'Record activity and the host context on the signed-in session. 204.',
    body: sessionUpdateRequest,
    auth: 'session',
    handler: async ({ request, reply, body, auth: session }) => {
      if (body?.context) {
        await db
          .updateTable('sessions')
          .set({ context: body.context })
          .where('id', '=', session.id)
          .execute();
      }
      return answer(request, reply, Status.SUCCESS);
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.sessionExtend,
    tag: 'session',
    summary: 'Extend the idle limit of the signed-in session (never past the absolute limit). 204.',
    body: sessionExtendRequest,
    auth: 'session',
    handler: async ({ request, reply, auth: session }) => {
      await sessions.touch(session, true);
      return answer(request, reply, Status.SUCCESS);
    },
  });
}
