import {
  type AuthenticatorType,
  ErrorType,
  format,
  limits,
  otpCheck,
  otpSmsSend,
  otpVoiceSend,
  paths,
  Status,
  serverMessages,
  smsTemplate,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Account, Contact as ContactRow, Session } from '../db/schema.ts';
import { ApiError, failure, noLoginInProgress, outcome } from '../lib/http.ts';
import { factorCounter, OtpCodes } from '../lib/otp.ts';
import { defineRoute } from '../lib/route.ts';
import { UUID } from '../lib/validate.ts';
import { findAccountById } from '../services/accounts.ts';
import { createPhoneSender, type PhoneSender, voiceText } from '../services/sms.ts';
import {
  accountContacts,
  allowedAuthenticators,
  contactEnabled,
  contactLabel,
  e164,
  requireFactorSession,
} from './factors.ts';
import { clearSessionCookies, setSessionCookies } from './security.ts';
import { bindDevice } from './trusted-device.ts';

/**
 * The one-time-code second factor by text, voice call and e-mail, for the LOGIN journey (a login
 * transaction in state 'factor') and STEPUP (a signed-in session proving a factor again). Widget
 * spec §2 OTP screens, §4 "OTP flow" and the send/validate status mapping, §7 calls.
 */

export type FactorChannel = 'sms' | 'voice' | 'email';

export const channelAuthenticator: Record<FactorChannel, AuthenticatorType> = {
  sms: 'OTP-SMS',
  voice: 'OTP-VOICE',
  email: 'OTP-EMAIL',
};

/**
 * The text a code goes out in: the contract's template with one of the configured short names. A
 * request may name the template it expects (the widget sends it, spec §2), but only that exact text
 * is accepted: the caller never writes what the bank's sender says. Null: the request's is not one.
 */
export function smsText(config: Context['config'], requested: string | undefined): string | null {
  const allowed = config.factor.smsSenderNames.map((name) => format(smsTemplate, name));
  if (requested === undefined) return allowed[0] ?? null;
  return allowed.includes(requested) ? requested : null;
}

const badRequest = (problem: string) =>
  new ApiError(400, Status.BAD_REQUEST, format(serverMessages.badRequest, problem));

/**
 * Sends and checks second-factor codes. One instance per plugin that answers the calls (this one
 * for text and voice; recovery.ts for e-mail, whose path it shares with account recovery).
 */
export class OtpFactor {
  private readonly codes: OtpCodes;
  constructor(
    private readonly ctx: Context,
    private readonly phone?: PhoneSender,
  ) {
    this.codes = new OtpCodes(ctx.db, ctx.clock, ctx.config);
  }

  private limitReached(request: FastifyRequest, reply: FastifyReply) {
    return failure(
      request,
      reply,
      new ApiError(200, Status.LIMIT_REACHED, serverMessages.factorLimitReached),
    );
  }

  /**
   * Whether the channel is refused for the account: too many wrong codes (or, for a send, too many
   * sends without a correct code). Counts older than FACTOR_LOCKOUT_MINUTES since the last try or
   * send are forgotten.
   */
  private async refused(accountId: string, channel: FactorChannel, forSend: boolean): Promise<boolean> {
    const { factor } = this.ctx.config;
    const counter = factorCounter(channel);
    const row = await this.codes.counters(accountId, counter);
    if (!row) return false;
    const now = this.ctx.clock.now().getTime();
    // Too many wrong codes: refused until the lock the limit set runs out. (The count itself may
    // be at the limit only for a moment, while tries are in flight: that refuses nothing.)
    if (row.locked_until && new Date(row.locked_until).getTime() > now) return true;
    if (row.locked_until || now - new Date(row.updated_at).getTime() >= factor.lockoutMs) {
      if (row.wrong_tries || row.unentered_sends || row.locked_until) {
        await this.codes.resetCounters(accountId, counter);
      }
      return false;
    }
    return forSend && row.unentered_sends >= factor.maxSends;
  }

  /** The account's contact for this channel, if it is the account's, usable and of the right kind. */
  private async usableContact(
    account: Account,
    channel: FactorChannel,
    contactId: string,
  ): Promise<{ contact: ContactRow | undefined; allowed: boolean }> {
    const contacts = await accountContacts(this.ctx.db, account.id);
    const allowed = (await allowedAuthenticators(this.ctx, account, contacts)).some(
      (a) => a.type === channelAuthenticator[channel],
    );
    const id = contactId.trim();
    const contact = UUID.test(id)
      ? contacts.find(
          (c) =>
            c.id === id.toLowerCase() &&
            c.kind === (channel === 'email' ? 'email' : 'phone') &&
            (channel !== 'voice' || c.voice) &&
            contactEnabled(this.ctx, c),
        )
      : undefined;
    return { contact, allowed };
  }

  /** POST: send a code to one of the account's contacts (by its id from the OTP state call). */
  async send(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    input: { contactId: string; template?: string },
  ) {
    const { ctx } = this;
    const template = channel === 'sms' ? smsText(ctx.config, input.template) : null;
    if (channel === 'sms' && template === null) {
      throw badRequest(
        "message: must be the service's text template with an allowed application name (SMS_SENDER_NAMES)",
      );
    }
    const account = await this.activeAccount(session);
    if (!account) return this.limitReached(request, reply);
    const { contact, allowed } = await this.usableContact(account, channel, input.contactId);
    if (!allowed) {
      return failure(request, reply, new ApiError(200, Status.FORBIDDEN, serverMessages.factorNotAllowed));
    }
    if (!contact) {
      return failure(request, reply, new ApiError(200, Status.FORBIDDEN, serverMessages.contactNotUsable));
    }
    if (await this.refused(account.id, channel, true)) {
      request.log.warn({ account: account.id, channel }, 'second factor: channel refused (limit)');
      return this.limitReached(request, reply);
    }
    const sends = await this.codes.countSend(account.id, factorCounter(channel));
    if (sends > ctx.config.factor.maxSends) {
      request.log.warn({ account: account.id, channel, sends }, 'second factor: send limit reached');
      return this.limitReached(request, reply);
    }

    const to = contact.kind === 'phone' ? e164(contact) : contact.value;
    const { code } = await this.codes.issue({
      accountId: account.id,
      channel,
      recipient: to,
      sessionId: session.id,
    });
    const minutes = Math.round(ctx.config.otp.expiryMs / 60_000);
    try {
      if (channel === 'email') {
        await ctx.mailer.sendCode({ to, code, expiryMinutes: minutes });
      } else {
        if (!this.phone) throw new Error('no text/voice delivery configured');
        const text =
          channel === 'sms' ? (template ?? '').split(limits.smsCodePlaceholder).join(code) : voiceText(code);
        await this.phone.send({ channel, to, text, code });
      }
    } catch (error) {
      // Nothing arrived: the code must not stay usable, and the caller may try again.
      await this.codes.revokeAll(account.id, channel);
      request.log.error({ err: error, account: account.id, channel }, 'second factor: delivery failed');
      throw new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM);
    }
    request.log.info(
      { account: account.id, channel, sends, journey: session.state === 'factor' ? 'LOGIN' : 'STEPUP' },
      'second factor: code sent',
    );
    const label = contactLabel(contact);
    if (channel === 'sms' && ctx.config.factor.smsOutage) {
      return outcome(request, reply, Status.CARRIER_OUTAGE, serverMessages.carrierOutage, {
        ruleData: { carrierOutage: true },
      });
    }
    const message = channel === 'voice' ? serverMessages.factorCallPlaced : serverMessages.factorCodeSent;
    return outcome(request, reply, Status.SUCCESS, format(message, label, minutes));
  }

  private async activeAccount(session: Session): Promise<Account | undefined> {
    const account = await findAccountById(this.ctx.db, session.account_id);
    return account?.status === 'active' ? account : undefined;
  }

  /** PUT: check a code. Right: the session is (again) authenticated under a new token. */
  async check(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    input: { securityCode: string; bindDevice?: boolean | undefined },
  ) {
    const { ctx } = this;
    const login = session.state === 'factor';
    const account = await this.activeAccount(session);
    if (!account) return this.limitReached(request, reply);
    await ctx.limiter.enforce(request, [
      [`code-check:session:${session.id}`, ctx.config.codeCheck.session],
      [`code-check:account:${account.id}`, ctx.config.codeCheck.account],
    ]);
    if (await this.refused(account.id, channel, false)) return this.tooManyWrong(request, reply, session);
    const result = await this.codes.check({
      accountId: account.id,
      channel,
      code: input.securityCode,
      sessionId: session.id,
      counter: factorCounter(channel),
      maxWrongTries: ctx.config.factor.maxWrongTries,
    });
    if (result.outcome === 'accepted')
      return this.verified(channel, request, reply, session, input.bindDevice);
    if (result.outcome === 'wrong' && result.exhausted) {
      const until = new Date(ctx.clock.now().getTime() + ctx.config.factor.lockoutMs);
      await this.codes.lock(account.id, factorCounter(channel), until);
      request.log.warn({ account: account.id, channel, login }, 'second factor: too many wrong codes');
      return this.tooManyWrong(request, reply, session);
    }
    return failure(
      request,
      reply,
      new ApiError(200, Status.INCORRECT_CODE, serverMessages.securityCodeNotRecognized),
    );
  }

  /** 1491; in the LOGIN journey the login transaction ends too (its cookies are cleared). */
  private async tooManyWrong(request: FastifyRequest, reply: FastifyReply, session: Session) {
    if (session.state === 'factor') {
      await this.ctx.sessions.end(session.id, 'factor-failed');
      clearSessionCookies(this.ctx, request, reply);
    }
    return this.limitReached(request, reply);
  }

  private async verified(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    bind: boolean | undefined,
  ) {
    const { ctx } = this;
    const stepUp = session.state === 'authenticated';
    const promoted = await ctx.sessions.promote(session, 'authenticated');
    // Another request on the same session finished first (or it ended meanwhile).
    if (!promoted) throw noLoginInProgress();
    const { token, session: next } = promoted;
    const now = ctx.clock.now();
    if (stepUp) {
      // A step-up proves the factor again: a new token, the time recorded; the sign-in time and
      // the absolute limit stay those of the sign-in.
      const absolute = new Date(session.absolute_expires_at);
      await ctx.db
        .updateTable('sessions')
        .set({
          stepped_up_at: now,
          factor_passed: session.factor_passed,
          created_at: session.created_at,
          absolute_expires_at: absolute,
          idle_expires_at: new Date(Math.min(new Date(next.idle_expires_at).getTime(), absolute.getTime())),
        })
        .where('id', '=', next.id)
        .execute();
    } else {
      await ctx.db
        .updateTable('sessions')
        .set({ factor_passed: channelAuthenticator[channel] })
        .where('id', '=', next.id)
        .execute();
    }
    let trustedUntil: Date | null = null;
    if (!stepUp && bind) trustedUntil = await bindDevice(ctx, request, session.account_id);

    setSessionCookies(ctx, request, reply, token, next.context);
    request.log.info(
      { account: session.account_id, channel, journey: stepUp ? 'STEPUP' : 'LOGIN', trusted: !!trustedUntil },
      'second factor: verified',
    );
    return outcome(request, reply, Status.SUCCESS, serverMessages.factorVerified, {
      successData: {
        authenticated: true,
        factor: channelAuthenticator[channel],
        ...(stepUp ? { steppedUpAt: now.toISOString() } : {}),
        ...(trustedUntil ? { trustedDeviceExpiresAt: trustedUntil.toISOString() } : {}),
      },
    });
  }
}

/** POST and PUT for text and voice, and PUT for the representative's code. */
export async function otpFactorPlugin(app: FastifyInstance, ctx: Context) {
  const factor = new OtpFactor(ctx, createPhoneSender(ctx.config, ctx.db, ctx.clock));

  defineRoute(app, {
    method: 'POST',
    path: paths.otpSms,
    tag: 'factors',
    summary:
      "Text a code to one of the account's phones: phone is its id from the OTP state call; message the template with $$CODE$$ once (≤ 400 characters).",
    body: otpSmsSend,
    handler: async ({ request, reply, body }) => {
      const { session } = await requireFactorSession(ctx, request);
      return factor.send('sms', request, reply, session, { contactId: body.phone, template: body.message });
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.otpVoice,
    tag: 'factors',
    summary: "Call one of the account's phones that takes calls and read the code twice, digit by digit.",
    body: otpVoiceSend,
    handler: async ({ request, reply, body }) => {
      const { session } = await requireFactorSession(ctx, request);
      return factor.send('voice', request, reply, session, { contactId: body.phone });
    },
  });

  for (const [channel, path] of [
    ['sms', paths.otpSms],
    ['voice', paths.otpVoice],
  ] as const) {
    defineRoute(app, {
      method: 'PUT',
      path,
      tag: 'factors',
      summary: `Check the code sent by ${channel === 'sms' ? 'text' : 'voice call'}.`,
      body: otpCheck,
      handler: async ({ request, reply, body }) => {
        const { session } = await requireFactorSession(ctx, request);
        return factor.check(channel, request, reply, session, body);
      },
    });
  }

  defineRoute(app, {
    method: 'PUT',
    path: paths.otpRep,
    tag: 'factors',
    summary:
      "A representative's code. There is no representative console yet: every code answers 1428 (not counted as a wrong try).",
    body: otpCheck,
    handler: async ({ request, reply }) => {
      const { session } = await requireFactorSession(ctx, request);
      await ctx.limiter.enforce(request, [
        [`code-check:session:${session.id}`, ctx.config.codeCheck.session],
        [`code-check:account:${session.account_id}`, ctx.config.codeCheck.account],
      ]);
      request.log.info({ account: session.account_id }, 'second factor: representative code (no console)');
      return failure(
        request,
        reply,
        new ApiError(200, Status.INCORRECT_CODE, serverMessages.securityCodeNotRecognized),
      );
    },
  });
}
