import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Session } from '../db/schema.ts';
import { deviceKey } from './cookies.ts';
import { TRUSTED_DEVICE } from './sessions.ts';

/**
 * Trusted devices (design.md: "a bound device skips the second factor for a set number of days,
 * login journey only"). The device is the SHA-256 of its HttpOnly GH_DEVICE cookie; the binding is
 * a row per account and device with an expiry (TRUST_DEVICE_DAYS).
 */

/**
 * May this session bind its device? Only one that passed a second factor in its login journey: not
 * one that skipped it on a trusted device, had none due, or proved one only in a step-up.
 */
export async function mayBindDevice(ctx: Context, session: Pick<Session, 'id'>): Promise<boolean> {
  const factors = await ctx.sessions.factors(session.id);
  return factors.some((f) => f.level >= 2 && f.journeyKind === 'login' && f.kind !== TRUSTED_DEVICE);
}

/**
 * Binds the request's device to the account for the signed-in session `sessionId`; the expiry, or
 * null when it cannot be bound. The binding is written only while that session is live, under the
 * account's row: a password change (which ends the sessions and the bindings under the same row)
 * lands either before (nothing is bound) or after (the binding goes with the others).
 */
export async function bindDevice(
  ctx: Context,
  request: FastifyRequest,
  accountId: string,
  sessionId: string,
): Promise<Date | null> {
  const key = deviceKey(ctx, request);
  if (!key || ctx.config.factor.trustDeviceMs <= 0) return null;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.factor.trustDeviceMs);
  const userAgent = request.headers['user-agent']?.slice(0, 300) ?? null;
  const bound = await ctx.sessions.underAccount(accountId, 'share', async (_sessions, tx) => {
    const live = await tx
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    if (!live) return false;
    await tx
      .insertInto('trusted_devices')
      .values({
        account_id: accountId,
        device_key: key,
        created_at: now,
        expires_at: expiresAt,
        user_agent: userAgent,
        client_ip: request.ip,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'device_key']).doUpdateSet({
          created_at: now,
          expires_at: expiresAt,
          user_agent: userAgent,
          client_ip: request.ip,
        }),
      )
      .execute();
    return true;
  });
  if (!bound) return null;
  await ctx.audit.record(request, {
    event: 'trusted-device-bound',
    outcome: 'success',
    accountId,
    detail: { expiresAt: expiresAt.toISOString() },
  });
  return expiresAt;
}

export async function unbindDevice(ctx: Context, request: FastifyRequest, accountId: string): Promise<void> {
  const key = deviceKey(ctx, request);
  if (!key) return;
  const removed = await ctx.db
    .deleteFrom('trusted_devices')
    .where('account_id', '=', accountId)
    .where('device_key', '=', key)
    .executeTakeFirst();
  if (removed.numDeletedRows > 0n) {
    await ctx.audit.record(request, { event: 'trusted-device-revoked', outcome: 'success', accountId });
  }
}

/**
 * Is the request's device bound to the account and the binding not expired? (Session login asks
 * when it would skip the second factor: a yes records the use, which the security page shows.)
 */
export async function deviceTrusted(
  ctx: Context,
  request: FastifyRequest,
  accountId: string,
): Promise<boolean> {
  const key = deviceKey(ctx, request);
  if (!key || ctx.config.factor.trustDeviceMs <= 0) return false;
  const now = ctx.clock.now();
  const row = await ctx.db
    .updateTable('trusted_devices')
    .set({ last_used_at: now })
    .where('account_id', '=', accountId)
    .where('device_key', '=', key)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return !!row;
}
