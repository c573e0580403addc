import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { assuranceOf, meets, requestedAcr } from './assurance.ts';
import { demoRelyingParty } from './demo-rp.ts';
import { CLIENT_IP_HEADER, createProvider, OIDC_PREFIX } from './provider.ts';

/** The portal's interaction page (apps/portal: #/oidc/:journey/:uid) for a journey, or its error. */
export const portalInteraction = (journey: 'login' | 'stepup' | 'error', uid?: string) =>
  `/#/oidc/${journey}${uid ? `/${uid}` : ''}`;

const uidPattern = /^[A-Za-z0-9_-]{10,64}$/;

/**
 * The OpenID Provider in the service (decision 048): oidc-provider's own routes under /oidc (its
 * Koa app, handed the raw request before any body is read, so it parses its own forms), discovery
 * also at the origin's /.well-known/openid-configuration, and the interaction: an authorization
 * request that needs a sign-in comes to GET /oidc/interaction/:uid, which decides from the portal
 * session (its account, the factors that proved it and when) whether the request is already met
 * (single sign-on: back to the provider at once) or the widget must run in the portal first, in
 * LOGIN or STEPUP.
 */
export async function oidcPlugin(app: FastifyInstance, ctx: Context) {
  const provider = await createProvider(ctx, (fields, message) => app.log.error(fields, message));
  const callback = provider.callback();

  await app.register(async (scope) => {
    // The provider reads its own bodies (forms at the token, revocation, introspection and logout).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const issuer = new URL(ctx.config.publicOrigin);
    const hand = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(OIDC_PREFIX.length) || '/';
      // The provider sees the request as the issuer's (its URLs, its cookies' Secure flag), never
      // a host or scheme a client or proxy header chose, and the client address as the service
      // decided it (TRUST_PROXY): Koa is told to trust exactly these headers (provider.ts).
      raw.headers.host = issuer.host;
      raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
      delete raw.headers['x-forwarded-host'];
      raw.headers[CLIENT_IP_HEADER] = request.ip;
      callback(raw, reply.raw);
    };
    scope.all(`${OIDC_PREFIX}/*`, hand);
  });

  // Discovery at the origin too (RFC 8414 clients look there): the issuer's document.
  app.get('/.well-known/openid-configuration', (_request, reply) =>
    reply.redirect(`${OIDC_PREFIX}/.well-known/openid-configuration`, 308),
  );

  /**
   * The interaction: met by the portal session, or the widget first. `from=portal` says the widget
   * ran: a request still not met then ends with unmet_authentication_requirements to the client,
   * never another round.
   */
  app.get<{ Params: { uid: string }; Querystring: { from?: string } }>(
    `${OIDC_PREFIX}/interaction/:uid`,
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const { uid } = request.params;
      if (!uidPattern.test(uid)) return reply.redirect(portalInteraction('error'), 303);
      let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
      try {
        details = await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        // No interaction of this browser (expired, another browser's, finished): the widget's
        // /ssoerror screen, which the customer can act on (sign in to the portal, start again).
        return reply.redirect(portalInteraction('error'), 303);
      }
      if (details.uid !== uid) return reply.redirect(portalInteraction('error'), 303);
      const session = await ctx.sessions.load(request.cookies[ctx.cookieNames.session]);
      const params = details.params as Record<string, string | undefined>;
      const fromPortal = request.query.from === 'portal';
      const finish = async (result: Parameters<typeof provider.interactionResult>[2]) => {
        const to = await provider.interactionResult(request.raw, reply.raw, result, {
          mergeWithLastSubmission: false,
        });
        return reply.redirect(to, 303);
      };
      if (details.prompt.name === 'consent') {
        // First-party clients: consent is implied (decision 048), and recorded.
        const accountId = details.session?.accountId;
        if (!accountId) return reply.redirect(portalInteraction('error'), 303);
        const grant = details.grantId
          ? ((await provider.Grant.find(details.grantId)) ??
            new provider.Grant({ accountId, clientId: String(params.client_id) }))
          : new provider.Grant({ accountId, clientId: String(params.client_id) });
        const missing = (details.prompt.details.missingOIDCScope as string[] | undefined) ?? [];
        grant.addOIDCScope([...missing, 'openid'].join(' '));
        const grantId = await grant.save();
        await ctx.audit.record(request, {
          event: 'oidc-consent-implied',
          outcome: 'success',
          accountId,
          detail: { client: String(params.client_id), scope: missing.join(' ') },
        });
        return finish({ consent: { grantId } });
      }
      if (!session) {
        if (fromPortal)
          return finish({ error: 'login_required', error_description: 'the sign-in did not finish' });
        return reply.redirect(portalInteraction('login', uid), 303);
      }
      const assurance = assuranceOf(await ctx.sessions.factors(session.id));
      // Freshness: prompt=login asks for a sign-in after the request (always the widget first);
      // max_age for one within that many seconds.
      const reasons = details.prompt.reasons ?? [];
      let since = 0;
      if (reasons.includes('login_prompt'))
        since = fromPortal ? (details.iat ?? 0) : Number.POSITIVE_INFINITY;
      if (params.max_age !== undefined && /^\d+$/.test(params.max_age)) {
        since = Math.max(since, Math.floor(ctx.clock.now().getTime() / 1000) - Number(params.max_age));
      }
      const fresh = assurance.authTime >= since;
      const wanted = requestedAcr(params.acr_values);
      if (!fresh || !meets(assurance.acr, wanted)) {
        if (fromPortal) {
          return finish({
            error: 'unmet_authentication_requirements',
            error_description: 'the requested authentication was not completed',
          });
        }
        return reply.redirect(portalInteraction(fresh ? 'stepup' : 'login', uid), 303);
      }
      return finish({
        login: {
          accountId: session.account_id,
          acr: assurance.acr,
          amr: assurance.amr,
          ts: assurance.authTime,
          remember: true,
        },
      });
    },
  );

  /** The customer cancelled in the widget: access_denied to the client. */
  app.get<{ Params: { uid: string } }>(`${OIDC_PREFIX}/interaction/:uid/abort`, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.uid !== request.params.uid) throw new Error('another interaction');
      const to = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'the customer cancelled the sign-in' },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(to, 303);
    } catch {
      return reply.redirect(portalInteraction('error'), 303);
    }
  });

  if (ctx.config.devCompanions && ctx.config.oidc.clients.some((c) => c.id === 'gatehouse-demo')) {
    await demoRelyingParty(app, ctx);
  }
  return provider;
}
