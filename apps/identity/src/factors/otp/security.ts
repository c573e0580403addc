import {
  contactAddData,
  contactAddRequest,
  contactConfirmationData,
  contactConfirmationRequest,
  contactRemoveRequest,
  ErrorType,
  Status,
  securityPaths,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import { accountContacts, contactCredential, contactLabel, contactOf } from '../../credentials/contacts.ts';
import type { Credential } from '../../credentials/store.ts';
import { safeEqual } from '../../lib/crypto.ts';
import { ApiError, answer } from '../../lib/http.ts';
import { languageOf } from '../../lib/language.ts';
import { maskEmail, maskPhoneLabel } from '../../lib/mask.ts';
import { codeHash, newCode } from '../../lib/otp.ts';
import { defineRoute } from '../../lib/route.ts';
import { Confirmations } from '../../security/confirmations.ts';
import { capReached, isEstablished } from '../../security/credential-policy.ts';
import type { FactorSecurity } from '../../security/factor-security.ts';
import {
  appItem,
  auditChange,
  capRefusal,
  emailItem,
  limitAccount,
  noticeChange,
  phoneItem,
  removeCredential,
  wrongCode,
} from '../../security/service.ts';
import { PhoneLimits, phoneRefusal } from '../../services/phone-limits.ts';
import { smsCodeText } from '../../services/sms.ts';

const email = z.string().email();

/**
 * Phones and e-mail addresses on the security page (docs/decisions/025-security-page-api.md): an
 * addition sends a code to the new contact, confirmed with contacts/confirmation; the new contact
 * stays recent (unusable) for CONTACT_WAIT_DAYS; removal is its own call (contacts/remove), under
 * the last-factor rule and the last-e-mail rule.
 */
function routes(app: FastifyInstance, ctx: Context) {
  const confirmations = new Confirmations(ctx);
  const { phone } = ctx;
  const phoneLimits = new PhoneLimits(ctx.limiter, ctx.config);
  const tag = 'security';
  /** The counter key a new contact's code is hashed under: bound to its confirmation. */
  const contactCodeHash = (accountId: string, id: string, code: string) =>
    codeHash(ctx.config.otp.pepper, accountId, `security:${id}`, code);

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityContacts,
    tag,
    summary:
      'Add a phone number (normalised to E.164 with libphonenumber-js; a national number is read as US) or an e-mail address: a 6-digit code is sent to it, to be confirmed with contacts/confirmation.',
    body: contactAddRequest,
    successData: contactAddData,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth: { account } }) => {
      await limitAccount(ctx, request, account.id);
      let value: string;
      let countryCode: string | null = null;
      let to: string;
      let masked: string;
      if (body.kind === 'phone') {
        const parsed = parsePhoneNumberFromString(body.value, 'US');
        if (!parsed?.isValid())
          return answer(request, reply, Status.GUIDELINES_NOT_MET, { message: 'phoneInvalid' });
        value = parsed.nationalNumber;
        countryCode = parsed.countryCallingCode;
        to = parsed.number;
        masked = maskPhoneLabel(value, countryCode);
        // Premium-rate, shared-cost and high-risk ranges never get a text (decision 033).
        const refusal = phoneRefusal(ctx.config, to);
        if (refusal) {
          request.log.warn(
            { account: account.id, refusal },
            'security: phone number of a refused type or range',
          );
          return answer(request, reply, Status.GUIDELINES_NOT_MET, { message: 'phoneNotAccepted' });
        }
      } else {
        if (!email.safeParse(body.value).success) {
          return answer(request, reply, Status.GUIDELINES_NOT_MET, { message: 'emailInvalid' });
        }
        value = body.value.toLowerCase();
        to = value;
        masked = maskEmail(value);
      }
      const existing = await accountContacts(ctx.db, account.id);
      if (existing.some((c) => sameContact(c, body.kind, value, countryCode))) {
        return answer(request, reply, Status.CONTACT_EXISTS);
      }
      if (capReached(ctx, existing, body.kind)) return capRefusal(ctx, request, reply, body.kind);
      // Per number (across accounts), account, country and day: 429 when a limit is reached.
      if (body.kind === 'phone') {
        await phoneLimits.reserve(request, { to, purpose: 'new-number', accountId: account.id });
      }
      const code = newCode();
      const expiresAt = new Date(ctx.clock.now().getTime() + ctx.config.otp.expiryMs);
      const id = await confirmations.create({
        accountId: account.id,
        kind: body.kind,
        value,
        expiresAt,
        data: body.kind === 'phone' ? { countryCode, voice: body.voice ?? false } : {},
        codeHash: (confirmationId) => contactCodeHash(account.id, confirmationId, code),
      });
      const minutes = Math.round(ctx.config.otp.expiryMs / 60_000);
      try {
        if (body.kind === 'email') {
          await ctx.mailer.sendCode({
            to,
            code,
            expiryMinutes: minutes,
            language: languageOf(account.language),
          });
        } else {
          const sender = ctx.config.factor.smsSenderNames[0] ?? 'Gatehouse';
          const text = smsCodeText(sender, code, languageOf(account.language));
          await phone.send({ channel: 'sms', to, text, code });
        }
      } catch (error) {
        await confirmations.abandon(id);
        request.log.error(
          { err: error, account: account.id, kind: body.kind },
          'security: code not delivered',
        );
        throw new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM);
      }
      await ctx.audit.record(request, {
        event: 'security.contact-code-sent',
        outcome: 'success',
        accountId: account.id,
        detail: { kind: body.kind, to: masked },
      });
      return answer(request, reply, Status.SUCCESS, {
        params: [masked, minutes],
        successData: { confirmationId: id, masked, expiresAt: expiresAt.toISOString() },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityContactConfirmation,
    tag,
    summary:
      'Confirm a new phone or e-mail address with the code sent to it: it becomes a contact of the account, created now, so it stays unusable (enable false, recently added) for CONTACT_WAIT_DAYS.',
    body: contactConfirmationRequest,
    successData: contactConfirmationData,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth: guarded }) => {
      const { account } = guarded;
      await limitAccount(ctx, request, account.id);
      const reserved = await confirmations.reserve(body.confirmationId, account.id, ['phone', 'email']);
      if (!reserved) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      const { pending, tries } = reserved;
      const given = contactCodeHash(account.id, pending.id, body.securityCode);
      if (!pending.code_hash || !safeEqual(given, pending.code_hash)) {
        return wrongCode(ctx, confirmations, request, reply, guarded, {
          id: pending.id,
          tries,
          event: 'security.contact-failed',
        });
      }
      const kind = pending.kind as 'phone' | 'email';
      const countryCode = (pending.data.countryCode as string | null | undefined) ?? null;
      const value = pending.value ?? '';
      const added = await ctx.sessions.underAccount(account.id, 'update', async (_s, tx) => {
        const existing = await accountContacts(tx, account.id);
        if (existing.some((c) => sameContact(c, kind, value, countryCode))) return 'exists' as const;
        if (capReached(ctx, existing, kind)) return 'cap' as const;
        if (!(await confirmations.complete(tx, pending.id))) return undefined;
        const credential = await ctx.credentials.withDb(tx).add({
          accountId: account.id,
          ...contactCredential({ kind, value, countryCode, voice: pending.data.voice === true }),
        });
        await auditChange(ctx, request, tx, account.id, {
          event: 'security.contact-added',
          notice: 'contactAdded',
          detail: { kind, to: contactLabel(contactOf(credential)) },
        });
        return credential;
      });
      if (added === 'exists') return answer(request, reply, Status.CONTACT_EXISTS);
      if (added === 'cap') return capRefusal(ctx, request, reply, kind);
      if (!added) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      const contact = contactOf(added);
      await noticeChange(ctx, request, account, 'contactAdded');
      return answer(request, reply, Status.SUCCESS, {
        successData:
          kind === 'phone'
            ? { kind, phone: phoneItem(ctx, contact) }
            : { kind, email: emailItem(ctx, contact) },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityContactRemove,
    tag,
    summary:
      'Remove a phone or e-mail address of this account; never the last usable second factor, never the last e-mail address (notices go there).',
    body: contactRemoveRequest,
    auth: 'steppedUp',
    handler: async ({ request, reply, body, auth }) =>
      removeCredential(ctx, request, reply, auth, body.id, security),
  });
}

/** The same phone (national number and country code) or address (any case). */
function sameContact(
  contact: { kind: string; value: string; country_code: string | null },
  kind: 'phone' | 'email',
  value: string,
  countryCode: string | null,
): boolean {
  if (contact.kind !== kind) return false;
  if (kind === 'email') return contact.value.toLowerCase() === value.toLowerCase();
  return (
    contact.value.replace(/\D/g, '') === value.replace(/\D/g, '') &&
    (contact.country_code ?? '1').replace(/\D/g, '') === (countryCode ?? '1').replace(/\D/g, '')
  );
}

/**
 * Never the last established e-mail address on file (notices and recovery go there: a recent one
 * waiting does not count; the account row's own address counts unless it is this one).
 */
function lastEmail(
  ctx: Context,
  others: ReadonlyArray<Credential>,
  target: Credential,
  accountEmail: string | null,
): 'ok' | 'lastEmail' {
  if (target.kind !== 'email') return 'ok';
  const address = (target.publicPart ?? '').toLowerCase();
  const primary = accountEmail && accountEmail.toLowerCase() !== address ? 1 : 0;
  const established = others.filter((c) => c.kind === 'email' && isEstablished(ctx, c)).length;
  return !primary && !established ? 'lastEmail' : 'ok';
}

/** The contacts' part of the security page and the credential lifecycle (widget spec §5). */
export const security: FactorSecurity = {
  policy: {
    cap: { group: 'contacts', max: (config) => config.security.caps.contacts, message: 'capContacts' },
    // A recent phone or address waits for everything (widget spec §5).
    recentSignsIn: false,
    recovery: true,
  },
  routes,
  overview: (ctx, credentials) => ({
    items: credentials.map((c) => ({ ...appItem(ctx, c), name: contactLabel(contactOf(c)) })),
    lists: {
      phones: credentials.filter((c) => c.kind === 'phone').map((c) => phoneItem(ctx, contactOf(c))),
      emails: credentials.filter((c) => c.kind === 'email').map((c) => emailItem(ctx, contactOf(c))),
    },
  }),
  remove: {
    route: 'own',
    event: 'security.contact-removed',
    notice: 'contactRemoved',
    label: (c) => contactLabel(contactOf(c)),
    rule: lastEmail,
    // A removed established phone or address hears of it too (the owner's, removed by someone else).
    alsoTo: (ctx, c) => (isEstablished(ctx, c) ? [contactOf(c)] : []),
  },
};
