import { randomUUID } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Config } from '../config.ts';
import { credentialsJson } from '../credentials/columns.ts';
import type { DB } from '../db/database.ts';
import type { Account, PassedFactor, Session } from '../db/schema.ts';
import {
  accountFromRow,
  isLive,
  JourneyStore,
  journeyColumns,
  type LoginRead,
  loginFromRow,
  markedFactorDueFrom,
} from '../journeys/store.ts';
import type { Clock } from '../lib/clock.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';
import { factorStateJson } from '../lib/otp.ts';

/** What session login records when a trusted device stood in for the second factor. */
export const TRUSTED_DEVICE = 'TRUSTED-DEVICE';

/** A factor that proved a session, as `session_factors` keeps it. */
export type SessionFactor = {
  kind: string;
  level: number;
  journeyKind: string;
  verifiedAt: Date;
  phishingResistant: boolean;
};

/** Every column of the sessions table (`loginOrSession` reads them beside the account's). */
export const sessionColumns = [
  'id',
  'account_id',
  'context',
  'created_at',
  'last_seen_at',
  'idle_expires_at',
  'absolute_expires_at',
  'ended_at',
  'end_reason',
  'client_ip',
  'user_agent',
  'public_id',
] as const satisfies readonly (keyof Session)[];

/**
 * Signed-in sessions: rows keyed by the SHA-256 of their token; the token lives only in the HttpOnly
 * cookie. A session is created when a login journey completes and lists the factors that proved it
 * (session_factors: kind, level, time, journey), so "proved with a factor of this kind in the last N
 * minutes" is a query.
 */
export class SessionStore {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  /** The same store on a transaction's handle. */
  withDb(db: DB): SessionStore {
    return new SessionStore(db, this.clock, this.config);
  }

  /**
   * Runs `work` in a transaction holding the account's row: FOR SHARE for a sign-in or a rotation
   * (they do not wait for each other), FOR UPDATE for ending the account's sessions. So a session
   * is created either before an end (and ended by it) or after (and its journey, ended first,
   * refuses it): never alive after a password change, a reset or a lock.
   */
  async underAccount<T>(
    accountId: string,
    mode: 'share' | 'update',
    work: (sessions: SessionStore, tx: DB) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (tx) => {
      const query = tx.selectFrom('accounts').select('id').where('id', '=', accountId);
      await (mode === 'share' ? query.forShare() : query.forUpdate()).execute();
      return work(this.withDb(tx), tx);
    });
  }

  /**
   * Starts a signed-in session with the factors that proved it; returns the new token (never stored).
   * `keep` carries the sign-in time and absolute limit of the session a step-up rotates.
   */
  async create(input: {
    accountId: string;
    context?: string | null;
    clientIp?: string | null;
    userAgent?: string | null | undefined;
    factors: readonly PassedFactor[];
    journey: { kind: 'login' | 'stepup'; id: string | null };
    keep?: Pick<Session, 'created_at' | 'absolute_expires_at'> & { public_id?: string | null };
    /** Factors recorded on the session being rotated, copied to the new one. */
    carried?: readonly SessionFactor[];
  }): Promise<{ token: string; session: Session }> {
    const token = randomToken(32);
    const now = this.clock.now();
    const createdAt = input.keep ? new Date(input.keep.created_at) : now;
    const absolute = input.keep
      ? new Date(input.keep.absolute_expires_at)
      : new Date(now.getTime() + this.config.sessionAbsoluteMs);
    const idle = new Date(Math.min(now.getTime() + this.config.sessionIdleMs, absolute.getTime()));
    const id = sha256(token);
    const session = await this.db
      .insertInto('sessions')
      .values({
        id,
        account_id: input.accountId,
        context: input.context ?? null,
        created_at: createdAt,
        last_seen_at: now,
        idle_expires_at: idle,
        absolute_expires_at: absolute,
        client_ip: input.clientIp ?? null,
        user_agent: input.userAgent?.slice(0, 300) ?? null,
        // The security page's name for the session; a step-up's rotation keeps it.
        public_id: input.keep?.public_id ?? randomUUID(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const rows = [
      ...(input.carried ?? []).map((f) => ({
        session_id: id,
        kind: f.kind,
        level: f.level,
        journey_kind: f.journeyKind,
        journey_id: null,
        verified_at: f.verifiedAt,
        phishing_resistant: f.phishingResistant,
      })),
      ...input.factors.map((f) => ({
        session_id: id,
        kind: f.kind,
        level: f.level,
        journey_kind: input.journey.kind,
        journey_id: input.journey.id,
        verified_at: new Date(f.at),
        phishing_resistant: f.phishingResistant ?? false,
      })),
    ];
    if (rows.length) await this.db.insertInto('session_factors').values(rows).execute();
    return { token, session };
  }

  /**
   * `create` for a login journey as part of a statement (issue 25: a sign-in in five statements):
   * the session of the row of `source` (a WITH query with the journey's `id`, `account_id`,
   * `factors` and `context`), and a `session_factors` row per factor it passed. Returns the two
   * queries (`session` first: the second reads it) and the new token (never stored).
   */
  insertFrom(
    source: string,
    input: { clientIp?: string | null; userAgent?: string | null | undefined },
  ): { session: RawBuilder<unknown>; factors: RawBuilder<unknown>; token: string } {
    const token = randomToken(32);
    const now = this.clock.now();
    const absolute = new Date(now.getTime() + this.config.sessionAbsoluteMs);
    const idle = new Date(Math.min(now.getTime() + this.config.sessionIdleMs, absolute.getTime()));
    const from = sql.raw(source);
    return {
      token,
      session: sql`insert into sessions (id, account_id, context, created_at, last_seen_at, idle_expires_at,
          absolute_expires_at, client_ip, user_agent, public_id)
        select ${sha256(token)}, ${from}.account_id, ${from}.context, ${now}, ${now}, ${idle}, ${absolute},
          ${input.clientIp ?? null}, ${input.userAgent?.slice(0, 300) ?? null}, ${randomUUID()}
        from ${from}
        returning *`,
      factors: sql`insert into session_factors (session_id, kind, level, journey_kind, journey_id, verified_at,
          phishing_resistant)
        select session.id, f->>'kind', (f->>'level')::int, 'login', ${from}.id, (f->>'at')::timestamptz,
          coalesce((f->>'phishingResistant')::boolean, false)
        from session, ${from}, jsonb_array_elements(${from}.factors) f`,
    };
  }

  /** The live session of a token, or null when unknown, ended, idle too long or too old. */
  async load(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 100) return null;
    const session = await this.db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
      .selectAll('sessions')
      .select('accounts.status as account_status')
      .where('sessions.id', '=', sha256(token))
      .executeTakeFirst();
    if (!session) return null;
    const { account_status, ...row } = session;
    return (await this.current(row, account_status)) ? row : null;
  }

  /**
   * What a customer cookie's token names, with its account, in one statement (issue 25): the live
   * login journey it binds (with the account's credentials, for the factors offered and the
   * contacts, and its codes' counters and held factors, for a send or a check), or else the current
   * session it is. Session login and the factor calls used to read the journey, miss, and read the
   * session in a second statement.
   *
   * `factorDue` (session login only): a login journey in 'password' that its password step marked
   * (SECOND_FACTOR_DUE) moves to 'factor' in the same statement, with the call's context, while its
   * account owes nothing else (markedFactorDueFrom), and is read as after the move (decision 053).
   */
  async loginOrSession(
    token: string | undefined,
    factorDue?: { context: string | null },
  ): Promise<{ login: LoginRead } | { session: Session; account: Account } | null> {
    if (!token || token.length > 100) return null;
    const hash = sha256(token);
    const state = factorStateJson(sql.ref('accounts.id'));
    const ifJourney = (value: RawBuilder<unknown>) =>
      sql`case when journeys.id is null then null else ${value} end`;
    const now = this.clock.now();
    // The moved row is read from the update: the statement's other reads see the journey as it was.
    const moved = factorDue
      ? sql`with moved as (${markedFactorDueFrom(hash, now, factorDue.context, this.config)}) `
      : sql``;
    const journeys = factorDue
      ? sql`(select * from moved union all
          select * from journeys where token_hash = ${hash} and kind = 'login' and not exists (select 1 from moved))`
      : sql`journeys`;
    const { rows } = await sql<Record<string, unknown>>`
      ${moved}select accounts.*,
        ${sql.join(journeyColumns.map((c) => sql`${sql.ref(`journeys.${c}`)} as ${sql.ref(`journey_${c}`)}`))},
        ${sql.join(sessionColumns.map((c) => sql`${sql.ref(`sessions.${c}`)} as ${sql.ref(`session_${c}`)}`))},
        ${ifJourney(credentialsJson(sql.ref('accounts.id')))} as journey_account_credentials,
        ${ifJourney(state.counters)} as journey_account_counters,
        ${ifJourney(state.held)} as journey_account_holds
      from (select ${hash}::text as hash) as cookie
      left join ${journeys} as journeys on journeys.token_hash = cookie.hash and journeys.kind = 'login'
      left join sessions on sessions.id = cookie.hash
      join accounts on accounts.id = coalesce(journeys.account_id, sessions.account_id)`.execute(this.db);
    const fields = rows[0];
    if (!fields) return null;
    if (fields.journey_id !== null) {
      const login = loginFromRow(fields, 'session_');
      return isLive(login.journey, now) ? { login } : null;
    }
    const session = Object.fromEntries(sessionColumns.map((c) => [c, fields[`session_${c}`]])) as Session;
    const account = accountFromRow(fields, ['journey_', 'session_']);
    return (await this.current(session, account.status)) ? { session, account } : null;
  }

  /**
   * Whether a loaded session still counts; one that does not is ended here. A session counts only
   * while its account is active: one created in the moment the account was locked (a sign-in
   * racing the lockout) is ended.
   */
  private async current(session: Session, accountStatus: string): Promise<boolean> {
    if (session.ended_at) return false;
    if (accountStatus !== 'active') {
      await this.end(session.id, accountStatus);
      return false;
    }
    const now = this.clock.now().getTime();
    if (now >= new Date(session.idle_expires_at).getTime()) {
      await this.end(session.id, 'idle');
      return false;
    }
    if (now >= new Date(session.absolute_expires_at).getTime()) {
      await this.end(session.id, 'absolute');
      return false;
    }
    return true;
  }

  /** Records activity: the idle limit moves forward, never past the absolute limit. */
  async touch(session: Session, force = false): Promise<void> {
    const now = this.clock.now();
    if (!force && now.getTime() - new Date(session.last_seen_at).getTime() < 30_000) return;
    const idle = Math.min(
      now.getTime() + this.config.sessionIdleMs,
      new Date(session.absolute_expires_at).getTime(),
    );
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, idle_expires_at: new Date(idle) })
      .where('id', '=', session.id)
      .where('ended_at', 'is', null)
      .execute();
  }

  /** The factors that proved a session, oldest first. */
  async factors(sessionId: string): Promise<SessionFactor[]> {
    const rows = await this.db
      .selectFrom('session_factors')
      .select(['kind', 'level', 'journey_kind', 'verified_at', 'phishing_resistant'])
      .where('session_id', '=', sessionId)
      .orderBy('verified_at')
      .orderBy('level')
      .execute();
    return rows.map((r) => ({
      kind: r.kind,
      level: r.level,
      journeyKind: r.journey_kind,
      verifiedAt: new Date(r.verified_at),
      phishingResistant: r.phishing_resistant,
    }));
  }

  /**
   * When the session last proved a factor (of one of `kinds`, or any second factor) within the last
   * `withinMs`; null when it did not. A step-up policy is this query.
   */
  async provedSince(
    sessionId: string,
    options: { withinMs: number; kinds?: readonly string[]; journeyKind?: 'login' | 'stepup' },
  ): Promise<Date | null> {
    // (The security page asks with journeyKind 'stepup': a sign-in alone never opens it.)
    // A trusted device stands in for a factor at sign-in; it never proves one (never a step-up).
    let query = this.db
      .selectFrom('session_factors')
      .select((eb) => eb.fn.max('verified_at').as('at'))
      .where('session_id', '=', sessionId)
      .where('level', '>=', 2)
      .where('kind', '!=', TRUSTED_DEVICE)
      .where('verified_at', '>', new Date(this.clock.now().getTime() - options.withinMs));
    if (options.kinds) query = query.where('kind', 'in', [...options.kinds]);
    if (options.journeyKind) query = query.where('journey_kind', '=', options.journeyKind);
    const row = await query.executeTakeFirst();
    return row?.at ? new Date(row.at) : null;
  }

  /**
   * Rotates a session after a step-up: the old token stops working, a new one carries the same
   * sign-in time, absolute limit, context and factors, plus the factor just proved. Null when
   * another request rotated (or ended) it first: one step, one rotation. The caller holds the
   * account's row (underAccount), so a change of password cannot slip between end and create.
   */
  async rotateHeld(session: Session, proved: PassedFactor, journeyId: string) {
    if (!(await this.end(session.id, 'rotated'))) return null;
    return this.create({
      accountId: session.account_id,
      context: session.context,
      clientIp: session.client_ip,
      userAgent: session.user_agent,
      keep: session,
      carried: await this.factors(session.id),
      factors: [proved],
      journey: { kind: 'stepup', id: journeyId },
    });
  }

  /** Ends a live session; true when this call ended it (false: unknown or already ended). */
  async end(id: string, reason: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ ended_at: this.clock.now(), end_reason: reason })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async endByToken(token: string | undefined, reason: string): Promise<void> {
    if (token && token.length <= 100) await this.end(sha256(token), reason);
  }

  /**
   * Ends every session of an account and its sign-ins and step-ups in flight; `keep` names the
   * request's own session or login journey, which goes on.
   */
  async endAllForAccount(
    accountId: string,
    reason: string,
    keep: { sessionId?: string | undefined; journeyIds?: readonly string[]; recovery?: boolean } = {},
  ): Promise<void> {
    await this.underAccount(accountId, 'update', (sessions) => sessions.endAll(accountId, reason, keep));
  }

  /** Ends the account's sessions and journeys; on a store from underAccount's `sessions` (its transaction). */
  async endAll(
    accountId: string,
    reason: string,
    keep: { sessionId?: string | undefined; journeyIds?: readonly string[]; recovery?: boolean },
  ): Promise<void> {
    const exceptId = keep.sessionId;
    let query = this.db
      .updateTable('sessions')
      .set({ ended_at: this.clock.now(), end_reason: reason })
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
    // The account's single sign-on ends with them (decision 048): the OpenID Provider's sessions,
    // grants, codes and tokens of the account, so no application keeps refreshing after a change of
    // password, a lock or a staff action. A browser whose portal session stays signs in to the
    // applications again without a page (its portal session meets the request).
    await sql`delete from oidc_payloads where payload->>'accountId' = ${accountId}`.execute(this.db);
    // Sign-ins and step-ups in flight end with them. A change of proof (keep.recovery) ends recovery
    // journeys too: a confirmed one of another browser must not reset the new password again.
    await new JourneyStore(this.db, this.clock, this.config).endForAccount(
      accountId,
      keep.recovery ? ['login', 'stepup', 'recovery'] : ['login', 'stepup'],
      { journeyIds: keep.journeyIds, sessionId: exceptId },
    );
  }
}
