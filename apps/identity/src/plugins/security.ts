import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import cors from '@fastify/cors';
import { API_BASE, cookies, headers, paths, Status } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { ConsoleGate } from '../console/gate.ts';
import type { Context } from '../context.ts';
import { hmac, randomToken, safeEqual, sha256 } from '../lib/crypto.ts';
import { answer } from '../lib/http.ts';
import { cookieOptions, issueDeviceCookie } from '../services/cookies.ts';

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * CSRF: the XSRF-TOKEN cookie holds `nonce.signature`, where the signature is an HMAC over the
 * nonce and the session it is bound to (the session token's hash, or before sign-in an
 * HttpOnly anonymous binding cookie). The client echoes it in X-XSRF-TOKEN. A copied token is
 * worthless without the victim's HttpOnly cookie, and a new session needs a new token.
 */
export class Csrf {
  private readonly key: string;
  constructor(private readonly ctx: Context) {
    this.key = hmac(ctx.config.sessionSecret, 'gatehouse-csrf-v1');
  }
  binding(
    sessionToken: string | undefined,
    anonymous: string | undefined,
    kind: 's' | 'c' = 's',
  ): string | undefined {
    if (sessionToken) return `${kind}:${sha256(sessionToken)}`;
    if (anonymous) return `a:${sha256(anonymous)}`;
    return undefined;
  }
  issue(binding: string): string {
    const nonce = randomToken(16);
    return `${nonce}.${hmac(this.key, `${binding}|${nonce}`)}`;
  }
  verify(token: string | undefined, binding: string | undefined): boolean {
    if (!token || !binding || token.length > 200) return false;
    const [nonce, signature, ...rest] = token.split('.');
    if (!nonce || !signature || rest.length) return false;
    return safeEqual(signature, hmac(this.key, `${binding}|${nonce}`));
  }
  /**
   * A console CSRF token bound to a staff session token, or without one to the browser's anonymous
   * binding (its GH_DEVICE cookie, set when absent). The console reads it from the X-XSRF-TOKEN
   * response header and keeps it in memory: no cookie, so it never displaces the customer apps'.
   */
  consoleToken(staffToken: string | undefined, request?: FastifyRequest, reply?: FastifyReply): string {
    let anonymous = request?.cookies[this.ctx.cookieNames.device];
    if (!staffToken && !anonymous && reply) anonymous = issueDeviceCookie(this.ctx, reply);
    return this.issue(this.binding(staffToken, anonymous, 'c') ?? 'c:none');
  }
  /** Sets a fresh XSRF-TOKEN bound to the given session token (after sign-in or sign-out). */
  rebind(reply: FastifyReply, sessionToken: string | undefined, request: FastifyRequest) {
    let anonymous = request.cookies[this.ctx.cookieNames.device];
    if (!sessionToken && !anonymous) anonymous = issueDeviceCookie(this.ctx, reply);
    const binding = this.binding(sessionToken, anonymous)!;
    const token = this.issue(binding);
    reply.setCookie(cookies.csrf, token, cookieOptions(this.ctx, false));
    reply.header(headers.csrf, token);
  }
}

/** Console routes (/api/console/…, by the route matched): CSRF bound to the staff cookie, header only. */
const isConsoleRoute = (request: FastifyRequest): boolean =>
  request.routeOptions.url?.startsWith(`${API_BASE}/console/`) === true;

function allowedOrigin(ctx: Context, request: FastifyRequest, origin: string): boolean {
  const { publicOrigin, allowedOrigins, corsOrigins } = ctx.config;
  if (origin === publicOrigin || allowedOrigins.includes(origin) || corsOrigins.includes(origin)) return true;
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * The security headers helmet writes for these options. None depends on the request, so helmet
 * runs once per set, at start, on a response that is never sent, and each request copies the
 * result (helmet per request rebuilt the same policy text every time: issue 14).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value),
    ]),
  );
}

/**
 * The helmet options of the documents (the apps' pages and files, the API reference page, any
 * answer outside the API): CSP, framing, HSTS in production, referrer policy, and helmet's other
 * defaults.
 */
export function helmetOptions(config: Config): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The device-risk provider's script and beacon, when the step is on (decision 045).
        scriptSrc: ["'self'", ...(config.deviceRisk ? [new URL(config.deviceRisk.scriptUrl).origin] : [])],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: [
          "'self'",
          ...config.connectSrc,
          ...(config.deviceRisk ? [new URL(config.deviceRisk.beaconUrl).origin] : []),
        ],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'", ...config.frameAncestors],
        ...(config.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // frame-ancestors in the CSP decides framing; X-Frame-Options cannot list several hosts.
    frameguard: config.frameAncestors.length ? false : { action: 'sameorigin' },
    strictTransportSecurity: config.production ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The helmet options of an API answer (JSON, the device app's event stream): the set OWASP's REST
 * Security Cheat Sheet gives for API responses. A CSP that allows nothing and no framing at all, `X-Frame-Options: DENY` for browsers without
 * frame-ancestors, nosniff, no referrer, same-origin CORP, and HSTS exactly as the documents have
 * it. Dropped, as they only govern a document (docs/security.md#headers): the pages' CSP sources,
 * Cross-Origin-Opener-Policy, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies and X-XSS-Protection.
 */
export function apiHelmetOptions(config: Config): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    strictTransportSecurity: helmetOptions(config).strictTransportSecurity,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xContentTypeOptions: true,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

const API_PREFIX = `${API_BASE}/`;

/**
 * Whether an answer gets the API's headers: its path is the API base or under it (matched or not: an
 * unknown /api path answers the JSON envelope too) and its route is not a page (the API reference,
 * whose outcome table's body is 'html'). Everything else is a document and keeps the full set.
 */
const isApiAnswer = (request: FastifyRequest): boolean =>
  (request.url.startsWith(API_PREFIX) ||
    request.url === API_BASE ||
    request.url.startsWith(`${API_BASE}?`)) &&
  request.routeOptions.config?.page !== true;

/** Operational routes: a probe or a reader of the API reference needs no CSRF token. */
const OPERATIONAL = new Set(
  [paths.ready, paths.live, paths.openapi, paths.apiDocs].map((p) => `${API_BASE}${p}`),
);

/**
 * Whether an answer hands out the CSRF token (and, before sign-in, the device cookie it is bound
 * to): every state-changing call (checked below; a refused one gets a fresh token to retry with)
 * and every GET of an API route a browser calls, health included (the widget fetches its first
 * token there). Static files, readiness, the API reference, preflights and unknown paths set no
 * cookie: they need none, and a Set-Cookie would keep a shared cache from storing a static file.
 */
function handsOutToken(request: FastifyRequest): boolean {
  if (UNSAFE.has(request.method)) return true;
  if (request.method !== 'GET') return false;
  const route = request.routeOptions.url;
  return route?.startsWith(`${API_BASE}/`) === true && !OPERATIONAL.has(route);
}

/**
 * An oidc-provider endpoint: the request the router gave the provider's catch-all route
 * (oidc/plugin.ts), never a path that merely starts with /oidc/ (the interaction routes are ours).
 */
const isProviderEndpoint = (request: FastifyRequest): boolean => request.routeOptions.url === '/oidc/*';

export async function security(app: FastifyInstance, ctx: Context) {
  const documentHeaders = securityHeaders(helmetOptions(ctx.config));
  const apiHeaders = securityHeaders(apiHelmetOptions(ctx.config));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request) ? apiHeaders : documentHeaders);
    done();
  });

  // A portal on another host (the dev, uat, qa and prod environments) calls the API with its
  // cookies: CORS with credentials for the configured portal origins only. The CSRF token and the
  // Origin check still apply to every state-changing call; the token is also sent in the
  // X-XSRF-TOKEN response header, since a page on another host cannot read this host's cookie.
  await app.register(cors, {
    origin: ctx.config.corsOrigins.length ? ctx.config.corsOrigins : false,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [
      'Content-Type',
      headers.csrf,
      headers.appId,
      headers.appName,
      headers.requestId,
      headers.acceptTokenType,
      headers.acceptTokenLocation,
      headers.tokenLocation,
      headers.sessionCtx,
      headers.eventType,
      headers.subEventType,
    ],
    exposedHeaders: ['X-Request-Id', 'Retry-After', headers.csrf],
    maxAge: 600,
  });

  const csrf = new Csrf(ctx);
  app.decorate('csrf', csrf);

  // The console on its own origin or networks (console/gate.ts): refused before any token is handed out.
  const consoleGate = new ConsoleGate(ctx.config.console.access);
  app.addHook('onSend', (request, reply, payload, done) => {
    ConsoleGate.withoutCors(request, reply);
    done(null, payload);
  });

  /**
   * The console gate, the CSRF token and the check of a state-changing call: false when it answered
   * (a refusal), true when the request goes on. Synchronous, run by a callback-style hook (issue 25).
   */
  const guard = (request: FastifyRequest, reply: FastifyReply): boolean => {
    reply.header('Cache-Control', 'no-store');
    // The OpenID Provider's own endpoints (oidc/plugin.ts) are OAuth's: clients authenticate, forms
    // carry the provider's own CSRF token, and no cookie of ours is handed out there.
    if (isProviderEndpoint(request)) return true;
    const refused = consoleGate.refusal(request);
    if (refused) {
      request.log.info({ reason: refused }, 'console gate: not here');
      const path = request.url.replace(/\?.*$/, '').slice(0, 200);
      answer(request, reply, Status.NOT_FOUND, { params: [`${request.method} ${path}`] });
      return false;
    }
    if (!handsOutToken(request)) return true;
    const consoleRoute = isConsoleRoute(request);
    const sessionToken = request.cookies[consoleRoute ? ctx.cookieNames.staff : ctx.cookieNames.session];
    let anonymous = request.cookies[ctx.cookieNames.device];
    if (!sessionToken && !anonymous) anonymous = issueDeviceCookie(ctx, reply);
    const binding = csrf.binding(sessionToken, anonymous, consoleRoute ? 'c' : 's');
    const sent = request.headers[headers.csrf.toLowerCase()];
    let token = consoleRoute ? (typeof sent === 'string' ? sent : undefined) : request.cookies[cookies.csrf];
    if (!csrf.verify(token, binding)) {
      token = csrf.issue(binding!);
      // The console keeps its token from the header; only the customer apps read the cookie.
      if (!consoleRoute) reply.setCookie(cookies.csrf, token, cookieOptions(ctx, false));
    }
    reply.header(headers.csrf, token);
    // Every state-changing request is checked, whatever its path: the path as written
    // (`/%61pi/…`, `//api/…`, `/api/./…`) is not what the router matches, so it decides nothing.
    if (!UNSAFE.has(request.method)) return true;

    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigin(ctx, request, origin)) {
      request.log.warn({ origin }, 'origin refused');
      answer(request, reply, Status.CSRF_REFUSED, { message: 'originRefused' });
      return false;
    }
    const header = request.headers[headers.csrf.toLowerCase()];
    if (!csrf.verify(typeof header === 'string' ? header : undefined, binding)) {
      request.log.warn('csrf token refused');
      answer(request, reply, Status.CSRF_REFUSED, { message: 'csrfRefused' });
      return false;
    }
    return true;
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (guard(request, reply)) done();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    csrf: Csrf;
  }
}
