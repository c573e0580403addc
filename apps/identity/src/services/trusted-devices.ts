import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { Journey, Session } from '../db/schema.ts';
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
 * After the password, on an account with a second factor: a device bound to it skips the factor
 * (the binding's last use is recorded), and on any other device the login journey moves to
 * 'factor'. Both in one statement (issue 25). 'gone': another call moved or ended the journey
 * first, or it expired.
 */
export async function trustedOrFactorDue(
  ctx: Context,
  request: FastifyRequest,
  accountId: string,
  journey: Pick<Journey, 'id'>,
  data?: Record<string, unknown>,
): Promise<'trusted' | 'due' | 'gone'> {
  const key = deviceKey(ctx, request);
  const now = ctx.clock.now();
  const trustable = !!key && ctx.config.factor.trustDeviceMs > 0;
  const due = ctx.journeys.factorDueFrom(journey, {
    ...(data ? { data } : {}),
    condition: sql`not exists (select 1 from trusted)`,
  });
  const { rows } = await sql<{ trusted: boolean; due: boolean }>`
    with trusted as (
      update trusted_devices set last_used_at = ${now}
      where ${trustable}::boolean and account_id = ${accountId} and device_key = ${key ?? ''}
        and expires_at > ${now}
      returning id
    ), due as (${due})
    select exists (select 1 from trusted) as trusted, exists (select 1 from due) as due`.execute(ctx.db);
  const row = rows[0]!;
  return row.trusted ? 'trusted' : row.due ? 'due' : 'gone';
}
