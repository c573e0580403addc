import { otpCheck, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { answer } from '../../lib/http.ts';
import { defineRoute } from '../../lib/route.ts';
import type { FactorModule } from '../registry.ts';

/**
 * The representative's code (widget spec §2 "Representative"). It is never in an account's list:
 * the widget opens its page when the list is empty or a channel's limit is reached. There is no
 * representative console yet (issue 13): every code answers 1428, not counted as a wrong try.
 */
function routes(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'PUT',
    path: paths.otpRep,
    tag: 'factors',
    summary:
      "A representative's code. There is no representative console yet: every code answers 1428 (not counted as a wrong try).",
    body: otpCheck,
    handler: async ({ request, reply }) => {
      const fj = await ctx.engine.require(request);
      await ctx.limiter.enforce(request, [
        [`code-check:journey:${fj.journey.id}`, ctx.config.codeCheck.session],
        [`code-check:account:${fj.account.id}`, ctx.config.codeCheck.account],
      ]);
      request.log.info({ account: fj.account.id }, 'second factor: representative code (no console)');
      return answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });
    },
  });
}

export const repFactor: FactorModule = {
  name: 'representative code',
  types: ['OTP-REP'],
  offer: () => [],
  routes,
  limits: (config) => ({
    CODE_CHECK_SESSION_MAX: config.codeCheck.session.max,
    CODE_CHECK_ACCOUNT_MAX: config.codeCheck.account.max,
  }),
};
