import type { AuthenticatorType } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import type { StatementAuditEntry } from '../audit/audit.ts';
import type { Context } from '../context.ts';
import { HeldCredentials } from '../credentials/held.ts';
import type { StatementValue } from '../db/database.ts';
import type { Account, Journey, PassedFactor, Session } from '../db/schema.ts';
import { passed } from '../journeys/store.ts';
import { sessionExpired } from '../lib/http.ts';
import type { FactorState } from '../lib/otp.ts';
import { notifyOwner } from '../services/account-security.ts';
import { afterSignIn } from '../services/accounts.ts';
import { clearSessionCookies, setSessionCookies } from '../services/cookies.ts';
import { sessionColumns } from '../services/sessions.ts';
import { bindDevice } from '../services/trusted-devices.ts';
import { factors } from './registry.ts';

/** A step-up whose session another request rotated or ended first: its transaction rolls back. */
class LostRace extends Error {}

/**
 * The journey a factor step acts for: a login journey whose second factor is due (LOGIN), or the
 * open step-up journey of a signed-in session (STEPUP).
 */
export type FactorJourney =
  | {
      kind: 'login';
      journey: Journey;
      account: Account;
      session?: undefined;
      held: HeldCredentials;
      /** The account's code counters and held factors, read with the journey (issue 25). */
      factorState: FactorState;
    }
  | {
      kind: 'stepup';
      journey: Journey;
      account: Account;
      session: Session;
      held?: undefined;
      factorState?: undefined;
    };

/**
 * What a factor's refusals and audit events need of its journey: a login's code check that reads
 * its journey in its own statement has only these (decision 057).
 */
export type FactorParty = {
  kind: FactorJourney['kind'];
  journey: Pick<Journey, 'id'>;
  account: Pick<Account, 'id' | 'email' | 'language'>;
};

/** The account's credentials: a login journey's were read with it; a step-up's are read now. */
export const heldCredentials = (ctx: Context, fj: FactorJourney): Promise<HeldCredentials> =>
  fj.held ? Promise.resolve(fj.held) : HeldCredentials.read(ctx, fj.account.id);

/** What completing a factor did, for the factor's answer. */
/** A proof run in the statement that completes a login on it (FactorEngine.signInAfter). */
export type StatementPrelude = {
  /** WITH queries, without the WITH, run before the completion's. */
  queries: RawBuilder<unknown>;
  /** The journey completes only where this holds (the proof was right). */
  gate: RawBuilder<boolean>;
  /** What the statement answers of the proof. */
  columns: RawBuilder<unknown>;
};

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
    // The login journey or the signed-in session, with the account, in one statement (issue 25).
    const read = await ctx.sessions.loginOrSession(token);
    if (!read) return null;
    if ('login' in read) {
      if (read.login.journey.state !== 'factor') return null;
      await ctx.journeys.touch(read.login.journey);
      const { journey, account, credentials, factorState } = read.login;
      return { kind: 'login', journey, account, held: HeldCredentials.of(credentials), factorState };
    }
    const { session, account } = read;
    await ctx.sessions.touch(session);
    const journey = await ctx.journeys.openStepUp(session, request.ip);
    // Activity keeps the step-up open (a code sent near its end is still its own), never past the
    // session's absolute limit.
    await ctx.journeys.touch(journey, new Date(session.absolute_expires_at));
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
    return (await this.completeAfter(request, reply, fj, factor, options)).done;
  }

  /**
   * `complete`, for a login journey after a proof in the same statement (`before`; signInAfter):
   * `done` is null where the proof was wrong, and `row` is the statement's answer of the proof. A
   * step-up takes no prelude (its completion is a transaction of its own).
   */
  async completeAfter(
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorJourney,
    factor: AuthenticatorType,
    options: { bindDevice?: boolean | undefined },
    before?: StatementPrelude,
  ): Promise<{ done: Completion | null; row: Record<string, unknown> }> {
    if (before && fj.kind !== 'login') throw new Error('a step-up completes in a transaction of its own');
    const { ctx } = this;
    if (fj.kind === 'login')
      return this.completeLoginAfter(request, reply, fj.journey, factor, options, before);
    const now = ctx.clock.now();
    const proved = this.proved(factor, now);
    // A step-up: the step completes, the session rotates and the audit trail records it together,
    // or none of them does (a fault, a race).
    const rotated = await ctx.sessions
      .underAccount(fj.account.id, 'share', async (sessions, tx) => {
        const done = await ctx.journeys
          .withDb(tx)
          .transition(fj.journey, ['factor'], 'completed', { factor: proved });
        if (!done) return null;
        const next = await sessions.rotateHeld(fj.session, proved, fj.journey.id);
        // Another request rotated or ended the session first: the step stays as it was.
        if (!next) throw new LostRace();
        const audit = ctx.audit.withDb(tx);
        await audit.record(request, {
          event: 'factor-passed',
          outcome: 'success',
          accountId: fj.account.id,
          journeyId: fj.journey.id,
          detail: { factor, journey: 'stepup' },
        });
        await audit.record(request, {
          event: 'step-up',
          outcome: 'success',
          accountId: fj.account.id,
          journeyId: fj.journey.id,
          detail: { factor },
        });
        return next;
      })
      .catch((error) => {
        if (error instanceof LostRace) return null;
        throw error;
      });
    if (!rotated) return { done: null, row: {} };
    setSessionCookies(ctx, request, reply, rotated.token, rotated.session.context);
    return { done: { factor, steppedUpAt: now, trustedUntil: null, session: rotated.session }, row: {} };
  }

  /** A factor as the journey records it, with its module's strength (decision 036): level and phishing resistance. */
  private proved(factor: AuthenticatorType, now: Date): PassedFactor {
    const module = factors().ofType(factor);
    if (!module) throw new Error(`No factor module declares the type ${factor}`);
    const { assurance } = module;
    return {
      ...passed(factor, assurance.level, now),
      ...(assurance.phishingResistant ? { phishingResistant: true } : {}),
    };
  }

  /**
   * `completeAfter` for a login journey, named by values of the statement (decision 057: a code
   * check that reads its journey in the same statement names it from that read). The device is
   * bound to the account of the session made.
   */
  async completeLoginAfter(
    request: FastifyRequest,
    reply: FastifyReply,
    journey: { id: StatementValue; account_id: StatementValue | null },
    factor: AuthenticatorType,
    options: { bindDevice?: boolean | undefined },
    before?: StatementPrelude,
  ): Promise<{ done: Completion | null; row: Record<string, unknown> }> {
    const { ctx } = this;
    const { session, token, row } = await this.signInAfter(
      request,
      journey,
      { from: 'factor', extra: this.proved(factor, ctx.clock.now()) },
      before,
    );
    if (!session) return { done: null, row };
    const trustedUntil = options.bindDevice
      ? await bindDevice(ctx, request, session.account_id, session.id)
      : null;
    // The cookies only once everything of the sign-in is written: a fault in the binding answers
    // 503 with no session handed out.
    setSessionCookies(ctx, request, reply, token, session.context);
    return { done: { factor, trustedUntil, session }, row };
  }

  /**
   * Completes a login journey into a signed-in session (new token, cookies, audit), from 'factor'
   * after its second factor, or from 'password' at session login when none is due (`extra`: the
   * trusted device that stood in). One statement (issue 25): under the account's row (FOR SHARE: a
   * change of password, a reset or a lock, which hold it FOR UPDATE and end the account's journeys,
   * comes wholly before or after), the journey's step, the session with its factors, their audit
   * events, the known device and the lift of a recovery lock (`afterSignIn`) are written together,
   * or not at all: null when another call completed or ended the journey first (one journey, one
   * sign-in), or a change of password ended it.
   */
  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    journey: Journey,
    finish: { from: 'password' | 'factor'; extra?: PassedFactor; context?: string | null },
  ): Promise<Session | null> {
    const { session, token } = await this.signInAfter(request, journey, finish);
    if (session) setSessionCookies(this.ctx, request, reply, token, session.context);
    return session;
  }

  /**
   * `signIn`, after the proof in the same statement (issue 25: a login's right code and its
   * completion are one round trip): `before`'s WITH queries run first, the journey completes only
   * where its `gate` holds, and the statement answers its `columns` too (`row`).
   */
  async signInAfter(
    request: FastifyRequest,
    journey: { id: StatementValue; account_id: StatementValue | null },
    finish: { from: 'password' | 'factor'; extra?: PassedFactor; context?: string | null },
    before?: StatementPrelude,
  ): Promise<{ session: Session | null; token: string; row: Record<string, unknown> }> {
    const { ctx } = this;
    const session = ctx.sessions.insertFrom('done', {
      clientIp: request.ip,
      userAgent: request.headers['user-agent'],
    });
    const signedIn: StatementAuditEntry = {
      event: 'sign-in',
      outcome: 'success',
      accountId: { column: 'done.account_id' },
      journeyId: { column: 'done.id' },
      detail: sql`jsonb_build_object('factors', (select string_agg(f.value->>'kind', ' ' order by f.ordinality)
        from jsonb_array_elements(done.factors) with ordinality f))`,
    };
    const events: Array<[string, RawBuilder<unknown>]> = [
      [
        'audited',
        await ctx.audit.insertFrom('done', request, [
          // The second factor that completed it, then the sign-in.
          ...(finish.from === 'factor' && finish.extra
            ? [
                {
                  event: 'factor-passed',
                  outcome: 'success',
                  accountId: { column: 'done.account_id' },
                  journeyId: { column: 'done.id' },
                  detail: { factor: finish.extra.kind, journey: 'login' },
                } satisfies StatementAuditEntry,
              ]
            : []),
          signedIn,
        ]),
      ],
      ...(await afterSignIn(ctx, request, 'done')),
    ];
    const { rows } = await sql<Record<string, unknown>>`
      with ${before ? sql`${before.queries}, ` : sql``}account as (
        select id from accounts where id = ${journey.account_id} for share
      ), done as (${ctx.journeys.completeFrom(journey, finish.from, {
        ...(finish.extra ? { factor: finish.extra } : {}),
        ...(finish.context ? { data: { context: finish.context } } : {}),
        condition: before
          ? sql`exists (select 1 from account) and ${before.gate}`
          : sql`exists (select 1 from account)`,
      })}
      ), session as (${session.session}
      ), session_proved as (${session.factors}
      )${sql.join(
        events.map(([name, query]) => sql`, ${sql.raw(name)} as (${query})`),
        sql``,
      )}
      ${before ? sql`select ${before.columns}, s.* from (select 1) as one left join session s on true` : sql`select * from session`}`.execute(
      ctx.db,
    );
    const row = rows[0] ?? {};
    if (row.id === undefined || row.id === null) return { session: null, token: session.token, row };
    const created = Object.fromEntries(sessionColumns.map((c) => [c, row[c]])) as Session;
    return { session: created, token: session.token, row };
  }

  /**
   * Too many wrong tries of a factor: the LOGIN journey fails and its cookies are cleared; a STEPUP
   * leaves the session as it is (the factor is refused until its lock runs out).
   */
  async fail(
    request: FastifyRequest,
    reply: FastifyReply,
    fj: FactorParty,
    factor: AuthenticatorType,
    options: { blockedNow?: boolean } = {},
  ) {
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
    // The try that set the block: the owner hears of it by every established contact (decision
    // 030); a try refused during the block tells no one again.
    if (options.blockedNow !== false) await notifyOwner(ctx, request, fj.account, 'factor-blocked');
  }

  /** A wrong code (or other failed proof) of a factor, for the audit trail. */
  async wrong(request: FastifyRequest, fj: FactorParty, factor: AuthenticatorType, tries?: number) {
    await this.ctx.audit.record(request, {
      event: 'factor-failed',
      outcome: 'failure',
      accountId: fj.account.id,
      journeyId: fj.journey.id,
      detail: { factor, journey: fj.kind, ...(tries !== undefined ? { wrongTries: tries } : {}) },
    });
  }
}
