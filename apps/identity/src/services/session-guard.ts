import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Journey, Session } from '../db/schema.ts';
import { sessionExpired } from '../lib/http.ts';

/** The signed-in session of a request, or a 401 envelope. */
export async function requireSession(ctx: Context, request: FastifyRequest): Promise<Session> {
  const session = await ctx.sessions.load(request.cookies[ctx.cookieNames.session]);
  if (!session) throw sessionExpired();
  await ctx.sessions.touch(session);
  return session;
}

/**
 * Who the browser acts for through its ET cookie: a signed-in session, or a login journey in
 * progress (after the password, before sign-in completes). Null: neither.
 */
export async function browserSubject(
  ctx: Context,
  request: FastifyRequest,
): Promise<{ accountId: string; session?: Session; login?: Journey } | null> {
  const token = request.cookies[ctx.cookieNames.session];
  const login = await ctx.journeys.byToken('login', token);
  if (login?.account_id) return { accountId: login.account_id, login };
  const session = await ctx.sessions.load(token);
  return session ? { accountId: session.account_id, session } : null;
}
