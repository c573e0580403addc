import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Session } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';

/** password: the login transaction after a correct password; factor: a second factor is due. */
export type SessionState = 'password' | 'factor' | 'authenticated';

/**
 * Sessions are rows keyed by the SHA-256 of their token; the token lives only in the HttpOnly
 * cookie. The login transaction is the same row in an earlier state, so any instance continues it.
 */
export class SessionStore {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  /** Starts a row in the given state; returns the new token (never stored). */
  async create(input: {
    accountId: string;
    state: SessionState;
    journey?: string;
    context?: string | null;
    clientIp?: string;
    userAgent?: string | undefined;
  }): Promise<{ token: string; session: Session }> {
    const token = randomToken(32);
    const now = this.clock.now();
    const absolute = new Date(now.getTime() + this.config.sessionAbsoluteMs);
    const idle = this.idleLimit(input.state, now, absolute);
    const session = await this.db
      .insertInto('sessions')
      .values({
        id: sha256(token),
        account_id: input.accountId,
        state: input.state,
        journey: input.journey ?? 'LOGIN',
        context: input.context ?? null,
        created_at: now,
        last_seen_at: now,
        idle_expires_at: idle,
        absolute_expires_at: absolute,
        client_ip: input.clientIp ?? null,
        user_agent: input.userAgent?.slice(0, 300) ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { token, session };
  }

  private idleLimit(state: SessionState, now: Date, absolute: Date): Date {
    const span = state === 'authenticated' ? this.config.sessionIdleMs : this.config.loginFlowMs;
    return new Date(Math.min(now.getTime() + span, absolute.getTime()));
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
    if (!session || session.ended_at) return null;
    // A signed-in session counts only while its account is active: one created in the moment the
    // account was locked (a sign-in racing the lockout) is ended here. A login transaction is
    // left to session login, which answers the account's state (1403 blocked).
    if (session.state === 'authenticated' && session.account_status !== 'active') {
      await this.end(session.id, session.account_status);
      return null;
    }
    const now = this.clock.now().getTime();
    if (now >= new Date(session.idle_expires_at).getTime()) {
      await this.end(session.id, 'idle');
      return null;
    }
    if (now >= new Date(session.absolute_expires_at).getTime()) {
      await this.end(session.id, 'absolute');
      return null;
    }
    const { account_status: _status, ...row } = session;
    return row;
  }

  /** Records activity: the idle limit moves forward, never past the absolute limit. */
  async touch(session: Session): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - new Date(session.last_seen_at).getTime() < 30_000) return;
    const idle = this.idleLimit(session.state as SessionState, now, new Date(session.absolute_expires_at));
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, idle_expires_at: idle })
      .where('id', '=', session.id)
      .where('ended_at', 'is', null)
      .execute();
  }

  /**
   * Moves a session to a new state under a new token (the old token stops working): called at
   * sign-in and step-up so that a token seen before authentication is never an authenticated one.
   * Null when another request promoted (or ended) the session first: one transaction, one promotion.
   */
  async promote(session: Session, state: SessionState, context?: string | null) {
    if (!(await this.end(session.id, 'rotated'))) return null;
    return this.create({
      accountId: session.account_id,
      state,
      journey: session.journey,
      context: context ?? session.context,
      clientIp: session.client_ip ?? undefined,
      userAgent: session.user_agent ?? undefined,
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

  async endAllForAccount(accountId: string, reason: string, exceptId?: string): Promise<void> {
    let query = this.db
      .updateTable('sessions')
      .set({ ended_at: this.clock.now(), end_reason: reason })
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
  }
}
