import { passwordAuthenticationRequest, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { endBrowserFlow } from '../journeys/recovery.ts';
import { passed, SECOND_FACTOR_DUE } from '../journeys/store.ts';
import { answer } from '../lib/http.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';
import { attemptPassword, findForPassword, type PasswordAccount, usernameKey } from '../services/accounts.ts';
import { setSessionCookies } from '../services/cookies.ts';

/** Password authentication: the first step of the login transaction. */
export async function passwordPlugin(app: FastifyInstance, ctx: Context) {
  const { config, sessions } = ctx;

  /**
   * Whether session login, called next, may find only the second factor due, as far as the password
   * step alone can tell: no device-risk rule is to be asked and this browser is not a trusted device
   * of the account. The journey then says so (SECOND_FACTOR_DUE), and session login moves it to
   * 'factor' in the statement that reads it instead of deciding in a second (issue 25; decision
   * 053). That move checks the rest itself, at that moment (journeys/store.ts
   * `markedFactorDueFrom`: a second factor, nothing owed, nothing refused), so the rule lives once.
   * The journey stays in 'password' until then: the factor calls still need session login first.
   */
  const factorDueAtOnce = (account: PasswordAccount): boolean =>
    account.second_factor && !config.deviceRisk && account.trusted_device !== true;

  defineRoute(app, {
    method: 'POST',
    path: paths.passwordAuthentication,
    tag: 'password',
    summary: 'Check a username and password; starts the login transaction (session cookie ET).',
    body: passwordAuthenticationRequest,
    handler: async ({ request, reply, body }) => {
      // The limits are counted in the statement that reads the account (429 when one is reached).
      const account = await findForPassword(ctx, body.username, request, [
        { key: `pwd:client:${clientKey(request.ip)}`, ...config.rateLimits.client },
        { key: `pwd:account:${usernameKey(body.username)}`, ...config.rateLimits.account },
      ]);
      // A right password starts the login transaction in the statement that settles it: under a new
      // token, with its audit event, only while the account may sign in (services/accounts.ts).
      const journey = ctx.journeys.startFrom('proved', {
        kind: 'login',
        state: 'password',
        ...(account && factorDueAtOnce(account) ? { data: { [SECOND_FACTOR_DUE]: true } } : {}),
        ttlMs: Math.min(ctx.config.loginFlowMs, ctx.config.sessionAbsoluteMs),
        factors: [passed('password', 1, ctx.clock.now())],
        clientIp: request.ip,
        userAgent: request.headers['user-agent'],
      });
      const started = await ctx.audit.insertFrom('journey', request, {
        event: 'factor-passed',
        outcome: 'success',
        accountId: { column: 'journey.account_id' },
        journeyId: { column: 'journey.id' },
        detail: { factor: 'password', journey: 'login' },
      });
      const { verdict, row } = await attemptPassword(
        ctx,
        account,
        body.password,
        { request, purpose: 'sign-in', username: body.username },
        {
          queries: [
            ['journey', journey.insert],
            ['started', started],
          ],
          select: sql`(select id from journey) as journey_id`,
        },
      );

      if (!account || verdict === 'wrong') return answer(request, reply, Status.FORBIDDEN);
      if (verdict === 'locked') {
        request.log.warn({ account: account.id }, 'account locked after failed attempts');
        return answer(request, reply, Status.BLOCKED_FOR_RESET);
      }

      // The password is right: only now does the answer depend on the account's state (an account
      // that may not sign in got no journey).
      if (account.status === 'locked') {
        // A fraud report's lock says so (recovery lifts it); any other lock is the attempts' lockout.
        const byFraud = account.locked_by_fraud && !account.locked_by_failures;
        return answer(request, reply, byFraud ? Status.LOCKED_BY_FRAUD : Status.BLOCKED_FOR_RESET);
      }
      if (account.status === 'blocked') {
        // The widget's table sends 1401 to its error screen; the redirect path names the blocked page.
        return answer(request, reply, Status.BLOCKED, { redirectPath: '/blocked' });
      }
      if (account.status === 'disabled') return answer(request, reply, Status.ACCOUNT_DISABLED);
      if (!row?.journey_id) throw new Error('a right password of an active account started no journey');

      // Any earlier login transaction of this browser ends, and so does its recovery flow (the
      // e-mail code path then acts for this sign-in). A new browser has none: no statement.
      const previous = request.cookies[ctx.cookieNames.session];
      await sessions.endByToken(previous, 'replaced');
      await ctx.journeys.endByToken('login', previous);
      await endBrowserFlow(ctx, request, reply);
      setSessionCookies(ctx, request, reply, journey.token);
      request.log.info({ account: account.id }, 'password verified');
      if (account.password_state === 'expired') return answer(request, reply, Status.PASSWORD_EXPIRED);
      return answer(request, reply, Status.SUCCESS);
    },
  });
}
