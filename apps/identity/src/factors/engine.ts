import type { AuthenticatorType } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { Account, Journey, PassedFactor, Session } from '../db/schema.ts';
import { passed } from '../journeys/store.ts';
import { noLoginInProgress, sessionExpired } from '../lib/http.ts';
import { findAccountById } from '../services/accounts.ts';
import { clearSessionCookies, setSessionCookies } from '../services/cookies.ts';
import { bindDevice } from '../services/trusted-devices.ts';

/**
 * The journey a factor step acts for: a login journey whose second factor is due (LOGIN), or the
 * open step-up journey of a signed-in session (STEPUP).
 */
export type FactorJourney =
  | { kind: 'login'; journey: Journey; account: Account; session?: undefined }
  | { kind: 'stepup'; journey: Journey; account: Account; session: Session };

/** What completing a factor did, for the factor's answer. */
export type Completion = {
  factor: AuthenticatorType;
  /** STEPUP: when the factor was proved again. */
  steppedUpAt?: Date;
  /** LOGIN with bindDevice: until when the device is trusted. */
  trustedUntil: Date | null;
  session: Session;
};

/**
 * The journey engine: every factor finishes through it, so completing a step, deciding what comes
 * next (a signed-in session for LOGIN, a rotated session for STEPUP, a trusted-device binding) and
 * the audit trail are written once. Each step is single-use in SQL (JourneyStore.transition).
 */
export class FactorEngine {
  constructor(private readonly ctx: Context) {}

  /** The factor journey of a request, or null (no login with a factor due, no signed-in session). */
  async resolve(request: FastifyRequest): Promise<FactorJourney | null> {
    const { ctx } = this;
    const token = request.cookies[ctx.cookieNames.session];
    const login = await ctx.journeys.byToken('login', token);
    if (login) {
      if (login.state !== 'factor' || !login.account_id) return null;
      const account = await findAccountById(ctx.db, login.account_id);
      if (!account) return null;
      await ctx.journeys.touch(login);
      return { kind: 'login', journey: login, account };
    }
    const session = await ctx.sessions.load(token);
    if (!session) return null;
    const account = await findAccountById(ctx.db, session.account_id);
    if (!account) return null;
    await ctx.sessions.touch(session);
    const journey = await ctx.journeys.openStepUp(session, request.ip);
    return { kind: 'stepup', journey, account, session };
  }

  /** The factor journey of a request, or the 401 envelope (4401). */
  async require(request: FastifyRequest): Promise<FactorJourney> {
    const found = await this.resolve(request);
    if (!found) throw sessionExpired();
    return found;
  }

  /**
   * A factor was proved. The journey's step completes once (null: another call completed or ended it
   * first, or it expired). LOGIN: a signed-in session under a new token, listing the password and
   * this factor; the device is bound when asked. STEPUP: the session is rotated and records the
   * factor with its time.
   */
  async complete(
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    factor: AuthenticatorType,
    options: { bindDevice?: boolean | undefined } = {},
  ): Promise<Completion | null> {
    const { ctx } = this;
    const now = ctx.clock.now();
    const proved = passed(factor, 2, now);
    const done = await ctx.journeys.transition(fj.journey, ['factor'], 'completed', { factor: proved });
    if (!done) return null;
    await ctx.audit.record(request, {
      event: 'factor-passed',
      outcome: 'success',
      accountId: fj.account.id,
      journeyId: fj.journey.id,
      detail: { factor, journey: fj.kind },
    });
    if (fj.kind === 'stepup') {
      const rotated = await ctx.sessions.rotate(fj.session, proved, fj.journey.id);
      if (!rotated) return null;
      setSessionCookies(ctx, request, reply, rotated.token, rotated.session.context);
      await ctx.audit.record(request, {
        event: 'step-up',
        outcome: 'success',
        accountId: fj.account.id,
        journeyId: fj.journey.id,
        detail: { factor },
      });
      return { factor, steppedUpAt: now, trustedUntil: null, session: rotated.session };
    }
    const session = await this.signIn(request, reply, done);
    const trustedUntil = options.bindDevice ? await bindDevice(ctx, request, fj.account.id) : null;
    return { factor, trustedUntil, session };
  }

  /**
   * Completes a login journey into a signed-in session (new token, cookies, audit): after its second
   * factor (the journey is already completed), or from session login when none is due
   * (`finish` moves it from 'password', adding the trusted device when one stood in).
   */
  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    journey: Journey,
    finish?: { extra?: PassedFactor; context?: string | null },
  ): Promise<Session> {
    const { ctx } = this;
    let done: Journey | null = journey;
    if (finish) {
      done = await ctx.journeys.transition(journey, ['password'], 'completed', {
        ...(finish.extra ? { factor: finish.extra } : {}),
        ...(finish.context ? { data: { context: finish.context } } : {}),
      });
      // Another call completed (or ended) it first: one journey, one sign-in.
      if (!done) throw noLoginInProgress();
    }
    const context = (done.data.context as string | null | undefined) ?? null;
    const { token, session } = await ctx.sessions.create({
      accountId: done.account_id as string,
      context,
      clientIp: request.ip,
      userAgent: request.headers['user-agent'],
      factors: done.factors,
      journey: { kind: 'login', id: done.id },
    });
    setSessionCookies(ctx, request, reply, token, context);
    await ctx.audit.record(request, {
      event: 'sign-in',
      outcome: 'success',
      accountId: done.account_id,
      journeyId: done.id,
      detail: { factors: done.factors.map((f) => f.kind).join(' ') },
    });
    return session;
  }

  /**
   * Too many wrong tries of a factor: the LOGIN journey fails and its cookies are cleared; a STEPUP
   * leaves the session as it is (the factor is refused until its lock runs out).
   */
  async fail(request: FastifyRequest, reply: FastifyReply, fj: FactorJourney, factor: AuthenticatorType) {
    const { ctx } = this;
    if (fj.kind === 'login') {
      await ctx.journeys.transition(fj.journey, ['factor'], 'failed');
      clearSessionCookies(ctx, request, reply);
    }
    await ctx.audit.record(request, {
      event: 'factor-locked',
      outcome: 'failure',
      accountId: fj.account.id,
      journeyId: fj.journey.id,
      detail: { factor, journey: fj.kind },
    });
  }

  /** A wrong code (or other failed proof) of a factor, for the audit trail. */
  async wrong(request: FastifyRequest, fj: FactorJourney, factor: AuthenticatorType, tries?: number) {
    await this.ctx.audit.record(request, {
      event: 'factor-failed',
      outcome: 'failure',
      accountId: fj.account.id,
      journeyId: fj.journey.id,
      detail: { factor, journey: fj.kind, ...(tries !== undefined ? { wrongTries: tries } : {}) },
    });
  }
}
