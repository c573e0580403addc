import { passwordAuthenticationRequest, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { endBrowserFlow } from '../journeys/recovery.ts';
import { passed } from '../journeys/store.ts';
import { answer } from '../lib/http.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';
import { checkPassword, findAccount, keepLanguage, usernameKey } from '../services/accounts.ts';
import { setSessionCookies } from '../services/cookies.ts';

/** Password authentication: the first step of the login transaction. */
export async function passwordPlugin(app: FastifyInstance, ctx: Context) {
  const { config, db, limiter, sessions } = ctx;

  defineRoute(app, {
    method: 'POST',
    path: paths.passwordAuthentication,
    tag: 'password',
    summary: 'Check a username and password; starts the login transaction (session cookie ET).',
    body: passwordAuthenticationRequest,
    handler: async ({ request, reply, body }) => {
      await limiter.enforce(request, [
        [`pwd:client:${clientKey(request.ip)}`, config.rateLimits.client],
        [`pwd:account:${usernameKey(body.username)}`, config.rateLimits.account],
      ]);

      const account = await findAccount(db, body.username);
      const verdict = await checkPassword(ctx, account, body.password, {
        request,
        purpose: 'sign-in',
        username: body.username,
      });

      if (!account || verdict === 'wrong') return answer(request, reply, Status.FORBIDDEN);
      if (verdict === 'locked') {
        request.log.warn({ account: account.id }, 'account locked after failed attempts');
        return answer(request, reply, Status.BLOCKED_FOR_RESET);
      }

      // The password is right: only now does the answer depend on the account's state.
      if (account.status === 'locked') return answer(request, reply, Status.BLOCKED_FOR_RESET);
      if (account.status === 'blocked') {
        // The widget's table sends 1401 to its error screen; the redirect path names the blocked page.
        return answer(request, reply, Status.BLOCKED, { redirectPath: '/blocked' });
      }
      if (account.status === 'disabled') return answer(request, reply, Status.ACCOUNT_DISABLED);
      await keepLanguage(db, request, account);

      // A new login transaction under a new token; any earlier one from this browser ends, and so
      // does its recovery flow (the e-mail code path then acts for this sign-in).
      const previous = request.cookies[ctx.cookieNames.session];
      await sessions.endByToken(previous, 'replaced');
      await ctx.journeys.endByToken('login', previous);
      await endBrowserFlow(ctx, request, reply);
      const { journey, token } = await ctx.journeys.start({
        kind: 'login',
        state: 'password',
        accountId: account.id,
        ttlMs: Math.min(ctx.config.loginFlowMs, ctx.config.sessionAbsoluteMs),
        bound: true,
        factors: [passed('password', 1, ctx.clock.now())],
        clientIp: request.ip,
        userAgent: request.headers['user-agent'],
      });
      setSessionCookies(ctx, request, reply, token as string);
      await ctx.audit.record(request, {
        event: 'factor-passed',
        outcome: 'success',
        accountId: account.id,
        journeyId: journey.id,
        detail: { factor: 'password', journey: 'login' },
      });
      request.log.info({ account: account.id }, 'password verified');
      if (account.password_state === 'expired') return answer(request, reply, Status.PASSWORD_EXPIRED);
      return answer(request, reply, Status.SUCCESS);
    },
  });
}
