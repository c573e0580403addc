import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Account } from '../db/schema.ts';
import { languageOf } from '../lib/language.ts';
import type { NoticeKind } from './mailer.ts';

/**
 * What a change of an account's proof of identity does (a password reset or change, a recovery, a
 * username change): every trusted device of the account asks for the second factor again, every
 * other session ends (the request's own, when it is the account's, goes on), and the owner gets an
 * e-mail saying what changed. A notice that cannot be delivered is logged; it never undoes the
 * change.
 */
export async function afterIdentityChange(
  ctx: Context,
  request: FastifyRequest,
  account: Pick<Account, 'id' | 'email' | 'language'>,
  change: {
    reason: string;
    notice: NoticeKind;
    keepSessionId?: string | undefined;
    /** The request's own journeys, which go on: a login (a forced username change during sign-in), the recovery that made the change. */
    keepJourneyIds?: ReadonlyArray<string | undefined>;
    /** The device (GH_DEVICE hash) whose saved username stays after a username change. */
    keepDeviceKey?: string | undefined;
  },
): Promise<void> {
  const revoked = await ctx.db.deleteFrom('trusted_devices').where('account_id', '=', account.id).execute();
  if (change.notice === 'username-changed') {
    // Other devices that saved the old name must not learn the new one: their saved entries go;
    // the device that made the change keeps its own, which now shows the new name.
    let saved = ctx.db.deleteFrom('remembered_usernames').where('account_id', '=', account.id);
    if (change.keepDeviceKey) saved = saved.where('device_key', '!=', change.keepDeviceKey);
    await saved.execute();
  }
  await ctx.sessions.endAllForAccount(account.id, change.reason, {
    sessionId: change.keepSessionId,
    journeyIds: (change.keepJourneyIds ?? []).filter((id): id is string => !!id),
    recovery: true,
  });
  request.log.info(
    {
      account: account.id,
      reason: change.reason,
      trustedDevicesEnded: Number(revoked[0]?.numDeletedRows ?? 0),
    },
    'trusted devices and other sessions ended',
  );
  await notifyOwner(ctx, request, account, change.notice);
}

/** Sends a security notice to the account's e-mail; a failure is logged, not thrown. */
export async function notifyOwner(
  ctx: Context,
  request: FastifyRequest,
  account: Pick<Account, 'id' | 'email' | 'language'>,
  notice: NoticeKind,
): Promise<void> {
  if (!account.email) return;
  try {
    await ctx.mailer.sendNotice({ to: account.email, notice, language: languageOf(account.language) });
    request.log.info({ account: account.id, notice }, 'security notice sent');
  } catch (error) {
    request.log.warn(
      { account: account.id, notice, reason: error instanceof Error ? error.message : 'unknown' },
      'security notice not delivered',
    );
  }
}
