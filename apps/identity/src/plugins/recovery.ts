import {
  attributesData,
  attributesQuery,
  type Contact,
  cookies,
  identifyRequest,
  otpCheck,
  otpEmailSend,
  paths,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Account, RecoveryFlow } from '../db/schema.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';
import { ApiError, contactSupport, failure, outcome } from '../lib/http.ts';
import { maskEmail, maskPhone } from '../lib/mask.ts';
import { OtpCodes } from '../lib/otp.ts';
import { defineRoute } from '../lib/route.ts';
import { findAccount, findAccountById, usernameKey } from '../services/accounts.ts';
import { checkCodes as factorCheckCodes, OtpFactor } from './otp-factor.ts';
import { cookieOptions } from './security.ts';

/** The e-mail addresses on file for an account, the account's own first, without repeats. */
export async function emailsOnFile(ctx: Context, account: Account): Promise<string[]> {
  const contacts = await ctx.db
    .selectFrom('contacts')
    .select('value')
    .where('account_id', '=', account.id)
    .where('kind', '=', 'email')
    .orderBy('added_at')
    .execute();
  const all = [account.email, ...contacts.map((c) => c.value)].filter((v): v is string => !!v);
  const seen = new Set<string>();
  return all.filter((v) => {
    const key = v.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The live recovery flow of a request (GH_RECOVERY cookie), or null: unknown, ended or expired. */
export async function loadFlow(ctx: Context, request: FastifyRequest): Promise<RecoveryFlow | null> {
  const token = request.cookies[cookies.recovery];
  if (!token || token.length > 100) return null;
  const flow = await ctx.db
    .selectFrom('recovery_flows')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!flow || flow.state === 'consumed' || flow.state === 'ended') return null;
  if (ctx.clock.now().getTime() >= new Date(flow.expires_at).getTime()) return null;
  return flow;
}

/** The GH_RECOVERY cookie lives as long as the flow may. */
export function setFlowCookie(ctx: Context, reply: FastifyReply, token: string) {
  reply.setCookie(cookies.recovery, token, {
    ...cookieOptions(ctx),
    maxAge: Math.ceil(ctx.config.recovery.flowMs / 1000),
  });
}

export function clearFlowCookie(ctx: Context, reply: FastifyReply) {
  reply.clearCookie(cookies.recovery, cookieOptions(ctx));
}

/** Starts a flow row; the cookie token is returned and only its SHA-256 stored. */
async function startFlow(ctx: Context, request: FastifyRequest, accountId: string | null) {
  const token = randomToken(32);
  const now = ctx.clock.now();
  const flow = await ctx.db
    .insertInto('recovery_flows')
    .values({
      token_hash: sha256(token),
      account_id: accountId,
      state: 'identified',
      otp_confirmed: false,
      created_at: now,
      expires_at: new Date(now.getTime() + ctx.config.recovery.flowMs),
      client_ip: request.ip,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token, flow };
}

/**
 * Blocks an account for security reasons (3 sends without entry, too many wrong codes): status
 * 'blocked' (a locked account too), every session and recovery flow of it ends, its codes stop
 * working. Support unblocks it; a password reset does not.
 */
export async function blockAccount(ctx: Context, accountId: string) {
  const now = ctx.clock.now();
  await ctx.db
    .updateTable('accounts')
    .set({ status: 'blocked', updated_at: now })
    .where('id', '=', accountId)
    .where('status', 'in', ['active', 'locked'])
    .execute();
  await ctx.sessions.endAllForAccount(accountId, 'blocked');
  await ctx.db
    .updateTable('recovery_flows')
    .set({ state: 'ended' })
    .where('account_id', '=', accountId)
    .where('state', 'not in', ['consumed', 'ended'])
    .execute();
  await new OtpCodes(ctx.db, ctx.clock, ctx.config).revokeAll(accountId, 'email');
}

/**
 * Account recovery, portal spec §2 "Username / one-time code screen", §7, §8: identify the user,
 * the e-mail on file (masked), send and check an e-mail one-time code. The flow is a row keyed by
 * the HttpOnly GH_RECOVERY cookie; the reset itself is in password-update.ts.
 */
export async function recoveryPlugin(app: FastifyInstance, ctx: Context) {
  const { db, config, clock, sessions, mailer } = ctx;
  const codes = new OtpCodes(db, clock, config);
  const notStarted = () => new ApiError(401, Status.UNAUTHENTICATED, serverMessages.recoveryNotStarted);
  // The e-mail code path is shared with the second factor: without a live recovery flow, a
  // session whose factor is due (login) or a signed-in session (step-up) is the factor mode.
  const factor = new OtpFactor(ctx);

  defineRoute(app, {
    method: 'POST',
    path: paths.identifyUsername,
    tag: 'recovery',
    summary: 'Identify the user by username: starts a recovery flow (HttpOnly cookie GH_RECOVERY).',
    body: identifyRequest,
    codes: {
      [Status.SUCCESS]: "A known username: 'User Identified'; the flow continues with the e-mail on file",
      [Status.FORBIDDEN]:
        "Unknown (or closed) username: 'The information provided is invalid. Please try again.' (this tells that a username does not exist; see docs/security.md)",
      [Status.RATE_LIMITED]:
        'Too many attempts from this address or for this username (HTTP 429, Retry-After)',
    },
    handler: async ({ request, reply, body }) => {
      const identify = config.recovery.identify;
      await ctx.limiter.enforce(request, [
        [`recovery:client:${request.ip}`, identify.client],
        [`recovery:account:${usernameKey(body.username)}`, identify.account],
      ]);
      // Known and unknown names do the same work: one lookup, one flow row, one cookie.
      const found = await findAccount(db, body.username);
      const account = found && found.status !== 'disabled' ? found : undefined;
      const previous = request.cookies[cookies.recovery];
      if (previous && previous.length <= 100) {
        await db
          .updateTable('recovery_flows')
          .set({ state: 'ended' })
          .where('token_hash', '=', sha256(previous))
          .where('state', 'not in', ['consumed', 'ended'])
          .execute();
      }
      const { token } = await startFlow(ctx, request, account?.id ?? null);
      setFlowCookie(ctx, reply, token);
      if (!account) {
        request.log.info('recovery: unknown username');
        return failure(
          request,
          reply,
          new ApiError(200, Status.FORBIDDEN, serverMessages.invalidInformation),
        );
      }
      request.log.info({ account: account.id }, 'recovery: user identified');
      return outcome(request, reply, Status.SUCCESS, serverMessages.userIdentified);
    },
  });

  /** The account a request may see the contacts of: its recovery flow's, else its session's. */
  async function subjectAccount(request: FastifyRequest): Promise<Account | undefined> {
    const flow = await loadFlow(ctx, request);
    let accountId = flow?.account_id ?? null;
    if (!flow) {
      const session = await sessions.load(request.cookies[cookies.session]);
      accountId = session?.account_id ?? null;
    }
    return accountId ? findAccountById(db, accountId) : undefined;
  }

  defineRoute(app, {
    method: 'GET',
    path: paths.identityAttributes,
    tag: 'recovery',
    summary: 'The e-mail addresses (and phones) on file, masked, for the recovery flow or the session.',
    query: attributesQuery,
    successData: attributesData,
    codes: {
      [Status.SUCCESS]: 'successData.email (and .phone when asked): masked values, never the full address',
      [Status.UNAUTHENTICATED]: 'No recovery flow of a known user and no session (HTTP 401)',
    },
    handler: async ({ request, reply, query }) => {
      const account = await subjectAccount(request);
      if (!account) throw notStarted();
      const wanted = new Set(query.attributes.split(','));
      const data: { email?: Contact[]; phone?: Contact[] } = {};
      if (wanted.has('email')) {
        data.email = (await emailsOnFile(ctx, account)).map((address) => {
          const masked = maskEmail(address);
          return { type: 'EMAIL', value: masked, label: masked, enable: true };
        });
      }
      if (wanted.has('phone')) {
        const phones = await db
          .selectFrom('contacts')
          .select(['value', 'country_code', 'voice'])
          .where('account_id', '=', account.id)
          .where('kind', '=', 'phone')
          .orderBy('added_at')
          .execute();
        data.phone = phones.flatMap((p) => {
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
      return outcome(request, reply, Status.SUCCESS, serverMessages.success, { successData: data });
    },
  });

  /** The flow a code is sent for: the request's, or a new one for its live session's account. */
  async function sendingFlow(request: FastifyRequest, reply: FastifyReply): Promise<RecoveryFlow> {
    const flow = await loadFlow(ctx, request);
    if (flow) return flow;
    const session = await sessions.load(request.cookies[cookies.session]);
    if (!session) throw notStarted();
    const started = await startFlow(ctx, request, session.account_id);
    setFlowCookie(ctx, reply, started.token);
    return started.flow;
  }

  const blocked = (account: Account) => account.status === 'blocked' || account.status === 'disabled';

  defineRoute(app, {
    method: 'POST',
    path: paths.otpEmail,
    tag: 'recovery',
    summary:
      'Recovery (a GH_RECOVERY flow, or a login transaction before its factor): send a one-time code to the e-mail on file that matches the (masked) address given. Second factor (a session whose factor is due, or a signed-in one for step-up): email is the contact id from the OTP state call. 30 minutes, single use.',
    body: otpEmailSend,
    codes: {
      [Status.SUCCESS]:
        "Sent to the matching address on file (second factor: 'We sent the code to a****1@example.com. It will expire after 30 minutes.')",
      [Status.FORBIDDEN]:
        'The address given matches none on file (nothing is sent); second factor: not a usable e-mail contact of this account, or e-mail not allowed',
      [Status.LIMIT_REACHED]:
        "The account is blocked: this send would be the 4th without a code entered (the account is blocked now), or it already was. 'Please contact {email} for assistance (status code 1491).' Second factor: FACTOR_MAX_SENDS or FACTOR_MAX_WRONG_TRIES reached on e-mail (the account is not blocked)",
      [Status.UNAUTHENTICATED]: 'No recovery flow of a known user and no session (HTTP 401)',
      [Status.RATE_LIMITED]: 'Too many sends from this address or for this account (HTTP 429, Retry-After)',
    },
    handler: async ({ request, reply, body }) => {
      const factorSession = await factor.emailMode(request);
      if (factorSession) {
        return factor.send('email', request, reply, factorSession, { contactId: body.email });
      }
      const flow = await sendingFlow(request, reply);
      if (!flow.account_id) throw notStarted();
      const send = config.otp.send;
      await ctx.limiter.enforce(request, [
        [`otp-send:client:${request.ip}`, send.client],
        [`otp-send:account:${flow.account_id}`, send.account],
      ]);
      const account = await findAccountById(db, flow.account_id);
      if (!account) throw notStarted();
      if (blocked(account)) {
        return failure(request, reply, contactSupport(config.supportEmail));
      }

      // Never to an address the client supplies: the one on file whose mask was given. The full
      // address is not accepted, so this call cannot confirm a guessed address.
      const given = body.email.trim();
      const address = (await emailsOnFile(ctx, account)).find((a) => maskEmail(a) === given);
      if (!address) {
        return failure(
          request,
          reply,
          new ApiError(200, Status.FORBIDDEN, serverMessages.invalidInformation),
        );
      }

      const sends = await codes.countSend(account.id, 'email');
      if (sends > config.otp.sendsBeforeBlock) {
        await blockAccount(ctx, account.id);
        clearFlowCookie(ctx, reply);
        request.log.warn({ account: account.id, sends }, 'account blocked: codes sent without entry');
        return failure(request, reply, contactSupport(config.supportEmail));
      }

      const { code } = await codes.issue({
        accountId: account.id,
        channel: 'email',
        recipient: address,
        flowId: flow.id,
      });
      await mailer.sendCode({ to: address, code, expiryMinutes: Math.round(config.otp.expiryMs / 60_000) });
      const now = clock.now();
      await db
        .updateTable('recovery_flows')
        .set({
          state: flow.otp_confirmed ? flow.state : 'code_sent',
          expires_at: new Date(now.getTime() + config.recovery.flowMs),
        })
        .where('id', '=', flow.id)
        .execute();
      request.log.info({ account: account.id, sends, delivery: mailer.kind }, 'one-time code sent by e-mail');
      return outcome(request, reply, Status.SUCCESS, serverMessages.codeSent);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    path: paths.otpEmail,
    tag: 'recovery',
    summary:
      'Check the e-mailed one-time code: a right one confirms the recovery flow (once); in the second-factor mode it authenticates the session (login) or records a step-up.',
    body: otpCheck,
    codes: {
      [Status.SUCCESS]: `The code is right: the flow is confirmed (the password may be reset). Second factor: ${factorCheckCodes[Status.SUCCESS]}`,
      [Status.INCORRECT_CODE]: `'Your one-time code is invalid. Please try again or request a new code.' (wrong, expired, replaced or already used). Second factor: ${factorCheckCodes[Status.INCORRECT_CODE]}`,
      [Status.LIMIT_REACHED]: `Too many wrong codes for the account (OTP_MAX_WRONG_TRIES, counted across resends): the flow ends and the account is blocked; or it was blocked. Second factor: ${factorCheckCodes[Status.LIMIT_REACHED]}`,
      [Status.UNAUTHENTICATED]: 'No recovery flow of a known user (HTTP 401)',
    },
    handler: async ({ request, reply, body }) => {
      const factorSession = await factor.emailMode(request);
      if (factorSession) return factor.check('email', request, reply, factorSession, body);
      const flow = await loadFlow(ctx, request);
      if (!flow?.account_id) throw notStarted();
      const account = await findAccountById(db, flow.account_id);
      if (!account) throw notStarted();
      if (blocked(account)) {
        return failure(request, reply, contactSupport(config.supportEmail));
      }
      const result = await codes.check({
        accountId: account.id,
        channel: 'email',
        code: body.securityCode,
        flowId: flow.id,
      });
      if (result.outcome === 'accepted') {
        const now = clock.now();
        await db
          .updateTable('recovery_flows')
          .set({
            otp_confirmed: true,
            state: 'confirmed',
            expires_at: new Date(now.getTime() + config.recovery.flowMs),
          })
          .where('id', '=', flow.id)
          .execute();
        request.log.info({ account: account.id }, 'recovery: one-time code confirmed');
        return outcome(request, reply, Status.SUCCESS, serverMessages.codeConfirmed);
      }
      if (result.outcome === 'exhausted' || (result.outcome === 'wrong' && result.exhausted)) {
        await blockAccount(ctx, account.id);
        clearFlowCookie(ctx, reply);
        request.log.warn({ account: account.id }, 'account blocked: too many wrong one-time codes');
        return failure(request, reply, contactSupport(config.supportEmail));
      }
      return failure(request, reply, new ApiError(200, Status.INCORRECT_CODE, serverMessages.incorrectCode));
    },
  });
}
