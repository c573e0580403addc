import { API_BASE, deviceRiskBeaconRequest, limits, paths, Status } from '@gatehouse/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { answer, noLoginInProgress } from '../lib/http.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';

/**
 * The first-party device-risk beacon (widget spec §7's third-party step; docs/decisions/
 * 045-device-risk-step.md): the widget forwards the provider's signals, polled every 10 seconds,
 * and they are recorded on this browser's login journey (`data.risk`, the latest replacing the
 * last), where session login's rule hook reads them. Checked against the contract schema, bounded
 * in size, limited per client; 404 while the step is off (the default). 204.
 */
export async function deviceRiskPlugin(app: FastifyInstance, ctx: Context) {
  const { config, limiter, journeys } = ctx;
  const bodyLimit = Math.min(config.bodyLimit, limits.riskBeaconBodyBytes);
  const url = API_BASE + paths.deviceRiskBeacon;

  app.addHook('onRoute', (route) => {
    if (route.url === url) route.bodyLimit = bodyLimit;
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return answer(request, reply, Status.BAD_REQUEST, { message: 'bodyTooLarge', params: [bodyLimit] });
    }
    throw error;
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.deviceRiskBeacon,
    tag: 'session',
    summary: `Device-risk signals of the login in progress (body at most ${limits.riskBeaconBodyBytes} bytes), recorded on its journey. 204; 404 while RISK_SCRIPT_URL is unset.`,
    body: deviceRiskBeaconRequest,
    handler: async ({ request, reply, body }) => {
      const settings = config.deviceRisk;
      if (!settings) {
        return answer(request, reply, Status.NOT_FOUND, { message: 'notFound', params: [request.url] });
      }
      await limiter.enforce(request, [
        [`risk:client:${clientKey(request.ip)}`, { max: settings.beaconRateMax, windowMs: 60_000 }],
      ]);
      const journey = await journeys.byToken('login', request.cookies[ctx.cookieNames.session]);
      if (!journey) throw noLoginInProgress();
      const risk = { ...body, at: ctx.clock.now().toISOString() };
      const recorded = await journeys.transition(journey, [journey.state], journey.state, { data: { risk } });
      if (!recorded) throw noLoginInProgress();
      // On the journey, not in the audit trail: a beacon every 10 seconds would flood it. The audit
      // row is the rule's decision (session login's 'device-risk-factor-due').
      request.log.info(
        { journey: journey.id, provider: body.provider, score: body.score },
        'device risk recorded',
      );
      return answer(request, reply, Status.SUCCESS);
    },
  });
}
