import { type RawBuilder, sql } from 'kysely';
import type { Config } from '../config.ts';
import { credentialsFromJson } from '../credentials/columns.ts';
import type { Credential } from '../credentials/store.ts';
import type { DB, StatementValue } from '../db/database.ts';
import type { Account, Journey, JourneyKind, JourneyState, PassedFactor, Session } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';
import { type FactorState, factorStateFromJson } from '../lib/otp.ts';

/**
 * Journeys as records (docs/decisions/008-journeys-as-records.md, Ory Kratos's flows): a login
 * transaction, a step-up and a recovery are each a row with an id, a kind, a state, an expiry, the
 * account, the browser binding and the factors passed. Nothing is held in memory: any instance
 * continues any journey, and every change of state is one conditional UPDATE (`WHERE state IN
 * (...) AND expires_at > now`), so of two instances or two concurrent calls exactly one moves it.
 */
export type { JourneyKind, JourneyState };

/** States a journey does not leave. */
export const finalStates = [
  'completed',
  'failed',
  'ended',
  'expired',
  'consumed',
] as const satisfies readonly JourneyState[];

/** A factor as a journey records it. `level` 1: the password; 2: a second factor. */
export const passed = (kind: string, level: number, at: Date): PassedFactor => ({
  kind,
  level,
  at: at.toISOString(),
});

/** Every column of a journey (a test holds this list to the table's). */
export const journeyColumns = [
  'id',
  'kind',
  'state',
  'token_hash',
  'session_id',
  'account_id',
  'factors',
  'data',
  'created_at',
  'updated_at',
  'expires_at',
  'completed_at',
  'client_ip',
  'user_agent',
] as const satisfies readonly (keyof Journey)[];

/** Whether a journey can still move: not in a final state, not expired at `now`. */
export const isLive = (journey: Journey, now: Date): boolean =>
  !(finalStates as readonly string[]).includes(journey.state) &&
  now.getTime() < new Date(journey.expires_at).getTime();

/** A login journey read with its account, its credentials and its codes' state (one statement). */
export type LoginRead = {
  journey: Journey;
  account: Account;
  credentials: Credential[];
  factorState: FactorState;
};

/**
 * The parts of a row read as `SessionStore.loginOrSession` reads it: the account's columns bare, the
 * journey's under `journey_`, the credentials and factor state as JSON.
 */
export function loginFromRow(fields: Record<string, unknown>, otherPrefix?: string): LoginRead {
  const journey = Object.fromEntries(journeyColumns.map((c) => [c, fields[`journey_${c}`]])) as Journey;
  const account = accountFromRow(fields, ['journey_', ...(otherPrefix ? [otherPrefix] : [])]);
  const credentials = credentialsFromJson(fields.journey_account_credentials);
  const factorState = factorStateFromJson(fields.journey_account_counters, fields.journey_account_holds);
  return { journey, account, credentials, factorState };
}

/**
 * The key of a login journey's data that says session login can only find the second factor due
 * (set by the password step: plugins/password.ts; decision 053).
 */
export const SECOND_FACTOR_DUE = 'secondFactorDue';

/**
 * Session login's move of a marked login journey (SECOND_FACTOR_DUE) from 'password' to 'factor',
 * as a WITH query of the statement that reads the cookie's journey (SessionStore.loginOrSession):
 * by the token's hash, while live, and only while the account is still as the mark found it when
 * the password step read it (active, not prohibited, with a second factor, nothing owed: a change
 * made since, a forced password reset say, leaves the journey to session login's other path). The
 * mark goes, the call's context is merged, and the expiry is extended as `touch` would. Returns the
 * moved row (`returning *`), none when there was nothing to move.
 */
export function markedFactorDueFrom(
  tokenHash: string,
  now: Date,
  context: string | null,
  limits: { loginFlowMs: number; sessionAbsoluteMs: number },
): RawBuilder<unknown> {
  return sql`update journeys set state = 'factor', updated_at = ${now}, expires_at = ${loginExpiry(now, limits)},
      data = (data - ${SECOND_FACTOR_DUE}::text) || ${JSON.stringify(context ? { context } : {})}::jsonb
    where token_hash = ${tokenHash} and kind = 'login' and state = 'password'
      and data @> ${JSON.stringify({ [SECOND_FACTOR_DUE]: true })}::jsonb and expires_at > ${now}
      and exists (select 1 from accounts a where a.id = journeys.account_id and a.status = 'active'
        and not a.prohibited and a.second_factor and a.password_state = 'ok'
        and not a.require_username_update and not a.maintenance)
    returning *`;
}

/** Activity moves a journey's expiry at most this often (a write per call would cost every call one). */
const TOUCH_AFTER_MS = 30_000;

/**
 * A login journey's expiry after activity at `now`, as SQL over its row: LOGIN_FLOW_MINUTES ahead,
 * never past the absolute session limit counted from its start (`JourneyStore.touch`).
 */
const loginExpiry = (now: Date, limits: { loginFlowMs: number; sessionAbsoluteMs: number }) =>
  sql`least(${new Date(now.getTime() + limits.loginFlowMs)}::timestamptz,
    created_at + ${limits.sessionAbsoluteMs} * interval '1 millisecond')`;

/** The account's columns of a row that reads others under prefixes. */
export const accountFromRow = (fields: Record<string, unknown>, prefixes: readonly string[]): Account =>
  Object.fromEntries(
    Object.entries(fields).filter(([name]) => !prefixes.some((prefix) => name.startsWith(prefix))),
  ) as Account;

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
    state: JourneyState;
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

  /**
   * `start` as part of a statement (issue 25): `insert into journeys … select … from <source>`,
   * one journey for the row of the statement's `source` (a WITH query with the account's `id`), so
   * it exists exactly when the statement's condition held. Returns the insert and the new token.
   */
  startFrom(
    source: string,
    input: Omit<Parameters<JourneyStore['start']>[0], 'accountId' | 'bound'>,
  ): { insert: RawBuilder<unknown>; token: string } {
    const now = this.clock.now();
    const token = randomToken(32);
    return {
      token,
      insert: sql`insert into journeys (kind, state, token_hash, session_id, account_id, factors, data,
          created_at, updated_at, expires_at, client_ip, user_agent)
        select ${input.kind}, ${input.state}, ${sha256(token)}, ${input.sessionId ?? null}, ${sql.ref(`${source}.id`)},
          ${JSON.stringify(input.factors ?? [])}, ${JSON.stringify(input.data ?? {})}, ${now}, ${now},
          ${new Date(now.getTime() + input.ttlMs)}, ${input.clientIp ?? null}, ${input.userAgent?.slice(0, 300) ?? null}
        from ${sql.raw(source)}
        returning *`,
    };
  }

  /**
   * `transition` to 'completed' as part of a statement (issue 25: engine.signIn): the journey moves
   * from `from` only when `condition` holds too (the statement's account lock, say), appending
   * `factor` and merging `data`. Returns its `id`, `account_id`, `factors` and the `context` of its
   * data; no row when another call moved it first, or it expired.
   */
  completeFrom(
    journey: { id: StatementValue },
    from: JourneyState,
    change: { factor?: PassedFactor; data?: Record<string, unknown>; condition: RawBuilder<unknown> },
  ): RawBuilder<unknown> {
    const now = this.clock.now();
    return sql`update journeys set state = 'completed', updated_at = ${now}, completed_at = ${now},
        factors = factors || ${JSON.stringify(change.factor ? [change.factor] : [])}::jsonb,
        data = data || ${JSON.stringify(change.data ?? {})}::jsonb
      where id = ${journey.id} and state = ${from} and expires_at > ${now} and ${change.condition}
      returning id, account_id, factors, data->>'context' as context`;
  }

  /**
   * `transition` from 'password' to 'factor' as part of a statement (issue 25: session login), only
   * when `condition` holds too, merging `data`. Returns its `id`; no row when another call moved it
   * first, it expired, or the condition failed.
   */
  factorDueFrom(
    journey: Pick<Journey, 'id'>,
    change: { data?: Record<string, unknown>; condition: RawBuilder<unknown> },
  ): RawBuilder<unknown> {
    const now = this.clock.now();
    return sql`update journeys set state = 'factor', updated_at = ${now},
        data = data || ${JSON.stringify(change.data ?? {})}::jsonb
      where id = ${journey.id} and state = 'password' and expires_at > ${now} and ${change.condition}
      returning id`;
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
    return journey && isLive(journey, this.clock.now()) ? journey : null;
  }

  /**
   * Moves a live journey from one of `from` to `to`, atomically: null when another call moved it
   * first, or it expired. `factor` is appended to the factors passed; `data` merged; `ttlMs` sets a
   * new expiry from now.
   */
  async transition(
    journey: Pick<Journey, 'id'>,
    from: readonly JourneyState[],
    to: JourneyState,
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

  /**
   * Ends the live journeys of an account (of some kinds): a recovery lock, a change of password or
   * proof, a lock of the account. `keep`: the journeys that go on (the request's own), and the
   * step-ups of the session that goes on.
   */
  async endForAccount(
    accountId: string,
    kinds: readonly JourneyKind[],
    keep: { journeyIds?: readonly string[] | undefined; sessionId?: string | undefined } = {},
  ): Promise<number> {
    const now = this.clock.now();
    let query = this.db
      .updateTable('journeys')
      .set({ state: 'ended', updated_at: now, completed_at: now })
      .where('account_id', '=', accountId)
      .where('kind', 'in', [...kinds])
      .where('state', 'not in', [...finalStates]);
    if (keep.journeyIds?.length) query = query.where('id', 'not in', [...keep.journeyIds]);
    const { sessionId } = keep;
    if (sessionId) {
      query = query.where((eb) => eb.or([eb('session_id', 'is', null), eb('session_id', '!=', sessionId)]));
    }
    // The pushes still pending for the journeys that end are withdrawn in the same statement (issue
    // 26): a device no longer lists them, and an answer is refused as withdrawn, never 'approved'.
    const ended = query.returning('id');
    const rows = await this.db
      .with('ended', () => ended)
      .with('withdrawn', (db) =>
        db
          .updateTable('push_transactions')
          .set({ status: 'EXPIRED' })
          .where('journey_id', 'in', db.selectFrom('ended').select('id'))
          .where('status', '=', 'PENDING'),
      )
      .selectFrom('ended')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(rows.n);
  }

  /**
   * A login journey whose push its owner reported as fraud fails (the widget's next poll clears its
   * cookies), whether or not it is still in time.
   */
  async failLoginOnFraud(journeyId: string): Promise<void> {
    const now = this.clock.now();
    await this.db
      .updateTable('journeys')
      .set({ state: 'failed', updated_at: now, completed_at: now })
      .where('id', '=', journeyId)
      .where('kind', '=', 'login')
      .where('state', '=', 'factor')
      .execute();
  }

  /**
   * Uses a confirmed recovery journey once, for the password it resets: of simultaneous calls on
   * one journey exactly one gets true. Run it in the transaction that changes the password.
   */
  async consumeRecovery(journeyId: string): Promise<boolean> {
    const now = this.clock.now();
    const consumed = await this.db
      .updateTable('journeys')
      .set({ state: 'consumed', updated_at: now, completed_at: now })
      .where('id', '=', journeyId)
      .where('kind', '=', 'recovery')
      .where('state', '=', 'confirmed')
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
    return consumed !== undefined;
  }

  /** Deletes the journeys (and their tries) that expired before `before`; how many. */
  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('journeys').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Counts a try of a journey under `counter` (journey_tries), only while its count is under `max`:
   * one statement, so however many tries arrive at once the count is exact and never passes `max`.
   * The try's number (1..max), or undefined when none is left (or the journey is gone).
   */
  async countTry(journeyId: string, counter: string, max: number): Promise<number | undefined> {
    const result = await sql<{ tries: number }>`
      insert into journey_tries (journey_id, counter, tries)
      select id, ${counter}::text, 1 from journeys where id = ${journeyId} and ${max}::int >= 1
      on conflict (journey_id, counter) do update set tries = journey_tries.tries + 1
        where journey_tries.tries < ${max}::int
      returning tries`.execute(this.db);
    const tries = result.rows[0]?.tries;
    return tries === undefined ? undefined : Number(tries);
  }

  /** Gives a counted try back (it was not a guess: a replayed right code, the account's limit). */
  async giveBackTry(journeyId: string, counter: string): Promise<void> {
    await this.db
      .updateTable('journey_tries')
      .set({ tries: sql`greatest(tries - 1, 0)` as never })
      .where('journey_id', '=', journeyId)
      .where('counter', '=', counter)
      .execute();
  }

  /** Starts counts of a journey again from 0 (a resync succeeded). */
  async clearTries(journeyId: string, counters: readonly string[]): Promise<void> {
    if (counters.length === 0) return;
    await this.db
      .deleteFrom('journey_tries')
      .where('journey_id', '=', journeyId)
      .where('counter', 'in', [...counters])
      .execute();
  }

  /** Ends the live journey of a kind bound to a browser token, if any. */
  async endByToken(
    kind: JourneyKind,
    token: string | undefined,
    state: JourneyState = 'ended',
  ): Promise<void> {
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
   * `touch` of a login journey as part of a statement (decision 057: the code check that reads its
   * journey), only where `condition` holds too: not when the statement completes the journey, which
   * would be a second change of its row.
   */
  touchFrom(journeyId: StatementValue, condition: RawBuilder<boolean>): RawBuilder<unknown> {
    const now = this.clock.now();
    return sql`update journeys set updated_at = ${now}, expires_at = ${loginExpiry(now, this.config)}
      where id = ${journeyId} and updated_at <= ${new Date(now.getTime() - TOUCH_AFTER_MS)}
        and state not in (${sql.join([...finalStates])}) and expires_at > ${now} and ${condition}`;
  }

  /**
   * Records activity on a login or step-up journey: its expiry moves LOGIN_FLOW_MINUTES ahead, never
   * past `limit` (default: the absolute session limit counted from its start; a step-up passes its
   * session's absolute limit).
   */
  async touch(journey: Journey, limit?: Date): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - new Date(journey.updated_at).getTime() < TOUCH_AFTER_MS) return;
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
