import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Journey } from '../db/schema.ts';
import { clearFlowCookie, setFlowCookie } from '../services/cookies.ts';

/**
 * Recovery journeys (portal spec §2 "Username / one-time code screen", reset password): rows of
 * kind 'recovery' bound to the browser by the HttpOnly GH_RECOVERY cookie. States: identified ->
 * code_sent -> confirmed -> consumed (the password was reset); ended or expired otherwise.
 */
export const recoveryOpenStates = ['identified', 'code_sent', 'confirmed'] as const;

/** The live recovery journey of a request, or null: unknown, ended, consumed or expired. */
export function loadFlow(ctx: Context, request: FastifyRequest): Promise<Journey | null> {
  return ctx.journeys.byToken('recovery', request.cookies[ctx.cookieNames.recovery]);
}

/** Starts a recovery journey and its cookie; any earlier one of the browser ends. */
export async function startFlow(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string | null,
): Promise<Journey> {
  await ctx.journeys.endByToken('recovery', request.cookies[ctx.cookieNames.recovery]);
  const { journey, token } = await ctx.journeys.start({
    kind: 'recovery',
    state: 'identified',
    accountId,
    ttlMs: ctx.config.recovery.flowMs,
    bound: true,
    clientIp: request.ip,
    userAgent: request.headers['user-agent'],
  });
  setFlowCookie(ctx, reply, token as string);
  return journey;
}

/**
 * Ends the browser's recovery journey (its GH_RECOVERY cookie), if it has one: signing in and
 * signing out end it, so the e-mail code path then acts for the login, not a forgotten recovery.
 */
export async function endBrowserFlow(ctx: Context, request: FastifyRequest, reply: FastifyReply) {
  const token = request.cookies[ctx.cookieNames.recovery];
  if (!token) return;
  await ctx.journeys.endByToken('recovery', token);
  clearFlowCookie(ctx, reply);
}
