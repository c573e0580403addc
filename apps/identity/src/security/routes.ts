import { randomBytes } from 'node:crypto';
import {
  authenticatorConfirmationData,
  authenticatorConfirmationRequest,
  authenticatorEnrollmentData,
  authenticatorEnrollmentRequest,
  contactAddData,
  contactAddRequest,
  contactConfirmationData,
  contactConfirmationRequest,
  contactRemoveRequest,
  credentialRemoveRequest,
  ErrorType,
  Status,
  securityOverviewData,
  securityPaths,
  serverMessages,
  sessionEndData,
  sessionEndRequest,
  trustedBrowserRevokeData,
  trustedBrowserRevokeRequest,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import type { Context } from '../context.ts';
import { accountContacts, contactCredential, contactLabel } from '../credentials/contacts.ts';
import type { CredentialKind } from '../credentials/store.ts';
import { findStep, timeStep } from '../factors/app-codes.ts';
import { safeEqual } from '../lib/crypto.ts';
import { ApiError, answer } from '../lib/http.ts';
import { languageOf } from '../lib/language.ts';
import { maskEmail, maskPhoneLabel } from '../lib/mask.ts';
import { codeHash, newCode } from '../lib/otp.ts';
import { defineRoute } from '../lib/route.ts';
import { PhoneLimits, phoneRefusal } from '../services/phone-limits.ts';
import { smsCodeText } from '../services/sms.ts';
import { Confirmations } from './confirmations.ts';
import { capGroupOf, capOf, capReached, isEstablished, removal } from './credential-policy.ts';
import {
  appItem,
  auditChange,
  contactOf,
  emailItem,
  type Guarded,
  limitAccount,
  noticeChange,
  otpauthUri,
  overview,
  phoneItem,
  requireSteppedUp,
} from './service.ts';

const SHA1 = { algorithm: 'SHA1', digits: 6 } as const;
const email = z.string().email();

/**
 * The portal's security page (`#/security`; docs/decisions/025-security-page-api.md): nine calls
 * under /api/user/security, each behind the signed-in session and a step-up within
 * SECURITY_STEPUP_MINUTES (service.ts requireSteppedUp).
 */
export async function securityPagePlugin(app: FastifyInstance, ctx: Context) {
  const confirmations = new Confirmations(ctx);
  const { phone } = ctx;
  const phoneLimits = new PhoneLimits(ctx.limiter, ctx.config);
  const tag = 'security';
  /** The counter key a new contact's code is hashed under: bound to its confirmation. */
  const contactCodeHash = (accountId: string, id: string, code: string) =>
    codeHash(ctx.config.otp.pepper, accountId, `security:${id}`, code);

  defineRoute(app, {
    method: 'GET',
    path: securityPaths.securityOverview,
    tag,
    summary:
      "The security page: the account's authenticator apps, push devices, tokens, phones, e-mail addresses, trusted browsers, signed-in sessions and recent security activity; stepUpExpiresAt.",
    successData: securityOverviewData,
    handler: async ({ request, reply }) => {
      const guarded = await requireSteppedUp(ctx, request);
      return answer(request, reply, Status.SUCCESS, { successData: await overview(ctx, request, guarded) });
    },
  });

  // --- authenticator app ---------------------------------------------------------------------------
  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityAuthenticatorEnrollment,
    tag,
    summary:
      'Start adding an authenticator app: a new secret (kept encrypted, pending) as base32 and as an otpauth:// URI for a QR code; it counts once confirmed with a code within SECURITY_ENROLLMENT_MINUTES.',
    body: authenticatorEnrollmentRequest,
    successData: authenticatorEnrollmentData,
    handler: async ({ request, reply }) => {
      const { account } = await requireSteppedUp(ctx, request);
      await limitAccount(ctx, request, account.id);
      if (capReached(ctx, await ctx.credentials.list(account.id), 'totp'))
        return capRefusal(request, reply, 'totp');
      const secret = randomBytes(20);
      const expiresAt = new Date(ctx.clock.now().getTime() + ctx.config.security.enrollmentMs);
      const enrollmentId = await confirmations.create({
        accountId: account.id,
        kind: 'totp',
        expiresAt,
        secret,
        data: { algorithm: 'SHA1', digits: 6, period: 30 },
      });
      const uri = otpauthUri(account.username, secret);
      secret.fill(0);
      request.log.info({ account: account.id }, 'security: authenticator app enrollment started');
      return answer(request, reply, Status.SUCCESS, {
        successData: {
          enrollmentId,
          secret: new URL(uri).searchParams.get('secret') ?? '',
          otpauthUri: uri,
          expiresAt: expiresAt.toISOString(),
        },
      });
    },
  });

  /** The account holds the most credentials of this kind's group (CREDENTIAL_MAX_*): 1491. */
  function capRefusal(request: FastifyRequest, reply: FastifyReply, kind: CredentialKind) {
    const group = capGroupOf(kind);
    request.log.info({ group }, 'security: credential cap reached');
    return answer(request, reply, Status.LIMIT_REACHED, {
      message: group === 'contacts' ? 'capContacts' : 'capApps',
      params: [capOf(ctx, group)],
    });
  }

  /** A wrong code of a confirmation: 1428, or 1491 for the one that reached the limit. */
  async function wrongCode(
    request: FastifyRequest,
    reply: FastifyReply,
    guarded: Guarded,
    input: { id: string; tries: number; event: 'security.authenticator-failed' | 'security.contact-failed' },
  ) {
    const exhausted = input.tries >= ctx.config.security.confirmMaxTries;
    if (exhausted) await confirmations.exhaust(input.id);
    await ctx.audit.record(request, {
      event: input.event,
      outcome: 'failure',
      accountId: guarded.account.id,
      detail: { tries: input.tries, exhausted },
    });
    return answer(request, reply, exhausted ? Status.LIMIT_REACHED : Status.INCORRECT_CODE);
  }

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityAuthenticatorConfirmation,
    tag,
    summary:
      'Confirm a pending authenticator app with a current code of it: it becomes a credential of the account (kind totp). Wrong codes are counted; SECURITY_CONFIRM_MAX_TRIES end the enrollment.',
    body: authenticatorConfirmationRequest,
    successData: authenticatorConfirmationData,
    handler: async ({ request, reply, body }) => {
      const guarded = await requireSteppedUp(ctx, request);
      const { account } = guarded;
      await limitAccount(ctx, request, account.id);
      const reserved = await confirmations.reserve(body.enrollmentId, account.id, ['totp']);
      if (!reserved) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      const { pending, tries } = reserved;
      const secret = confirmations.secretOf(pending);
      const step = findStep(
        secret,
        body.securityCode,
        timeStep(ctx.clock.now(), 30),
        ctx.config.totp.skewSteps,
        SHA1,
      );
      if (step === null) {
        secret.fill(0);
        return wrongCode(request, reply, guarded, {
          id: pending.id,
          tries,
          event: 'security.authenticator-failed',
        });
      }
      // Under the account's row: of concurrent confirmations, the cap admits exactly as many as it has room for.
      const added = await ctx.sessions.underAccount(account.id, 'update', async (_s, tx) => {
        if (capReached(ctx, await ctx.credentials.withDb(tx).list(account.id), 'totp')) return 'cap' as const;
        if (!(await confirmations.complete(tx, pending.id))) return undefined;
        // The confirming code's step counts as used: it never signs in (factors/app-codes claimStep).
        const credential = await ctx.credentials.withDb(tx).add({
          accountId: account.id,
          kind: 'totp',
          name: body.name ?? 'Authenticator app',
          secret,
          data: { algorithm: 'SHA1', digits: 6, period: 30, lastStep: step },
        });
        await auditChange(ctx, request, tx, account.id, {
          event: 'security.authenticator-added',
          notice: 'authenticatorAdded',
          detail: { kind: 'totp', name: credential.name },
        });
        return credential;
      });
      secret.fill(0);
      if (added === 'cap') return capRefusal(request, reply, 'totp');
      if (!added) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      await noticeChange(ctx, request, account, 'authenticatorAdded');
      return answer(request, reply, Status.SUCCESS, { successData: { authenticator: appItem(ctx, added) } });
    },
  });

  /**
   * Removes a credential of the account under its row (two removals cannot both pass the rule):
   * 1404 when it is not the account's or not of `kinds`; 1403 when the credential policy keeps it
   * (credential-policy.ts removal: the last usable or last established second factor, or
   * (`lastEmail`) the last established e-mail address on file). The step-up that opened the page
   * was proved by an established credential (a recent one never satisfies it), so removing an
   * established credential always has an established proof behind it.
   */
  async function removeCredential(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    kinds: readonly CredentialKind[],
    notice: 'credentialRemoved' | 'contactRemoved',
  ) {
    const { account } = await requireSteppedUp(ctx, request);
    const outcome = await ctx.sessions.underAccount(account.id, 'update', async (_s, tx) => {
      const store = ctx.credentials.withDb(tx);
      const all = await store.list(account.id);
      const target = all.find((c) => c.id === id && kinds.includes(c.kind));
      if (!target) return { code: Status.UNKNOWN_TRANSACTION } as const;
      const rule = removal(ctx, all, target, account.email);
      if (rule !== 'ok') return { code: Status.FORBIDDEN, message: rule } as const;
      await store.remove(target.id, account.id);
      const label =
        target.kind === 'phone' || target.kind === 'email' ? contactLabel(contactOf(target)) : target.name;
      await auditChange(ctx, request, tx, account.id, {
        event: notice === 'contactRemoved' ? 'security.contact-removed' : 'security.credential-removed',
        notice,
        detail: { kind: target.kind, name: label },
      });
      // A removed established phone or address hears of it too (the owner's, removed by someone else).
      const told = (target.kind === 'phone' || target.kind === 'email') && isEstablished(ctx, target);
      return { code: Status.SUCCESS, told: told ? [contactOf(target)] : [] } as const;
    });
    if (outcome.code !== Status.SUCCESS) {
      return answer(request, reply, outcome.code, 'message' in outcome ? { message: outcome.message } : {});
    }
    await noticeChange(ctx, request, account, notice, outcome.told);
    return answer(request, reply, Status.SUCCESS);
  }

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityCredentialRemove,
    tag,
    summary:
      "Remove an authenticator app, token or push device of this account; never the account's last usable second factor.",
    body: credentialRemoveRequest,
    handler: async ({ request, reply, body }) =>
      removeCredential(request, reply, body.id, ['totp', 'token', 'push'], 'credentialRemoved'),
  });

  // --- phones and e-mail addresses ---------------------------------------------------------------------
  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityContacts,
    tag,
    summary:
      'Add a phone number (normalised to E.164 with libphonenumber-js; a national number is read as US) or an e-mail address: a 6-digit code is sent to it, to be confirmed with contacts/confirmation.',
    body: contactAddRequest,
    successData: contactAddData,
    handler: async ({ request, reply, body }) => {
      const { account } = await requireSteppedUp(ctx, request);
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
      if (capReached(ctx, existing, body.kind)) return capRefusal(request, reply, body.kind);
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
    handler: async ({ request, reply, body }) => {
      const guarded = await requireSteppedUp(ctx, request);
      const { account } = guarded;
      await limitAccount(ctx, request, account.id);
      const reserved = await confirmations.reserve(body.confirmationId, account.id, ['phone', 'email']);
      if (!reserved) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      const { pending, tries } = reserved;
      const given = contactCodeHash(account.id, pending.id, body.securityCode);
      if (!pending.code_hash || !safeEqual(given, pending.code_hash)) {
        return wrongCode(request, reply, guarded, {
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
      if (added === 'cap') return capRefusal(request, reply, kind);
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
    handler: async ({ request, reply, body }) =>
      removeCredential(request, reply, body.id, ['phone', 'email'], 'contactRemoved'),
  });

  // --- trusted browsers and sessions -------------------------------------------------------------------
  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securityTrustedBrowserRevoke,
    tag,
    summary:
      'Stop trusting one browser ({ id }) or every browser ({ all: true }) of this account: each must pass the second factor again at sign-in.',
    body: trustedBrowserRevokeRequest,
    successData: trustedBrowserRevokeData,
    handler: async ({ request, reply, body }) => {
      const { account } = await requireSteppedUp(ctx, request);
      const all = 'all' in body;
      const notice = all ? 'trustedBrowsersRevoked' : 'trustedBrowserRevoked';
      const revoked = await ctx.db.transaction().execute(async (tx) => {
        let query = tx.deleteFrom('trusted_devices').where('account_id', '=', account.id);
        if ('id' in body) query = query.where('id', '=', body.id);
        const n = Number((await query.executeTakeFirst()).numDeletedRows);
        if ('id' in body && n === 0) return 0;
        await auditChange(ctx, request, tx, account.id, {
          event: 'security.trusted-browser-revoked',
          notice,
          detail: { revoked: n, all },
        });
        return n;
      });
      if ('id' in body && revoked === 0) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      // Nothing was trusted: nothing changed, so no notice.
      if (revoked > 0) await noticeChange(ctx, request, account, notice);
      return answer(request, reply, Status.SUCCESS, {
        message: all ? 'trustedBrowsersRevoked' : 'trustedBrowserRevoked',
        successData: { revoked },
      });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: securityPaths.securitySessionEnd,
    tag,
    summary:
      'End another signed-in session of this account ({ id }: its cookie stops working) or all of them but this one ({ allOthers: true }).',
    body: sessionEndRequest,
    successData: sessionEndData,
    handler: async ({ request, reply, body }) => {
      const { account, session } = await requireSteppedUp(ctx, request);
      let ended: number;
      const allOthers = 'allOthers' in body;
      const change = (n: number) =>
        ({
          event: 'security.session-ended',
          notice: allOthers ? 'otherSessionsEnded' : 'sessionEnded',
          detail: { ended: n, allOthers },
        }) as const;
      if ('id' in body) {
        if (body.id === session.public_id) return answer(request, reply, Status.FORBIDDEN);
        ended = await ctx.db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('sessions')
            .set({ ended_at: ctx.clock.now(), end_reason: 'ended-by-owner' })
            .where('account_id', '=', account.id)
            .where('public_id', '=', body.id)
            .where('id', '!=', session.id)
            .where('ended_at', 'is', null)
            .executeTakeFirst();
          const n = Number(result.numUpdatedRows);
          if (n > 0) await auditChange(ctx, request, tx, account.id, change(n));
          return n;
        });
        if (ended === 0) return answer(request, reply, Status.UNKNOWN_TRANSACTION);
      } else {
        // Count, end and audit in one transaction under the account's row: the audit row never
        // misses a change that happened, nor records one that did not.
        ended = await ctx.sessions.underAccount(account.id, 'update', async (sessions, tx) => {
          const live = await tx
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('account_id', '=', account.id)
            .where('id', '!=', session.id)
            .where('ended_at', 'is', null)
            .executeTakeFirstOrThrow();
          const n = Number(live.n);
          // Their sign-ins and step-ups in flight end with them (services/sessions.ts).
          await sessions.endAll(account.id, 'ended-by-owner', { sessionId: session.id });
          await auditChange(ctx, request, tx, account.id, change(n));
          return n;
        });
      }
      // Nothing ended (no other session): nothing to tell the owner.
      if (ended > 0) await noticeChange(ctx, request, account, change(ended).notice);
      return answer(request, reply, Status.SUCCESS, {
        message: allOthers ? 'otherSessionsEnded' : 'sessionEnded',
        successData: { ended },
      });
    },
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
