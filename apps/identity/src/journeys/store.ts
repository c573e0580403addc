import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Journey, PassedFactor, Session } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';

/**
 * Journeys as records (docs/decisions/008-journeys-as-records.md, Ory Kratos's flows): a login
 * transaction, a step-up and a recovery are each a row with an id, a kind, a state, an expiry, the
 * account, the browser binding and the factors passed. Nothing is held in memory: any instance
 * continues any journey, and every change of state is one conditional UPDATE (`WHERE state IN
 * (...) AND expires_at > now`), so of two instances or two concurrent calls exactly one moves it.
 */
export type JourneyKind = 'login' | 'stepup' | 'recovery';

/** States a journey does not leave. */
export const finalStates = ['completed', 'failed', 'ended', 'expired', 'consumed'] as const;

/** A factor as a journey records it. `level` 1: the password; 2: a second factor. */
export const passed = (kind: string, level: number, at: Date): PassedFactor => ({
  kind,
  level,
  at: at.toISOString(),
});

export class JourneyStore {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  /** The same store on a transaction's handle. */
  withDb(db: DB): JourneyStore {
    return new JourneyStore(db, this.clock, this.config);
  }

  /**
   * Starts a journey. With `bound`, a new random token binds it to the browser (the caller puts it
   * in an HttpOnly cookie; only its SHA-256 is stored).
   */
  async start(input: {
    kind: JourneyKind;
    state: string;
    accountId: string | null;
    ttlMs: number;
    bound?: boolean;
    sessionId?: string;
    factors?: PassedFactor[];
    data?: Record<string, unknown>;
    clientIp?: string;
    userAgent?: string | undefined;
  }): Promise<{ journey: Journey; token: string | null }> {
    const now = this.clock.now();
    const token = input.bound ? randomToken(32) : null;
    const journey = await this.db
      .insertInto('journeys')
      .values({
        kind: input.kind,
        state: input.state,
        token_hash: token ? sha256(token) : null,
        session_id: input.sessionId ?? null,
        account_id: input.accountId,
        factors: JSON.stringify(input.factors ?? []),
        data: JSON.stringify(input.data ?? {}),
        created_at: now,
        updated_at: now,
        expires_at: new Date(now.getTime() + input.ttlMs),
        client_ip: input.clientIp ?? null,
        user_agent: input.userAgent?.slice(0, 300) ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { journey, token };
  }

  /** The live journey of a kind bound to a browser token: not in a final state, not expired. */
  async byToken(kind: JourneyKind, token: string | undefined): Promise<Journey | null> {
    if (!token || token.length > 100) return null;
    const journey = await this.db
      .selectFrom('journeys')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .where('kind', '=', kind)
      .executeTakeFirst();
    return journey && this.live(journey) ? journey : null;
  }

  live(journey: Journey): boolean {
    return (
      !(finalStates as readonly string[]).includes(journey.state) &&
      this.clock.now().getTime() < new Date(journey.expires_at).getTime()
    );
  }

  /**
   * Moves a live journey from one of `from` to `to`, atomically: null when another call moved it
   * first, or it expired. `factor` is appended to the factors passed; `data` merged; `ttlMs` sets a
   * new expiry from now.
   */
  async transition(
    journey: Pick<Journey, 'id'>,
    from: readonly string[],
    to: string,
    change: { factor?: PassedFactor; data?: Record<string, unknown>; ttlMs?: number } = {},
  ): Promise<Journey | null> {
    const now = this.clock.now();
    const final = (finalStates as readonly string[]).includes(to);
    const row = await this.db
      .updateTable('journeys')
      .set({
        state: to,
        updated_at: now,
        ...(change.factor
          ? { factors: sql`factors || ${JSON.stringify([change.factor])}::jsonb` as never }
          : {}),
        ...(change.data ? { data: sql`data || ${JSON.stringify(change.data)}::jsonb` as never } : {}),
        ...(change.ttlMs !== undefined ? { expires_at: new Date(now.getTime() + change.ttlMs) } : {}),
        ...(final ? { completed_at: now } : {}),
      })
      .where('id', '=', journey.id)
      .where('state', 'in', [...from])
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  /** Ends the live journeys of an account (of some kinds): a lock, a reset, a new sign-in. */
  async endForAccount(accountId: string, kinds: readonly JourneyKind[], state = 'ended'): Promise<number> {
    const result = await this.db
      .updateTable('journeys')
      .set({ state, updated_at: this.clock.now(), completed_at: this.clock.now() })
      .where('account_id', '=', accountId)
      .where('kind', 'in', [...kinds])
      .where('state', 'not in', [...finalStates])
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Ends the live journey of a kind bound to a browser token, if any. */
  async endByToken(kind: JourneyKind, token: string | undefined, state = 'ended'): Promise<void> {
    if (!token || token.length > 100) return;
    await this.db
      .updateTable('journeys')
      .set({ state, updated_at: this.clock.now(), completed_at: this.clock.now() })
      .where('token_hash', '=', sha256(token))
      .where('kind', '=', kind)
      .where('state', 'not in', [...finalStates])
      .execute();
  }

  /**
   * Records activity on a login or step-up journey: its expiry moves LOGIN_FLOW_MINUTES ahead, never
   * past `limit` (default: the absolute session limit counted from its start; a step-up passes its
   * session's absolute limit).
   */
  async touch(journey: Journey, limit?: Date): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - new Date(journey.updated_at).getTime() < 30_000) return;
    const cap = limit?.getTime() ?? new Date(journey.created_at).getTime() + this.config.sessionAbsoluteMs;
    await this.db
      .updateTable('journeys')
      .set({ updated_at: now, expires_at: new Date(Math.min(now.getTime() + this.config.loginFlowMs, cap)) })
      .where('id', '=', journey.id)
      .where('state', 'not in', [...finalStates])
      .where('expires_at', '>', now)
      .execute();
  }

  /**
   * The open step-up journey of a signed-in session, started on first use: LOGIN_FLOW_MINUTES, never
   * past the session's absolute limit. Concurrent first calls share one (a unique partial index).
   */
  async openStepUp(session: Session, clientIp?: string): Promise<Journey> {
    const now = this.clock.now();
    // One that ran out of time is closed first, so the index admits a new one.
    await this.db
      .updateTable('journeys')
      .set({ state: 'expired', updated_at: now, completed_at: now })
      .where('session_id', '=', session.id)
      .where('kind', '=', 'stepup')
      .where('state', '=', 'factor')
      .where('expires_at', '<=', now)
      .execute();
    const find = () =>
      this.db
        .selectFrom('journeys')
        .selectAll()
        .where('session_id', '=', session.id)
        .where('kind', '=', 'stepup')
        .where('state', '=', 'factor')
        .executeTakeFirst();
    const open = await find();
    if (open) return open;
    const absolute = new Date(session.absolute_expires_at).getTime();
    const expires = new Date(Math.min(now.getTime() + this.config.loginFlowMs, absolute));
    await sql`insert into journeys (kind, state, session_id, account_id, created_at, updated_at, expires_at, client_ip)
      values ('stepup', 'factor', ${session.id}, ${session.account_id}, ${now}, ${now}, ${expires}, ${clientIp ?? null})
      on conflict do nothing`.execute(this.db);
    const created = await find();
    if (!created) throw new Error('step-up journey could not be opened');
    return created;
  }
}
