import {
  attributesData,
  attributesQuery,
  type Contact,
  identifyRequest,
  otpCheck,
  otpEmailSend,
  paths,
  type RecoveryDelivery,
  recoveryCheck,
  recoverySend,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { accountContacts, contactLabel, e164 } from '../credentials/contacts.ts';
import type { Account, Journey } from '../db/schema.ts';
import type { FactorJourney } from '../factors/engine.ts';
import { FactorHolds } from '../factors/holds.ts';
import { deliverCode, type FactorChannel, OtpFactor } from '../factors/otp/otp-factor.ts';
import { checkRepCode, liveRepCode, revokeRepCodes } from '../factors/rep/module.ts';
import { loadFlow, recoveryOpenStates, startFlow } from '../journeys/recovery.ts';
import { ApiError, answer } from '../lib/http.ts';
import { maskEmail, maskPhone } from '../lib/mask.ts';
import { type CheckResult, OtpCodes } from '../lib/otp.ts';
import { clientKey } from '../lib/rate-limit.ts';
import { defineRoute } from '../lib/route.ts';
import { UUID } from '../lib/validate.ts';
import { usableFor } from '../security/credential-policy.ts';
import { afterIdentityChange, notifyOwner } from '../services/account-security.ts';
import { findAccount, findAccountById, usernameKey } from '../services/accounts.ts';
import { clearFlowCookie } from '../services/cookies.ts';
import { PhoneLimits } from '../services/phone-limits.ts';
import { browserSubject } from '../services/session-guard.ts';

/**
 * The e-mail addresses recovery codes may go to, the account's own first, without repeats: the
 * account row's address and the established e-mail credentials; one added less than
 * CONTACT_WAIT_DAYS ago never receives a recovery code (security/credential-policy.ts).
 */
async function emailsOnFile(ctx: Context, account: Account): Promise<string[]> {
  const contacts = usableFor(ctx, await accountContacts(ctx.db, account.id), 'recovery').filter(
    (c) => c.kind === 'email',
  );
  const all = [account.email, ...contacts.map((c) => c.value)].filter((v): v is string => !!v);
  const seen = new Set<string>();
  return all.filter((v) => {
    const key = v.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The phones recovery codes may go to by text (and, when the phone takes calls, by voice): the
 * account's established phones only; one added less than CONTACT_WAIT_DAYS ago never gets one.
 */
async function phonesOnFile(ctx: Context, account: Account) {
  return usableFor(ctx, await accountContacts(ctx.db, account.id), 'recovery').filter(
    (c) => c.kind === 'phone',
  );
}

/**
 * The counters every recovery channel shares in otp_counters: sends without a correct code, wrong
 * codes, and the recovery lock (the console shows and lifts it). Its key is 'email', the channel
 * recovery had alone before decision 043; one count across channels, so a second channel never
 * doubles what a stranger may send or guess.
 */
export const RECOVERY_COUNTER = 'email';

/** The code channel of each delivery option that sends one (REP's code comes from the console). */
const deliveryChannel = { EMAIL: 'email', TEXT: 'sms', CALL: 'voice' } as const satisfies Record<
  Exclude<RecoveryDelivery, 'REP'>,
  FactorChannel
>;

/**
 * Account recovery, portal spec §2 "Username / one-time code screen", §7, §8: identify the user,
 * the e-mail on file (masked), send and check an e-mail one-time code. The flow is a row keyed by
 * the HttpOnly GH_RECOVERY cookie; the reset itself is in password-update.ts.
 */
export async function recoveryPlugin(app: FastifyInstance, ctx: Context) {
  const { db, config, clock } = ctx;
  const codes = new OtpCodes(db, clock, config);
  const phoneLimits = new PhoneLimits(ctx.limiter, config);
  const notStarted = () => new ApiError(401, Status.UNAUTHENTICATED, serverMessages.recoveryNotStarted);
  // The e-mail code path is shared with the second factor (a session whose factor is due, or a
  // signed-in session for step-up). Each request acts for the journey it belongs to.
  const factor = new OtpFactor(ctx);

  /**
   * A send belongs to the second factor when it names a contact id (the OTP state's opaque ids) and
   * a factor session exists; one that names a masked address belongs to recovery (a flow of its
   * own, or one started for the session's account).
   */
  async function factorSendJourney(request: FastifyRequest, contact: string): Promise<FactorJourney | null> {
    if (!UUID.test(contact.trim())) return null;
    return ctx.engine.resolve(request);
  }

  /**
   * A check belongs to the journey whose code is live and newest: the factor session's code or the
   * recovery flow's. With only one of them open, that one.
   */
  async function factorCheckJourney(request: FastifyRequest): Promise<FactorJourney | null> {
    const fj = await ctx.engine.resolve(request);
    if (!fj) return null;
    const flow = await loadFlow(ctx, request);
    if (!flow?.account_id) return fj;
    const newest = await db
      .selectFrom('otp_codes')
      .select('journey_id')
      .where('channel', '=', 'email')
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', clock.now())
      .where('journey_id', 'in', [fj.journey.id, flow.id])
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return newest?.journey_id === flow.id ? null : fj;
  }

  /**
   * Whether the account's recovery channel is locked (too many sends or wrong codes). A lock that
   * has run its time is lifted here, with the counts that caused it.
   */
  async function recoveryLocked(accountId: string): Promise<boolean> {
    const row = await db
      .selectFrom('otp_counters')
      .select('locked_until')
      .where('account_id', '=', accountId)
      .where('channel', '=', RECOVERY_COUNTER)
      .executeTakeFirst();
    if (!row?.locked_until) return false;
    const now = clock.now();
    if (new Date(row.locked_until).getTime() > now.getTime()) return true;
    await db
      .updateTable('otp_counters')
      .set({ wrong_tries: 0, unentered_sends: 0, locked_until: null, updated_at: now })
      .where('account_id', '=', accountId)
      .where('channel', '=', RECOVERY_COUNTER)
      .where('locked_until', '<=', now)
      .execute();
    return false;
  }

  /**
   * Locks the account's recovery channel for RECOVERY_LOCK_MINUTES: its recovery flows end, its
   * recovery codes stop working, and the owner is told by e-mail. A stranger can cause this, so it
   * never touches the owner's sign-in (design.md "blocks"; docs/security.md).
   */
  async function lockRecovery(
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    why: string,
    flowId: string,
  ) {
    const now = clock.now();
    const until = new Date(now.getTime() + config.recovery.lockMs);
    // The counts stay as they are while the lock lasts (so tries in flight stay refused); the
    // request that sets the lock does the rest, once.
    const locked = await sql`
      insert into otp_counters (account_id, channel, wrong_tries, unentered_sends, updated_at, locked_until)
      values (${account.id}, ${RECOVERY_COUNTER}, 0, 0, ${now}, ${until})
      on conflict (account_id, channel) do update set updated_at = ${now}, locked_until = ${until}
        where otp_counters.locked_until is null or otp_counters.locked_until <= ${now}
      returning account_id`.execute(db);
    if (!locked.rows.length)
      return answer(request, reply, Status.LIMIT_REACHED, {
        message: 'contactSupport',
        params: [config.supportEmail],
      });
    await ctx.journeys.endForAccount(account.id, ['recovery']);
    for (const channel of Object.values(deliveryChannel))
      await codes.revokeAll(account.id, channel, 'recovery');
    await revokeRepCodes(ctx, account.id, 'recovery');
    clearFlowCookie(ctx, reply);
    request.log.warn({ account: account.id, why, until: until.toISOString() }, 'recovery channel locked');
    await ctx.audit.record(request, {
      event: 'recovery-locked',
      outcome: 'failure',
      accountId: account.id,
      journeyId: flowId,
      detail: { why, until: until.toISOString() },
    });
    await notifyOwner(ctx, request, account, 'recovery-locked');
    return answer(request, reply, Status.LIMIT_REACHED, {
      message: 'contactSupport',
      params: [config.supportEmail],
    });
  }

  defineRoute(app, {
    method: 'POST',
    path: paths.identifyUsername,
    tag: 'recovery',
    summary: 'Identify the user by username: starts a recovery flow (HttpOnly cookie GH_RECOVERY).',
    body: identifyRequest,
    handler: async ({ request, reply, body }) => {
      const identify = config.recovery.identify;
      await ctx.limiter.enforce(request, [
        [`recovery:client:${clientKey(request.ip)}`, identify.client],
        [`recovery:account:${usernameKey(body.username)}`, identify.account],
      ]);
      // Known and unknown names do the same work: one lookup, one flow row, one cookie.
      const found = await findAccount(db, body.username);
      const account = found && found.status !== 'disabled' ? found : undefined;
      const flow = await startFlow(ctx, request, reply, account?.id ?? null);
      await ctx.audit.record(request, {
        event: 'recovery-started',
        outcome: account ? 'success' : 'failure',
        accountId: account?.id,
        journeyId: flow.id,
        ...(account ? {} : { detail: { reason: 'unknown username' } }),
      });
      if (!account) {
        request.log.info('recovery: unknown username');
        return answer(request, reply, Status.FORBIDDEN, { message: 'invalidInformation' });
      }
      request.log.info({ account: account.id }, 'recovery: user identified');
      return answer(request, reply, Status.SUCCESS, { message: 'userIdentified' });
    },
  });

  /** The account a request may see the contacts of: its recovery flow's, else its session's. */
  async function subjectAccount(request: FastifyRequest, flow: Journey | null): Promise<Account | undefined> {
    let accountId = flow?.account_id ?? null;
    if (!flow) accountId = (await browserSubject(ctx, request))?.accountId ?? null;
    return accountId ? findAccountById(db, accountId) : undefined;
  }

  /** The delivery options the account may recover by: RECOVERY_CHANNELS with a contact for each. */
  async function deliveriesFor(account: Account): Promise<RecoveryDelivery[]> {
    const emails = await emailsOnFile(ctx, account);
    const phones = await phonesOnFile(ctx, account);
    const has: Record<RecoveryDelivery, boolean> = {
      EMAIL: emails.length > 0,
      TEXT: phones.length > 0,
      CALL: phones.some((p) => p.voice),
      REP: true,
    };
    return config.recovery.deliveries.filter((d) => has[d]);
  }

  defineRoute(app, {
    method: 'GET',
    path: paths.identityAttributes,
    tag: 'recovery',
    summary:
      'The e-mail addresses (and phones) on file, masked, for the recovery flow or the session; in a recovery flow also the delivery options the account may recover by (portal spec §4).',
    query: attributesQuery,
    successData: attributesData,
    handler: async ({ request, reply, query }) => {
      const flow = await loadFlow(ctx, request);
      const account = await subjectAccount(request, flow);
      if (!account) throw notStarted();
      const wanted = new Set(query.attributes.split(','));
      const data: { email?: Contact[]; phone?: Contact[]; deliveries?: RecoveryDelivery[] } = {};
      if (wanted.has('email')) {
        data.email = (await emailsOnFile(ctx, account)).map((address) => {
          const masked = maskEmail(address);
          return { type: 'EMAIL', value: masked, label: masked, enable: true };
        });
      }
      if (wanted.has('phone')) {
        data.phone = (await phonesOnFile(ctx, account)).flatMap((p) => {
          const masked = maskPhone(p.value);
          const base = {
            value: masked,
            label: masked,
            enable: true,
            ...(p.country_code ? { countryCode: p.country_code } : {}),
          };
          return [
            { type: 'TEXT' as const, ...base },
            ...(p.voice ? [{ type: 'VOICE' as const, ...base }] : []),
          ];
        });
      }
      if (flow && wanted.has('deliveries')) data.deliveries = await deliveriesFor(account);
      return answer(request, reply, Status.SUCCESS, { message: 'success', successData: data });
    },
  });

  /** The flow a code is sent for: the request's, or a new one for its live session's account. */
  async function sendingFlow(request: FastifyRequest, reply: FastifyReply): Promise<Journey> {
    const flow = await loadFlow(ctx, request);
    if (flow) return flow;
    const subject = await browserSubject(ctx, request);
    if (!subject) throw notStarted();
    return startFlow(ctx, request, reply, subject.accountId);
  }

  const blocked = (account: Account) => account.status === 'blocked' || account.status === 'disabled';
  const refused = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.LIMIT_REACHED, {
      message: 'contactSupport',
      params: [config.supportEmail],
    });
  const notAllowed = (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, Status.FORBIDDEN, { message: 'recoveryChannelNotAllowed' });

  /**
   * Sends a recovery code by e-mail, text or voice call (portal spec §4 steps 2-4) to the
   * established contact on file whose mask was given: never to one the client supplies, and the
   * full value is not accepted, so this call cannot confirm a guessed address or number. Every
   * channel counts its sends under RECOVERY_COUNTER; past OTP_SENDS_BEFORE_BLOCK recovery locks.
   * Every other established contact of the owner is told.
   */
  async function sendRecoveryCode(
    request: FastifyRequest,
    reply: FastifyReply,
    flow: Journey,
    delivery: Exclude<RecoveryDelivery, 'REP'>,
    given: string,
  ) {
    if (!flow.account_id) throw notStarted();
    const send = config.otp.send;
    await ctx.limiter.enforce(request, [
      [`otp-send:client:${clientKey(request.ip)}`, send.client],
      [`otp-send:account:${flow.account_id}`, send.account],
    ]);
    const account = await findAccountById(db, flow.account_id);
    if (!account) throw notStarted();
    if (blocked(account) || (await recoveryLocked(account.id))) return refused(request, reply);
    if (!config.recovery.deliveries.includes(delivery)) return notAllowed(request, reply);

    const channel = deliveryChannel[delivery];
    const mask = given.trim();
    let to: string | undefined;
    let label = mask;
    if (channel === 'email') {
      to = (await emailsOnFile(ctx, account)).find((a) => maskEmail(a) === mask);
    } else {
      const phone = (await phonesOnFile(ctx, account)).find(
        (p) => maskPhone(p.value) === mask && (channel === 'sms' || p.voice),
      );
      to = phone && e164(phone);
      if (phone) label = contactLabel(phone);
    }
    if (!to) return answer(request, reply, Status.FORBIDDEN, { message: 'invalidInformation' });

    const { outcome, sends } = await deliverCode(ctx, request, phoneLimits, codes, {
      account,
      channel,
      to,
      purpose: 'recovery',
      journeyId: flow.id,
      sender: config.factor.smsSenderNames[0] ?? '',
      sends: { counter: RECOVERY_COUNTER, max: config.otp.sendsBeforeBlock },
      audit: { purpose: 'recovery', delivery, to: channel === 'email' ? maskEmail(to) : mask },
    });
    if (outcome === 'over') {
      return lockRecovery(request, reply, account, `${sends - 1} codes sent without entry`, flow.id);
    }
    if (outcome === 'refused') {
      request.log.warn({ account: account.id, channel }, 'recovery: number of a refused type or range');
      return answer(request, reply, Status.FORBIDDEN, { message: 'invalidInformation' });
    }
    // A confirmed journey stays confirmed; the expiry moves ahead either way.
    await ctx.journeys.transition(
      flow,
      recoveryOpenStates,
      flow.state === 'confirmed' ? 'confirmed' : 'code_sent',
      { ttlMs: config.recovery.flowMs },
    );
    request.log.info({ account: account.id, sends, channel }, 'recovery: one-time code sent');
    // The owner hears of it by every other established contact: a stranger's request is seen.
    await notifyOwner(ctx, request, account, 'recovery-code-sent', { except: to });
    if (channel === 'email') return answer(request, reply, Status.SUCCESS, { message: 'codeSent' });
    const minutes = Math.round(config.otp.expiryMs / 60_000);
    return answer(request, reply, Status.SUCCESS, {
      message: channel === 'voice' ? 'factorCallPlaced' : 'factorCodeSent',
      params: [label, minutes],
    });
  }

  /**
   * Checks a recovery code of a delivery option: the code sent for this flow by e-mail, text or
   * call, or (REP, step 6) the recovery code a representative issued in the console. Wrong codes of
   * every channel count together under RECOVERY_COUNTER; the one that reaches OTP_MAX_WRONG_TRIES
   * locks recovery. A right one confirms the flow once.
   */
  async function checkRecoveryCode(
    request: FastifyRequest,
    reply: FastifyReply,
    delivery: RecoveryDelivery,
    securityCode: string,
  ) {
    const flow = await loadFlow(ctx, request);
    if (!flow?.account_id) throw notStarted();
    const account = await findAccountById(db, flow.account_id);
    if (!account) throw notStarted();
    if (blocked(account) || (await recoveryLocked(account.id))) return refused(request, reply);
    if (!config.recovery.deliveries.includes(delivery)) return notAllowed(request, reply);
    // Per flow and per client address, never per account: anyone can open a flow for a username,
    // so an account-wide count here would let a stranger spend the owner's code checks.
    await ctx.limiter.enforce(request, [
      [`recovery-check:flow:${flow.id}`, config.codeCheck.session],
      [`recovery-check:client:${clientKey(request.ip)}`, config.recovery.checkClient],
    ]);
    const incorrect = () => answer(request, reply, Status.INCORRECT_CODE, { message: 'incorrectCode' });
    const max = config.otp.maxWrongTries;
    let result: CheckResult;
    if (delivery === 'REP') {
      // No recovery code issued (or it expired): nothing to guess, so nothing is counted.
      if (!(await liveRepCode(ctx, account.id, 'recovery'))) return incorrect();
      result = await checkRepCode(ctx, {
        accountId: account.id,
        code: securityCode,
        purpose: 'recovery',
        counter: RECOVERY_COUNTER,
        maxWrongTries: max,
      });
    } else {
      const channel = deliveryChannel[delivery];
      // No code was sent for this flow (or it expired): nothing to guess, so nothing is counted.
      if (!(await codes.hasLiveCode({ accountId: account.id, channel, journeyId: flow.id })))
        return incorrect();
      result = await codes.check({
        accountId: account.id,
        channel,
        code: securityCode,
        purpose: 'recovery',
        journeyId: flow.id,
        counter: RECOVERY_COUNTER,
        maxWrongTries: max,
      });
    }
    if (result.outcome === 'accepted') {
      await ctx.journeys.transition(flow, recoveryOpenStates, 'confirmed', {
        ttlMs: config.recovery.flowMs,
      });
      request.log.info({ account: account.id, delivery }, 'recovery: one-time code confirmed');
      await ctx.audit.record(request, {
        event: 'recovery-confirmed',
        outcome: 'success',
        accountId: account.id,
        journeyId: flow.id,
        ...(delivery === 'EMAIL' ? {} : { detail: { delivery } }),
      });
      // A recovery lifts the second factors held after repeated wrong codes (decision 033): the
      // lift, the factors' own blocks and its audit row commit together.
      await ctx.db.transaction().execute(async (tx) => {
        const lifted = await new FactorHolds(ctx).liftAll(tx, account.id);
        if (lifted > 0) {
          await ctx.audit.withDb(tx).record(request, {
            event: 'factor-hold-lifted',
            outcome: 'success',
            accountId: account.id,
            journeyId: flow.id,
            detail: { by: 'recovery', factors: lifted },
          });
        }
      });
      const own = await browserSubject(ctx, request);
      const mine = own?.accountId === account.id;
      await afterIdentityChange(ctx, request, account, {
        reason: 'recovered',
        notice: 'account-recovered',
        keepSessionId: mine ? own?.session?.id : undefined,
        keepJourneyIds: [flow.id, mine ? own?.login?.id : undefined],
      });
      return answer(request, reply, Status.SUCCESS, { message: 'codeConfirmed' });
    }
    if (result.outcome === 'wrong') {
      await ctx.audit.record(request, {
        event: 'recovery-failed',
        outcome: 'failure',
        accountId: account.id,
        journeyId: flow.id,
        detail: { wrongTries: result.wrongTries, ...(delivery === 'EMAIL' ? {} : { delivery }) },
      });
      if (result.exhausted) {
        return lockRecovery(request, reply, account, 'too many wrong one-time codes', flow.id);
      }
    }
    return incorrect();
  }

  defineRoute(app, {
    method: 'POST',
    path: paths.otpEmail,
    tag: 'recovery',
    summary:
      'Recovery (a GH_RECOVERY flow, or a login transaction before its factor): send a one-time code to the e-mail on file that matches the (masked) address given. Second factor (a session whose factor is due, or a signed-in one for step-up): email is the contact id from the OTP state call. 30 minutes, single use.',
    body: otpEmailSend,
    handler: async ({ request, reply, body }) => {
      const factorJourney = await factorSendJourney(request, body.email);
      if (factorJourney) {
        return factor.send('email', request, reply, factorJourney, { contactId: body.email });
      }
      return sendRecoveryCode(request, reply, await sendingFlow(request, reply), 'EMAIL', body.email);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    path: paths.otpEmail,
    tag: 'recovery',
    summary:
      'Check the e-mailed one-time code: a right one confirms the recovery flow (once); in the second-factor mode it authenticates the session (login) or records a step-up.',
    body: otpCheck,
    handler: async ({ request, reply, body }) => {
      const factorJourney = await factorCheckJourney(request);
      if (factorJourney) return factor.check('email', request, reply, factorJourney, body);
      return checkRecoveryCode(request, reply, 'EMAIL', body.securityCode);
    },
  });

  defineRoute(app, {
    method: 'POST',
    path: paths.recoveryCode,
    tag: 'recovery',
    summary:
      'Recovery (a GH_RECOVERY flow): send a one-time code by TEXT, CALL or EMAIL to the established contact whose masked value is given (portal spec §4 steps 2-4). The options of RECOVERY_CHANNELS only; 30 minutes, single use; every other established contact is told.',
    body: recoverySend,
    handler: async ({ request, reply, body }) => {
      const flow = await loadFlow(ctx, request);
      if (!flow) throw notStarted();
      return sendRecoveryCode(request, reply, flow, body.delivery, body.contact);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    path: paths.recoveryCode,
    tag: 'recovery',
    summary:
      "Recovery: check the code of a delivery option: the one sent for this flow by TEXT, CALL or EMAIL, or REP's, the recovery code a representative issued in the console (portal spec §4 step 6). A right one confirms the flow once.",
    body: recoveryCheck,
    handler: async ({ request, reply, body }) =>
      checkRecoveryCode(request, reply, body.delivery, body.securityCode),
  });
}
