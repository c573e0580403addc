import type { SecurityChange } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { accountContacts, e164 } from '../credentials/contacts.ts';
import type { Account, Contact } from '../db/schema.ts';
import { languageOf } from '../lib/language.ts';
import { isEstablished } from '../security/credential-policy.ts';
import { type NoticeKind, noticeText } from './mailer.ts';
import { PhoneLimits, phoneRefusal } from './phone-limits.ts';

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

/** What a notice may say beyond its kind: the security page's change and when it was made. */
export type NoticeDetails = {
  change?: SecurityChange;
  at?: Date;
  /** Established contacts that are no longer the account's (a removed address): told too. */
  alsoTo?: ReadonlyArray<Pick<Contact, 'kind' | 'value' | 'country_code'>>;
  /** The one contact (an address, or a number as E.164) not told: the one the event itself reached. */
  except?: string;
};

/**
 * The addresses and numbers the owner hears at: the account row's e-mail (it predates the
 * credential lifecycle, so it is established) and every established phone and e-mail credential
 * (security/credential-policy.ts); a recent one never (it may be the change's author).
 */
export async function ownerContacts(
  ctx: Context,
  account: Pick<Account, 'id' | 'email'>,
): Promise<{ emails: string[]; phones: string[] }> {
  const contacts = (await accountContacts(ctx.db, account.id)).filter((c) => isEstablished(ctx, c));
  const emails = new Map<string, string>();
  for (const address of [account.email, ...contacts.filter((c) => c.kind === 'email').map((c) => c.value)]) {
    if (address && !emails.has(address.toLowerCase())) emails.set(address.toLowerCase(), address);
  }
  const phones = [...new Set(contacts.filter((c) => c.kind === 'phone').map((c) => e164(c)))];
  return { emails: [...emails.values()], phones };
}

/**
 * Tells the owner of a change by every established contact: an e-mail to each address (the
 * notice's text, which says what to do if it wasn't them: recovery or a call to support) and a text
 * to each phone, in the account's language. A notice that cannot be delivered is logged, not
 * thrown: it never undoes the change.
 */
export async function notifyOwner(
  ctx: Context,
  request: FastifyRequest,
  account: Pick<Account, 'id' | 'email' | 'language'>,
  notice: NoticeKind,
  details: NoticeDetails = {},
): Promise<void> {
  const language = languageOf(account.language);
  const at = details.at ?? ctx.clock.now();
  const owner = await ownerContacts(ctx, account);
  const skip = details.except?.toLowerCase();
  const emails = owner.emails.filter((e) => e.toLowerCase() !== skip);
  const phones = owner.phones.filter((p) => p !== skip);
  for (const gone of details.alsoTo ?? []) {
    if (gone.kind === 'email' && !emails.some((e) => e.toLowerCase() === gone.value.toLowerCase())) {
      emails.push(gone.value);
    } else if (gone.kind === 'phone' && !phones.includes(e164(gone))) phones.push(e164(gone));
  }
  const deliveries: Array<[string, () => Promise<void>]> = emails.map((to) => [
    'email',
    () =>
      ctx.mailer.sendNotice({
        to,
        notice,
        language,
        at,
        supportPhone: ctx.config.supportPhone,
        ...(details.change ? { change: details.change } : {}),
      }),
  ]);
  if (phones.length) {
    const text = noticeText({
      to: '',
      notice,
      language,
      product: ctx.config.productName,
      supportPhone: ctx.config.supportPhone,
      ...(details.change ? { change: details.change } : {}),
    });
    // A notice by text passes the gate every text passes (decision 033): never to a number of a
    // refused type or range, and counted per number, country and day, so no one pumps texts
    // through changes of their own accounts. A notice refused there is not sent; the e-mails go.
    const limits = new PhoneLimits(ctx.limiter, ctx.config);
    for (const to of phones) {
      deliveries.push([
        'sms',
        async () => {
          if (phoneRefusal(ctx.config, to)) throw new Error('number of a refused type or range');
          await limits.reserve(request, { to, purpose: 'notice', accountId: account.id });
          await ctx.phone.send({ channel: 'sms', to, text });
        },
      ]);
    }
  }
  let sent = 0;
  for (const [channel, deliver] of deliveries) {
    try {
      await deliver();
      sent++;
    } catch (error) {
      request.log.warn(
        { account: account.id, notice, channel, reason: error instanceof Error ? error.message : 'unknown' },
        'security notice not delivered',
      );
    }
  }
  if (sent) request.log.info({ account: account.id, notice, sent }, 'security notice sent');
}
