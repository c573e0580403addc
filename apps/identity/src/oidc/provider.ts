import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptedLanguages, defaultLanguage, type Language, pickLanguage } from '@gatehouse/i18n';
import type { FastifyRequest } from 'fastify';
import type { KoaContextWithOIDC } from 'oidc-provider';
import Provider, { errors, interactionPolicy } from 'oidc-provider';
import type { CoreAuditEvent } from '../audit/audit.ts';
import type { Context } from '../context.ts';
import {
  DatabaseFailure,
  DatabaseRefusedValue,
  DatabaseUnavailable,
  databaseErrorFields,
} from '../db/faults.ts';
import { hmac } from '../lib/crypto.ts';
import { serverText } from '../lib/language.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { findAccountById } from '../services/accounts.ts';
import { DatabaseAdapter } from './adapter.ts';
import { acrRank, acrValues, assuranceOf, requestedAcr } from './assurance.ts';
import { html } from './html.ts';
import { signingKeys } from './keys.ts';
import { oidcScopes } from './settings.ts';

/** Where the provider answers in the service: its issuer is PUBLIC_ORIGIN + this prefix. */
export const OIDC_PREFIX = '/oidc';
/** The interaction (the widget's sign-in or step-up) of an authorization request. */
export const interactionPath = (uid: string) => `${OIDC_PREFIX}/interaction/${uid}`;

/** The header the plugin hands the provider the client's address in (set by us, never a client's). */
export const CLIENT_IP_HEADER = 'x-gatehouse-client-ip';

/** The language of a provider request's page (its Accept-Language, as the API chooses). */
const koaLanguage = (koa: KoaContextWithOIDC): Language => {
  const header = koa.get('accept-language');
  return header ? pickLanguage(acceptedLanguages(header)) : defaultLanguage;
};

/** A request-like value for the audit trail from the provider's Koa context (address, agent). */
const auditRequest = (ctx: KoaContextWithOIDC): FastifyRequest =>
  ({
    ip: ctx.ip,
    id: ctx.get('x-request-id') || undefined,
    headers: ctx.headers,
  }) as unknown as FastifyRequest;

/**
 * The live portal session of the provider's request (the ET cookie, as the API reads it), or null.
 */
export async function portalSession(ctx: Context, koa: KoaContextWithOIDC) {
  const token = koa.cookies.get(ctx.cookieNames.session, { signed: false });
  return ctx.sessions.load(token);
}

/**
 * The OpenID Provider (oidc-provider, OpenID Certified; decision 048): authorization code with
 * PKCE only, first-party clients from OIDC_CLIENTS, storage in our database, ES256 ID tokens,
 * rotating refresh tokens bound to the session, revocation, introspection, RP-initiated and
 * back-channel logout. Its login prompt is the widget (oidc/plugin.ts): the provider asks for it
 * when it has no session, when the portal session behind its own is gone or another account's,
 * and when `acr_values` ask more than the session proved.
 */
/** Each service's provider, by its context: the portal's sign-out ends the provider's session too. */
const providers = new WeakMap<Context, Provider>();

/**
 * A portal sign-out ends this browser's provider session (its signed `_session` cookie), and with
 * it every token bound to that session (`expiresWithSession`): the refresh tokens the bank's
 * applications hold for this sign-in stop working, as they do after an RP-initiated logout.
 * Nothing to do without a provider, a cookie or a live session. True when one ended.
 */
export async function endProviderSession(
  ctx: Context,
  raw: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const provider = providers.get(ctx);
  if (!provider) return false;
  const { cookies } = provider.createContext(raw, res);
  const id = cookies.get(provider.cookieName('session'), { signed: true });
  if (!id) return false;
  const session = await provider.Session.find(id);
  if (!session) return false;
  await session.destroy();
  return true;
}

export async function createProvider(
  ctx: Context,
  logError: (fields: Record<string, unknown>, message: string) => void,
): Promise<Provider> {
  const { config, db } = ctx;
  const issuer = `${config.publicOrigin}${OIDC_PREFIX}`;
  const keys = await signingKeys(db, config.oidc.signingKeys);

  const policy = interactionPolicy.base();
  const login = policy.get('login')!;
  // The provider's session stands only while the portal session it was made from does (a portal
  // sign-out, an expiry, another account signed in: the widget again).
  login.checks.add(
    new interactionPolicy.Check('portal_session', 'the portal session ended', async (koa) => {
      const { oidc } = koa;
      if (!oidc.session?.accountId || oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const session = await portalSession(ctx, koa);
      if (session?.account_id !== oidc.session?.accountId) return interactionPolicy.Check.REQUEST_PROMPT;
      // The same account is not enough: the provider's session claims what the portal session it
      // was made from proved (acr, amr, auth_time). A portal session that is not that one (an
      // expired one replaced by a sign-in with less), or that has been stepped up since, goes
      // through the interaction again, which finishes from the portal session as it is now.
      const proved = assuranceOf(await ctx.sessions.factors(session!.id));
      const claimed = oidc.session!;
      return proved.acr === claimed.acr &&
        proved.authTime === claimed.loginTs &&
        [...proved.amr].sort().join(' ') === [...(claimed.amr ?? [])].sort().join(' ')
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  // acr_values (voluntary in OpenID Connect) are honoured: a level above the session's asks for
  // the widget (a step-up), as an essential acr would.
  login.checks.add(
    new interactionPolicy.Check('acr_values', 'the requested authentication level was not met', (koa) => {
      const { oidc } = koa;
      if (oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const wanted = requestedAcr(oidc.params?.acr_values as string | undefined);
      if (wanted === null) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const have = oidc.acr;
      return have && acrRank(have) >= acrRank(wanted)
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );

  const clients = config.oidc.clients.map((c) => ({
    client_id: c.id,
    ...(c.name ? { client_name: c.name } : {}),
    ...(c.public
      ? { token_endpoint_auth_method: 'none' as const }
      : { client_secret: c.secret!, token_endpoint_auth_method: 'client_secret_basic' as const }),
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    grant_types: c.scopes.includes('offline_access')
      ? ['authorization_code', 'refresh_token']
      : ['authorization_code'],
    response_types: ['code' as const],
    scope: c.scopes.join(' '),
    id_token_signed_response_alg: 'ES256' as const,
    ...(c.backchannelLogoutUri
      ? { backchannel_logout_uri: c.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
  }));

  const sessionTtl = Math.floor(config.sessionAbsoluteMs / 1000);
  const provider = new Provider(issuer, {
    adapter: (model: string) => new DatabaseAdapter(db, model),
    clients,
    jwks: { keys: keys as never },
    cookies: {
      keys: [hmac(config.sessionSecret, 'oidc-provider cookies')],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    responseTypes: ['code'],
    scopes: [...oidcScopes],
    claims: {
      // acr, amr and auth_time in every ID token (from the portal session's factors).
      openid: ['sub', 'acr', 'amr', 'auth_time', 'sid'],
      profile: ['name', 'preferred_username'],
      email: ['email'],
    },
    acrValues,
    // PKCE for every client (RFC 9700 §2.1.1); oidc-provider 9 knows S256 only, plain is refused.
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (koa, form) => {
          // The sign-out goes on by itself (first-party clients: nothing to choose); the form
          // carries the provider's own CSRF token. Without script, its button does it.
          const language = koaLanguage(koa);
          const script =
            'document.forms[0].requestSubmit?document.forms[0].requestSubmit():document.forms[0].submit();';
          const hash = createHash('sha256').update(script).digest('base64');
          koa.set(
            'Content-Security-Policy',
            `default-src 'none'; script-src 'sha256-${hash}'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'`,
          );
          const button = `<noscript><button type="submit" form="op.logoutForm">${html(serverText(language, 'oidcSignOut'))}</button></noscript>`;
          const withYes = form.replace(
            '</form>',
            `<input type="hidden" name="logout" value="yes"/>${button}</form>`,
          );
          const title = html(serverText(language, 'oidcSigningOut'));
          koa.body = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${withYes}</main><script>${script}</script></body></html>`;
        },
      },
    },
    interactions: {
      policy,
      url: (_koa, interaction) => interactionPath(interaction.uid),
    },
    // First-party clients only: consent is implied, and recorded (decision 048).
    loadExistingGrant: async (koa) => {
      const { oidc } = koa;
      if (!oidc.session) return undefined;
      const grantId = oidc.result?.consent?.grantId || oidc.session.grantIdFor(oidc.client!.clientId);
      if (grantId) {
        const existing = await oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (!oidc.session.accountId) return undefined;
      const grant = new oidc.provider.Grant({
        clientId: oidc.client!.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope(oidc.client!.scope ?? 'openid');
      await grant.save();
      await ctx.audit.record(auditRequest(koa), {
        event: 'oidc-consent-implied',
        outcome: 'success',
        accountId: oidc.session.accountId,
        detail: { client: oidc.client!.clientId, scope: oidc.client!.scope ?? 'openid' },
      });
      return grant;
    },
    findAccount: async (_koa, sub) => {
      const account = await findAccountById(db, sub);
      if (account?.status !== 'active') return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          name: account.display_name,
          preferred_username: account.username,
          email: account.email,
        }),
      };
    },
    // Every refresh gives a new refresh token; a used one again revokes the grant (RFC 9700 §4.14.2).
    rotateRefreshToken: () => true,
    // Refresh tokens live no longer than the session they came from (a logout ends them).
    expiresWithSession: async () => true,
    // A client allowed refresh tokens (offline_access among its scopes) gets one with every code,
    // bound to the session (expiresWithSession): no prompt=consent round needed for it.
    issueRefreshToken: async (_koa, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 1800,
      Grant: sessionTtl,
      Session: sessionTtl,
      RefreshToken: sessionTtl,
    },
    // state and nonce are required of every authorization request (decision 048).
    extraParams: {
      state: (_koa: unknown, value: unknown) => {
        if (!value) throw new errors.InvalidRequest('state is required');
      },
      nonce: (_koa: unknown, value: unknown) => {
        if (!value) throw new errors.InvalidRequest('nonce is required');
      },
    } as never,
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] } as never,
    // The provider's own calls (back-channel logout) refuse loopback and private addresses
    // (oidc-provider's SSRF guard); outside production a client on this machine is allowed.
    ...(config.production
      ? {}
      : {
          fetch: (input: string | URL | Request, init?: RequestInit) => {
            const { dispatcher: _guard, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
            return globalThis.fetch(input, rest);
          },
        }),
    // The provider's error page (a request it refuses before it may redirect: an unknown client,
    // an unregistered redirect URI): the catalog's text and the OAuth error code, never a stack.
    renderError: async (koa, out) => {
      const language = koaLanguage(koa);
      koa.type = 'html';
      koa.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
      const title = html(serverText(language, 'oidcErrorTitle'));
      koa.body = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${html(serverText(language, 'oidcErrorBody'))}</p><p><code>${html(out.error)}</code></p></main></body></html>`;
    },
  });
  // The plugin sets Host and X-Forwarded-Proto from PUBLIC_ORIGIN and the client address in
  // CLIENT_IP_HEADER from Fastify's request.ip (which honours TRUST_PROXY): Koa reads those.
  provider.proxy = true;
  provider.proxyIpHeader = CLIENT_IP_HEADER;
  provider.maxIpsCount = 1;

  // The token endpoint's limit per client address (RFC 9700 §4.16 brute force of codes and tokens).
  const isDatabaseFault = (error: unknown) =>
    error instanceof DatabaseUnavailable ||
    error instanceof DatabaseFailure ||
    error instanceof DatabaseRefusedValue;
  const unavailable = (koa: KoaContextWithOIDC) => {
    koa.status = 503;
    koa.set('Retry-After', '5');
    koa.set('Cache-Control', 'no-store');
    koa.body = {
      error: 'temporarily_unavailable',
      error_description: 'the service is unavailable; retry later',
    };
  };
  // Outermost: a database fault in our own steps (the limit, the logout's session end) is 503 too.
  provider.use(async (context, next) => {
    try {
      await next();
    } catch (error) {
      if (!isDatabaseFault(error)) throw error;
      logError({ db: databaseErrorFields(error as Error) }, 'database error under the OpenID Provider');
      unavailable(context as KoaContextWithOIDC);
    }
  });
  provider.use(async (context, next) => {
    const koa = context as KoaContextWithOIDC;
    if (koa.method === 'POST' && koa.path === '/token') {
      const { max, windowMs } = config.oidc.tokenRate;
      const decision = await ctx.limiter.hit(`oidc-token:${clientKey(koa.ip)}`, max, windowMs);
      if (!decision.allowed) {
        koa.status = 429;
        koa.set('Retry-After', String(decision.retryAfterSeconds));
        koa.set('Cache-Control', 'no-store');
        koa.body = { error: 'slow_down', error_description: 'too many token requests; retry later' };
        return;
      }
    }
    koa.set('X-Content-Type-Options', 'nosniff');
    koa.set('Referrer-Policy', 'no-referrer');
    await next();
    // The database failed under the provider (its server_error, below): 503, as every other call
    // of the service answers a database fault, so a client retries (RFC 6749's temporarily_unavailable).
    if (koa.state.databaseFault) {
      unavailable(koa);
      return;
    }
    // RP-initiated logout ends the portal session too (the browser's, by its cookie).
    if (koa.oidc?.route === 'end_session_confirm' && koa.status === 303) {
      const token = koa.cookies.get(ctx.cookieNames.session, { signed: false });
      const session = await ctx.sessions.load(token);
      if (token) await ctx.sessions.endByToken(token, 'oidc-logout');
      const secure = config.cookieSecure ? '; Secure' : '';
      const same = `; SameSite=${config.cookieSameSite[0]!.toUpperCase()}${config.cookieSameSite.slice(1)}`;
      koa.append('Set-Cookie', `${ctx.cookieNames.session}=; Path=/; Max-Age=0; HttpOnly${secure}${same}`);
      await ctx.audit.record(auditRequest(koa), {
        event: 'oidc-logout',
        outcome: 'success',
        accountId: session?.account_id ?? null,
        detail: { client: koa.oidc.client?.clientId ?? null, portalSession: !!session },
      });
    }
  });

  const record = (
    koa: KoaContextWithOIDC,
    event: Extract<CoreAuditEvent, `oidc-${string}`>,
    outcome: 'success' | 'failure',
    detail: Record<string, string | null>,
  ) => {
    const entities = koa.oidc?.entities;
    const accountId =
      entities?.AccessToken?.accountId ??
      entities?.Account?.accountId ??
      entities?.AuthorizationCode?.accountId ??
      entities?.RefreshToken?.accountId ??
      koa.oidc?.session?.accountId ??
      null;
    ctx.audit
      .record(auditRequest(koa), { event, outcome, accountId, detail })
      .catch((error) => logError({ err: error }, 'audit of an OpenID event failed'));
  };
  provider.on('grant.success', (koa) =>
    record(koa, 'oidc-token-issued', 'success', {
      client: koa.oidc.client?.clientId ?? null,
      grantType: String(koa.oidc.params?.grant_type ?? ''),
    }),
  );
  provider.on('grant.error', (koa, error) =>
    record(koa, 'oidc-token-refused', 'failure', {
      client: koa.oidc?.client?.clientId ?? null,
      grantType: String(koa.oidc?.params?.grant_type ?? ''),
      error: (error as { error?: string }).error ?? 'server_error',
      reason: (error as { error_description?: string }).error_description ?? null,
    }),
  );
  provider.on('grant.revoked', (koa, grantId) =>
    record(koa, 'oidc-grant-revoked', 'success', {
      client: koa.oidc?.client?.clientId ?? null,
      grant: grantId,
    }),
  );
  provider.on('server_error', (koa, error) => {
    if (isDatabaseFault(error)) {
      koa.state.databaseFault = true;
      logError({ db: databaseErrorFields(error) }, 'database error under the OpenID Provider');
    } else {
      logError({ err: error }, 'OpenID Provider error');
    }
  });
  provider.on('backchannel.error', (_koa, error, client) =>
    logError({ client: client.clientId, reason: (error as Error).message }, 'back-channel logout failed'),
  );
  provider.on('authorization.success', (koa) =>
    record(koa, 'oidc-authorized', 'success', { client: koa.oidc.client?.clientId ?? null }),
  );
  providers.set(ctx, provider);
  return provider;
}
