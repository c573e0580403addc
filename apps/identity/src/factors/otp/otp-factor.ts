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
import type { StatementValue } from '../../db/database.ts';
import type { Account, Contact as ContactRow } from '../../db/schema.ts';
import { sha256 } from '../../lib/crypto.ts';
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
import { type LimitRule, refuseFirst } from '../../lib/rate-limit.ts';
import { UUID } from '../../lib/validate.ts';
import { PhoneLimits, phoneRefusal } from '../../services/phone-limits.ts';
import { smsCodeText, smsSender, voiceText } from '../../services/sms.ts';
import { type Completion, type FactorJourney, type FactorParty, heldCredentials } from '../engine.ts';
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
   * Whether a send is refused on the channel: too many wrong codes, or too many sends without a
   * correct code. Counts older than FACTOR_LOCKOUT_MINUTES since the last try or send are forgotten.
   * (A check decides the same in its own statement: OtpCodes.checkParts with `guard`.)
   */
  private async refused(
    accountId: string,
    channel: FactorChannel,
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
    return row.unentered_sends >= factor.maxSends;
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
    if (await this.refused(account.id, channel, state.counters)) {
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
      subject: codeSubject(fj),
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

  /**
   * PUT behind the route's guard ('factorCode'), which lets a well-formed cookie and body through
   * unread: the cookie's login journey is read by the check's own statement (`checkLogin`); a cookie
   * that names none there is read as every factor call reads it (a step-up, or 4401).
   */
  async checkCode(channel: FactorChannel, request: FastifyRequest, reply: FastifyReply, input: CodeInput) {
    const token = request.cookies[this.ctx.cookieNames.session] ?? '';
    // (The answer is the reply, which is thenable: it is carried in an object, never awaited here.)
    const read = await this.checkLogin(channel, request, reply, token, input);
    if (read) return read.answered;
    return this.check(channel, request, reply, await this.ctx.engine.require(request), input);
  }

  /** PUT: check a code. Right: the journey's step completes (engine.complete). */
  async check(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    input: CodeInput,
  ) {
    const { ctx } = this;
    const factor = channelAuthenticator[channel];
    const account = active(fj);
    if (!account) return this.limitReached(request, reply);
    const checked = this.checkInput(channel, input, {
      accountId: account.id,
      journeyId: fj.journey.id,
      subject: codeSubject(fj),
    });
    // A login's right code completes it in the same statement (issue 25); a step-up's completion is
    // a transaction of its own, after the check.
    if (fj.kind === 'login') {
      const parts = this.codes.checkParts(checked);
      const { done, row } = await ctx.engine.completeAfter(
        request,
        reply,
        fj,
        factor,
        { bindDevice: input.bindDevice },
        { queries: parts.queries, gate: parts.accepted, columns: parts.columns },
      );
      return this.settle(channel, request, reply, fj, checked.limits, parts.result(row), done);
    }
    const result = await this.codes.check(checked);
    const done =
      result.outcome === 'accepted'
        ? await ctx.engine.complete(request, reply, fj, factor, { bindDevice: input.bindDevice })
        : null;
    return this.settle(channel, request, reply, fj, checked.limits, result, done);
  }

  /**
   * A login journey's check in one statement (decision 057): the journey the cookie names, in
   * 'factor' and in time, is read by the statement that counts the check's limits, checks the code
   * and, when it is right, completes the sign-in. The code's hash is over the journey's token hash
   * (`codeSubject`), which the cookie gives before anything is read. Undefined when the cookie names
   * no such journey: nothing was counted or written. Else `answered`, the answer (a promise of it).
   */
  private async checkLogin(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    input: CodeInput,
  ) {
    const { ctx } = this;
    if (!token || token.length > 100) return undefined;
    const tokenHash = sha256(token);
    const now = ctx.clock.now();
    const journey = {
      id: sql<string>`(select id from j)`,
      account_id: sql<string>`(select account_id from j)`,
    };
    const checked = {
      ...this.checkInput(channel, input, {
        accountId: journey.account_id,
        journeyId: journey.id,
        subject: tokenHash,
      }),
      gate: sql<boolean>`exists (select 1 from j where active)`,
    };
    const parts = this.codes.checkParts(checked);
    const { done, row } = await ctx.engine.completeLoginAfter(
      request,
      reply,
      journey,
      channelAuthenticator[channel],
      { bindDevice: input.bindDevice },
      {
        queries: sql`j as (
            select journeys.id, journeys.account_id, accounts.email, accounts.language,
              accounts.status = 'active' as active
            from journeys join accounts on accounts.id = journeys.account_id
            where journeys.token_hash = ${tokenHash} and journeys.kind = 'login' and journeys.state = 'factor'
              and journeys.expires_at > ${now}
          ), ${parts.queries}, touched as (${ctx.journeys.touchFrom(journey.id, sql`not ${parts.accepted}`)})`,
        gate: parts.accepted,
        columns: sql`(select id from j) as login_journey, (select account_id from j) as login_account,
          (select email from j) as login_email, (select language from j) as login_language,
          (select active from j) as login_active, ${parts.columns}`,
      },
    );
    if (row.login_journey === null || row.login_journey === undefined) return undefined;
    // A blocked or locked account: 1491, as `check` answers it, with nothing counted.
    if (!row.login_active) return { answered: this.limitReached(request, reply) };
    const party: FactorParty = {
      kind: 'login',
      journey: { id: String(row.login_journey) },
      account: {
        id: String(row.login_account),
        email: row.login_email as Account['email'],
        language: row.login_language as Account['language'],
      },
    };
    return { answered: this.settle(channel, request, reply, party, checked.limits, parts.result(row), done) };
  }

  /** What a check compares and counts, for the account and journey as the statement names them. */
  private checkInput(
    channel: FactorChannel,
    input: CodeInput,
    who: { accountId: StatementValue; journeyId: StatementValue; subject: string },
  ) {
    const { config } = this.ctx;
    return {
      ...who,
      channel,
      code: input.securityCode,
      purpose: 'factor' as const,
      counter: factorCounter(channel),
      maxWrongTries: config.factor.maxWrongTries,
      // The held factor and the channel's lock are decided in the check's statement, after its
      // limits: a limit answers first either way (issue 25).
      guard: { hold: channel, lockoutMs: config.factor.lockoutMs },
      limits: [
        { ...limitKey('code-check:journey', who.journeyId), ...config.codeCheck.session },
        { ...limitKey('code-check:account', who.accountId), ...config.codeCheck.account },
      ],
    };
  }

  /** The answer to a check, from what its statement did. */
  private async settle(
    channel: FactorChannel,
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorParty,
    limits: readonly LimitRule[],
    result: CheckResult | LimitedCheck,
    done: Completion | null,
  ) {
    const { ctx } = this;
    const factor = channelAuthenticator[channel];
    const { account } = fj;
    if (result.outcome === 'limited') {
      refuseFirst(request, limits, result.decisions);
      throw new Error('a limited check with no refusal');
    }
    if (result.outcome === 'held') return this.held(request, reply);
    if (result.outcome === 'locked') return this.tooManyWrong(request, reply, fj, factor, false);
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
    fj: FactorParty,
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
    /** Whom the code's hash is over (codeSubject); default the account. */
    subject?: string;
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
    ...(input.subject ? { subject: input.subject } : {}),
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

/** What a code check takes from its body. */
type CodeInput = { securityCode: string; bindDevice?: boolean | undefined };

/**
 * Whom a second factor's code is hashed over (codeHash; decision 057): a login journey's token
 * hash, which its check has from the cookie before it reads anything, or a step-up's account.
 */
export function codeSubject(fj: Pick<FactorJourney, 'kind' | 'journey' | 'account'>): string {
  if (fj.kind === 'stepup') return fj.account.id;
  if (!fj.journey.token_hash) throw new Error('a login journey without its token');
  return fj.journey.token_hash;
}

/** A limit's counter under `scope`, for an id given as a value or named by the statement. */
const limitKey = (scope: string, id: StatementValue): Pick<LimitRule, 'key' | 'keyFrom'> =>
  typeof id === 'string'
    ? { key: `${scope}:${id}` }
    : { key: scope, keyFrom: sql<string>`(${`${scope}:`}::text || ${id}::text)` };

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
