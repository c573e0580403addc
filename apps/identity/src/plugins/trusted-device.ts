import { paths, Status, serverMessages, trustedDeviceData, trustedDeviceRequest } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Session } from '../db/schema.ts';
import { ApiError, failure, outcome } from '../lib/http.ts';
import { defineRoute } from '../lib/route.ts';
import { deviceKey } from './security.ts';
import { requireSession } from './session.ts';

/**
 * Trusted devices (design.md: "a bound device skips the second factor for a set number of days,
 * login journey only"). The device is the SHA-256 of its HttpOnly GH_DEVICE cookie; the binding is
 * a row per account and device with an expiry (TRUST_DEVICE_DAYS).
 */

/** What session login records as the factor passed when a trusted device skipped it. */
export const TRUSTED_DEVICE = 'TRUSTED-DEVICE';

/**
 * May this session bind its device? Only a session that passed a one-time-code factor at sign-in
 * (the LOGIN journey): not one that skipped it on a trusted device, nor one that had none due.
 */
export const mayBindDevice = (session: Pick<Session, 'factor_passed'>): boolean =>
  !!session.factor_passed && session.factor_passed !== TRUSTED_DEVICE;

/** Binds the request's device to the account; the expiry, or null when it cannot be bound. */
export async function bindDevice(
  ctx: Context,
  request: FastifyRequest,
  accountId: string,
): Promise<Date | null> {
  const key = deviceKey(ctx, request);
  if (!key || ctx.config.factor.trustDeviceMs <= 0) return null;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.factor.trustDeviceMs);
  await ctx.db
    .insertInto('trusted_devices')
    .values({ account_id: accountId, device_key: key, created_at: now, expires_at: expiresAt })
    .onConflict((oc) =>
      oc.columns(['account_id', 'device_key']).doUpdateSet({ created_at: now, expires_at: expiresAt }),
    )
    .execute();
  return expiresAt;
}

export async function unbindDevice(ctx: Context, request: FastifyRequest, accountId: string): Promise<void> {
  const key = deviceKey(ctx, request);
  if (!key) return;
  await ctx.db
    .deleteFrom('trusted_devices')
    .where('account_id', '=', accountId)
    .where('device_key', '=', key)
    .execute();
}

/** Is the request's device bound to the account and the binding not expired? */
export async function deviceTrusted(
  ctx: Context,
  request: FastifyRequest,
  accountId: string,
): Promise<boolean> {
  const key = deviceKey(ctx, request);
  if (!key || ctx.config.factor.trustDeviceMs <= 0) return false;
  const row = await ctx.db
    .selectFrom('trusted_devices')
    .select('id')
    .where('account_id', '=', accountId)
    .where('device_key', '=', key)
    .where('expires_at', '>', ctx.clock.now())
    .executeTakeFirst();
  return !!row;
}

export async function trustedDevicePlugin(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'POST',
    path: paths.trustedDevice,
    tag: 'factors',
    summary:
      'Trust this device (bindDevice true: skip the second factor at sign-in for TRUST_DEVICE_DAYS) or stop trusting it (false).',
    body: trustedDeviceRequest,
    successData: trustedDeviceData,
    handler: async ({ request, reply, body }) => {
      const session = await requireSession(ctx, request);
      if (!body.bindDevice) {
        await unbindDevice(ctx, request, session.account_id);
        request.log.info({ account: session.account_id }, 'device no longer trusted');
        return outcome(request, reply, Status.SUCCESS, serverMessages.deviceNotTrusted, {
          successData: { trusted: false },
        });
      }
      const expiresAt = mayBindDevice(session) ? await bindDevice(ctx, request, session.account_id) : null;
      if (!expiresAt) {
        return failure(request, reply, new ApiError(200, Status.FORBIDDEN, serverMessages.trustNeedsFactor));
      }
      request.log.info({ account: session.account_id }, 'device trusted');
      return outcome(request, reply, Status.SUCCESS, serverMessages.deviceTrusted, {
        successData: { trusted: true, expiresAt: expiresAt.toISOString() },
      });
    },
  });
}
