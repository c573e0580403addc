import {
  type AuthenticatorItem,
  type AuthenticatorType,
  ErrorType,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { contactEnabled, contactLabel, e164 } from '../../credentials/contacts.ts';
import type { Account, Contact as ContactRow } from '../../db/schema.ts';
import { ApiError, answer, noLoginInProgress } from '../../lib/http.ts';
import { languageOf } from '../../lib/language.ts';
import {
  type CheckResult,
  type CodePurpose,
  type Counters,
  factorCounter,
  type LimitedCheck,
  OtpCodes,
  stateFrom,
} from '../../lib/otp.ts';
import { refuseFirst } from '../../lib/rate-limit.ts';
import { UUID } from '../../lib/validate.ts';
import { PhoneLimits, phoneRefusal } from '../../services/phone-limits.ts';
import { smsCodeText, smsSender, voiceText } from '../../services/sms.ts';
import { type Completion, type FactorJourney, heldCredentials } from '../engine.ts';
import { FactorHolds } from '../holds.ts';

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

const badRequest = (problem: string) => ApiError.of(400, Status.BAD_REQUEST, 'badRequest', [problem]);

/**
 * Sends and checks second-factor codes. One instance per plugin that answers the calls (this one
 * for text and voice; recovery.ts for e-mail, whose path it shares with account recovery).
 */
export class OtpFactor {
  private readonly codes: OtpCodes;
  private readonly holds: FactorHolds;
  private readonly phoneLimits: PhoneLimits;
  constructor(private readonly ctx: Context) {
    this.codes = new OtpCodes(ctx.db, ctx.clock, ctx.config);
    this.holds = new FactorHolds(ctx);
    this.phoneLimits = new PhoneLimits(ctx.limiter, ctx.config);
  }

  /** 1491: the channel is held after repeated blocks, until a recovery or the console (decision 033). */
  private held(request: FastifyRequest, reply: FastifyReply) {
    return answer(request, reply, Status.LIMIT_REACHED, { message: 'factorHeld' });
  }

  private limitReached(request: FastifyRequest, reply: FastifyReply) {
    return answer(request, reply, Status.LIMIT_REACHED, { message: 'factorLimitReached' });
  }

  /**
   * Whether the channel is refused for the account: too many wrong codes (or, for a send, too many
   * sends without a correct code). Counts older than FACTOR_LOCKOUT_MINUTES since the last try or
   * send are forgotten.
   */
  private async refused(
    accountId: string,
    channel: FactorChannel,
    forSend: boolean,
    row: Counters | undefined,
  ): Promise<boolean> {
    const { factor } = this.ctx.config;
    const counter = factorCounter(channel);
    if (!row) return false;
    const now = this.ctx.clock.now().getTime();
    // Too many wrong codes: refused until the lock the limit set runs out. (The count itself may
    // be at the limit only for a moment, while tries are in flight: that refuses nothing.)
    if (row.locked_until && new Date(row.locked_until).getTime() > now) return true;
    if (row.locked_until || now - new Date(row.updated_at).getTime() >= factor.lockoutMs) {
      if (row.wrong_tries || row.unentered_sends || row.locked_until) {
        await this.codes.resetCounters(accountId, counter, row);
      }
      return false;
    }
    return forSend && row.unentered_sends >= factor.maxSends;
  }

  /**
   * The channel's hold and counts: a login journey's were read with it (issue 25); a step-up's are
   * read now, in one statement.
   */
  private async channelState(fj: FactorJourney, channel: FactorChannel) {
    const counter = factorCounter(channel);
    return fj.factorState
      ? stateFrom(fj.factorState, counter, channel)
      : await this.codes.state(fj.account.id, counter, channel);
  }

  /** The account's contact for this channel, if it is the account's, usable and of the right kind. */
  private async usableContact(
    fj: FactorJourney,
    channel: FactorChannel,
    contactId: string,
  ): Promise<{ contact: ContactRow | undefined; allowed: boolean }> {
    const { contacts } = await heldCredentials(this.ctx, fj);
    const allowed = otpOffer(contacts).some((a) => a.type === channelAuthenticator[channel]);
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
    fj: FactorJourney,
    input: { contactId: string; template?: string },
  ) {
    const { ctx } = this;
    const sender = channel === 'sms' ? smsSender(ctx.config.factor.smsSenderNames, input.template) : null;
    if (channel === 'sms' && sender === null) {
      throw badRequest(
        "message: must be the service's text template with an allowed application name (SMS_SENDER_NAMES)",
      );
    }
    const account = active(fj);
    if (!account) return this.limitReached(request, reply);
    const { contact, allowed } = await this.usableContact(fj, channel, input.contactId);
    if (!allowed) {
      return answer(request, reply, Status.FORBIDDEN, { message: 'factorNotAllowed' });
    }
    if (!contact) {
      return answer(request, reply, Status.FORBIDDEN, { message: 'contactNotUsable' });
    }
    const state = await this.channelState(fj, channel);
    if (state.held) return this.held(request, reply);
    if (await this.refused(account.id, channel, true, state.counters)) {
      request.log.warn({ account: account.id, channel }, 'second factor: channel refused (limit)');
      return this.limitReached(request, reply);
    }
    const to = contact.kind === 'phone' ? e164(contact) : contact.value;
    const { outcome, sends } = await deliverCode(ctx, request, this.phoneLimits, this.codes, {
      account,
      channel,
      to,
      purpose: 'factor',
      journeyId: fj.journey.id,
      sender: sender ?? '',
      sends: { counter: factorCounter(channel), max: ctx.config.factor.maxSends },
      audit: { factor: channelAuthenticator[channel], to: contactLabel(contact) },
    });
    if (outcome === 'over') {
      request.log.warn({ account: account.id, channel, sends }, 'second factor: send limit reached');
      return this.limitReached(request, reply);
    }
    if (outcome === 'refused') {
      request.log.warn({ account: account.id, channel }, 'second factor: number of a refused type or range');
      return answer(request, reply, Status.FORBIDDEN, { message: 'contactNotUsable' });
    }
    const minutes = Math.round(ctx.config.otp.expiryMs / 60_000);
    request.log.info({ account: account.id, channel, sends, journey: fj.kind }, 'second factor: code sent');
    const label = contactLabel(contact);
    if (channel === 'sms' && ctx.config.factor.smsOutage) {
      return answer(request, reply, Status.CARRIER_OUTAGE, {
        message: 'carrierOutage',
        ruleData: { carrierOutage: true },
      });
    }
    const message = channel === 'voice' ? 'factorCallPlaced' : 'factorCodeSent';
    return answer(request, reply, Status.SUCCESS, { message, params: [label, minutes] });
  }

  /** PUT: check a code. Right: the journey's step completes (engine.complete). */
  async check(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    input: { securityCode: string; bindDevice?: boolean | undefined },
  ) {
    const { ctx } = this;
    const factor = channelAuthenticator[channel];
    const account = active(fj);
    if (!account) return this.limitReached(request, reply);
    // The check's limits: counted in the check's own statement (issue 25), or on their own first
    // when the channel is refused without a check, so a limit answers first either way.
    const limits = [
      { key: `code-check:journey:${fj.journey.id}`, ...ctx.config.codeCheck.session },
      { key: `code-check:account:${account.id}`, ...ctx.config.codeCheck.account },
    ];
    const enforceLimits = () =>
      ctx.limiter.enforce(
        request,
        limits.map(({ key, ...rule }) => [key, rule]),
      );
    const state = await this.channelState(fj, channel);
    if (state.held) {
      await enforceLimits();
      return this.held(request, reply);
    }
    if (await this.refused(account.id, channel, false, state.counters)) {
      await enforceLimits();
      return this.tooManyWrong(request, reply, fj, factor, false);
    }
    const checked = {
      accountId: account.id,
      channel,
      code: input.securityCode,
      purpose: 'factor' as const,
      journeyId: fj.journey.id,
      counter: factorCounter(channel),
      maxWrongTries: ctx.config.factor.maxWrongTries,
      limits,
    };
    // A login's right code completes it in the same statement (issue 25); a step-up's completion is
    // a transaction of its own, after the check.
    let result: CheckResult | LimitedCheck;
    let done: Completion | null = null;
    if (fj.kind === 'login') {
      const parts = this.codes.checkParts(checked);
      const completed = await ctx.engine.completeAfter(
        request,
        reply,
        fj,
        factor,
        { bindDevice: input.bindDevice },
        { queries: parts.queries, gate: parts.accepted, columns: parts.columns },
      );
      result = parts.result(completed.row);
      done = completed.done;
    } else {
      result = await this.codes.check(checked);
      if (result.outcome === 'accepted') {
        done = await ctx.engine.complete(request, reply, fj, factor, { bindDevice: input.bindDevice });
      }
    }
    if (result.outcome === 'limited') {
      refuseFirst(request, limits, result.decisions);
      throw new Error('a limited check with no refusal');
    }
    if (result.outcome === 'accepted') {
      // Another request on the same journey finished first (or it ended meanwhile).
      if (!done) throw noLoginInProgress();
      request.log.info(
        { account: account.id, channel, journey: fj.kind, trusted: !!done.trustedUntil },
        'second factor: verified',
      );
      return answer(request, reply, Status.SUCCESS, {
        message: 'factorVerified',
        successData: {
          authenticated: true,
          factor,
          ...(done.steppedUpAt ? { steppedUpAt: done.steppedUpAt.toISOString() } : {}),
          ...(done.trustedUntil ? { trustedDeviceExpiresAt: done.trustedUntil.toISOString() } : {}),
        },
      });
    }
    if (result.outcome === 'wrong') await ctx.engine.wrong(request, fj, factor, result.wrongTries);
    if (result.outcome === 'wrong' && result.exhausted) {
      const until = new Date(ctx.clock.now().getTime() + ctx.config.factor.lockoutMs);
      await this.codes.lock(account.id, factorCounter(channel), until);
      request.log.warn(
        { account: account.id, channel, journey: fj.kind },
        'second factor: too many wrong codes',
      );
      // The lock counts towards the channel's hold (decision 033).
      if (await this.holds.blocked(request, account, channel, fj.journey.id)) {
        // The owner was told of the hold, which says more than the block: one notice, not two.
        await this.ctx.engine.fail(request, reply, fj, factor, { blockedNow: false });
        return this.held(request, reply);
      }
      return this.tooManyWrong(request, reply, fj, factor);
    }
    return answer(request, reply, Status.INCORRECT_CODE, { message: 'securityCodeNotRecognized' });
  }

  /**
   * 1491; in the LOGIN journey the journey fails too (its cookies are cleared). `blockedNow`: this
   * try set the block (the owner is told), not one refused during it.
   */
  private async tooManyWrong(
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    factor: AuthenticatorType,
    blockedNow = true,
  ) {
    await this.ctx.engine.fail(request, reply, fj, factor, { blockedNow });
    return this.limitReached(request, reply);
  }
}

/**
 * Counts a send, issues a code and delivers it by e-mail, text or voice call: the one way every
 * one-time code (second factor and recovery) leaves the service. The send is counted under
 * `sends.counter` first; past `sends.max` nothing more happens ('over': the caller refuses, and the
 * count stays, so every later send is refused). A number of a refused type or range gets nothing
 * ('refused'; decision 033); every text and call is counted per number, country and day for its
 * purpose (429 when a limit is reached). The count, those limits and the code are one statement
 * (OtpCodes.countAndIssue, issue 25). A delivery that fails revokes the code and answers 503, so
 * nothing unreachable stays usable.
 */
export async function deliverCode(
  ctx: Context,
  request: FastifyRequest,
  phoneLimits: PhoneLimits,
  codes: OtpCodes,
  input: {
    account: Pick<Account, 'id' | 'language'>;
    channel: FactorChannel;
    to: string;
    purpose: CodePurpose;
    journeyId: string;
    /** The text's sender name (SMS_SENDER_NAMES). */
    sender: string;
    /** Where the sends since the last right code are counted, and how many may be. */
    sends: { counter: string; max: number };
    /** The code-issued event's detail; `sends` is added (the count this send made). */
    audit: Record<string, string>;
  },
): Promise<{ outcome: 'sent' | 'refused' | 'over'; sends: number }> {
  const { account, channel, to } = input;
  const max = input.sends.max;
  if (channel !== 'email' && phoneRefusal(ctx.config, to)) {
    const sends = await codes.countSend(account.id, input.sends.counter);
    return { outcome: sends > max ? 'over' : 'refused', sends };
  }
  const phonePurpose = input.purpose === 'recovery' ? 'recovery' : 'factor';
  const limits = channel === 'email' ? [] : phoneLimits.rules(to, phonePurpose, account.id);
  const { sends, decisions, issued } = await codes.countAndIssue({
    accountId: account.id,
    channel,
    recipient: to,
    purpose: input.purpose,
    journeyId: input.journeyId,
    counter: input.sends.counter,
    maxSends: max,
    limits,
    // The code-issued event, written with the code (issue 25); a failed delivery adds its own.
    also: await ctx.audit.insertFrom('issued', request, {
      event: 'code-issued',
      outcome: 'success',
      accountId: account.id,
      journeyId: { column: 'issued.journey_id' },
      detail: sql`${JSON.stringify(input.audit)}::jsonb || jsonb_build_object('sends', (select unentered_sends from counted))`,
    }),
  });
  if (sends > max) return { outcome: 'over', sends };
  if (!issued) {
    await phoneLimits.settle(request, { purpose: phonePurpose, accountId: account.id }, limits, decisions);
    throw new Error('no code was issued, and no limit refused it');
  }
  const { code } = issued;
  const minutes = Math.round(ctx.config.otp.expiryMs / 60_000);
  const language = languageOf(account.language);
  try {
    if (channel === 'email') {
      await ctx.mailer.sendCode({ to, code, expiryMinutes: minutes, language });
    } else {
      const text = channel === 'sms' ? smsCodeText(input.sender, code, language) : voiceText(code, language);
      await ctx.phone.send({ channel, to, text, code });
    }
  } catch (error) {
    // Nothing arrived: the code must not stay usable, and the caller may try again. Only this code:
    // another journey's send may have taken its place meanwhile, and that one arrived.
    await codes.revokeIssued(issued);
    await ctx.audit.record(request, {
      event: 'code-delivery-failed',
      outcome: 'failure',
      accountId: account.id,
      journeyId: input.journeyId,
      detail: input.audit,
    });
    request.log.error(
      { err: error, account: account.id, channel },
      input.purpose === 'recovery' ? 'recovery: delivery failed' : 'second factor: delivery failed',
    );
    throw new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM);
  }
  return { outcome: 'sent', sends };
}

/** The factor journey's account while it is active (a blocked or locked one gets 1491). */
const active = (fj: FactorJourney): Account | undefined =>
  fj.account.status === 'active' ? fj.account : undefined;

/** One-time codes: text and voice with a phone (voice only if a phone takes calls), e-mail with an address. */
export function otpOffer(contacts: readonly ContactRow[]): AuthenticatorItem[] {
  const phones = contacts.filter((c) => c.kind === 'phone');
  const items: AuthenticatorItem[] = [];
  if (phones.length) items.push({ type: 'OTP-SMS' });
  if (phones.some((p) => p.voice)) items.push({ type: 'OTP-VOICE' });
  if (contacts.some((c) => c.kind === 'email')) items.push({ type: 'OTP-EMAIL' });
  return items;
}
