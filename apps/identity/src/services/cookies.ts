import { cookies } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Context, CookieNames } from '../context.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';

/**
 * The cookies the service sets, in one place for every plugin: the session (ET), the device
 * (GH_DEVICE), the recovery journey (GH_RECOVERY), the host context and, through the CSRF guard,
 * XSRF-TOKEN.
 */

/**
 * The server's own HttpOnly cookies get the `__Host-` prefix when COOKIE_HOST_PREFIX is on (the
 * default in production): a browser then takes them only over HTTPS, for Path=/ and without a
 * Domain, so a sibling subdomain cannot plant or shadow them. XSRF-TOKEN and SESSION_SCTX keep the
 * names the clients read them by; the CSRF token is bound to the HttpOnly cookies, so a planted one
 * is refused anyway.
 */
export function cookieNames(config: Config): CookieNames {
  const prefix = config.cookieHostPrefix ? '__Host-' : '';
  return {
    session: `${prefix}${cookies.session}`,
    device: `${prefix}${cookies.device}`,
    recovery: `${prefix}${cookies.recovery}`,
    // `__Host-` needs Path=/; the staff cookie's path is /api/console, so it takes `__Secure-`.
    staff: `${config.cookieHostPrefix ? '__Secure-' : ''}${STAFF_COOKIE}`,
  };
}

/** The representative console's session cookie (console/plugin.ts), path /api/console. */
export const STAFF_COOKIE = 'GH_STAFF';

/** Cookie attributes of every cookie the service sets. */
export function cookieOptions(ctx: Context, httpOnly = true) {
  return {
    path: '/',
    httpOnly,
    secure: ctx.config.cookieSecure,
    sameSite: ctx.config.cookieSameSite,
  } as const;
}

/** The GH_DEVICE cookie lives this long (400 days, the most browsers keep a cookie). */
const DEVICE_COOKIE_MAX_AGE = 400 * 24 * 3600;

/** Sets a new long-lived HttpOnly GH_DEVICE cookie; returns its token. */
export function issueDeviceCookie(ctx: Context, reply: FastifyReply): string {
  const token = randomToken(24);
  reply.setCookie(ctx.cookieNames.device, token, { ...cookieOptions(ctx), maxAge: DEVICE_COOKIE_MAX_AGE });
  return token;
}

/** The device of a request: the SHA-256 of its GH_DEVICE cookie, or undefined without one. */
export function deviceKey(ctx: Context, request: FastifyRequest): string | undefined {
  const token = request.cookies[ctx.cookieNames.device];
  return token && token.length <= 100 ? sha256(token) : undefined;
}

/** Sets the session cookies of a new token (and its host context) and a CSRF token bound to it. */
export function setSessionCookies(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  context?: string | null,
) {
  reply.setCookie(ctx.cookieNames.session, token, cookieOptions(ctx));
  if (context) reply.setCookie(cookies.sessionContext, context, cookieOptions(ctx, false));
  request.server.csrf.rebind(reply, token, request);
}

/** Clears the session cookies and sets a CSRF token bound to no session (sign-out, lockout, end). */
export function clearSessionCookies(ctx: Context, request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(ctx.cookieNames.session, cookieOptions(ctx));
  reply.clearCookie(cookies.sessionContext, cookieOptions(ctx, false));
  request.server.csrf.rebind(reply, undefined, request);
}

/** The GH_RECOVERY cookie lives as long as the recovery journey may. */
export function setFlowCookie(ctx: Context, reply: FastifyReply, token: string) {
  reply.setCookie(ctx.cookieNames.recovery, token, {
    ...cookieOptions(ctx),
    maxAge: Math.ceil(ctx.config.recovery.flowMs / 1000),
  });
}

export function clearFlowCookie(ctx: Context, reply: FastifyReply) {
  reply.clearCookie(ctx.cookieNames.recovery, cookieOptions(ctx));
}
