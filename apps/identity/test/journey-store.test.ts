import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { describe, expect, test } from 'vitest';
import type { DB } from '../src/db/database.ts';
import { migrationFiles } from '../src/db/migrations.ts';
import { pgliteKysely } from '../src/db/pglite-dialect.ts';
import type { JourneyKind, JourneyState } from '../src/db/schema.ts';
import {
  appAccount,
  appClock,
  tokenAccount,
  tokenCheck,
  totpCheck,
  WIDE_LIMITS,
  wrongOf,
} from './support/app-codes.ts';
import { atFactor } from './support/factors.ts';
import { code, expectFailureEnvelope, liveSessionCount, targets, useHarness } from './support/harness.ts';

/**
 * Journeys through their store (issue 24 point 3; docs/decisions/037): a step and the audit rows
 * that record it commit together or not at all; try counts are rows of journey_tries, moved out of
 * the journey's data by migration 028; the database refuses a kind, a state or a count outside the
 * store's vocabulary (029).
 *
 * The fault is review-round3's: a trigger on audit_events fails the one insert aimed at with
 * SQLSTATE 57P03, which the service answers as the database being away (503/5003).
 */

async function failAudit(db: DB, event: string) {
  await sql
    .raw(`create or replace function journey_fault() returns trigger language plpgsql as $$
      begin
        if new.event = '${event}' and new.outcome = 'success' then
          raise exception 'injected fault' using errcode = '57P03';
        end if;
        return new;
      end $$`)
    .execute(db);
  await sql`drop trigger if exists journey_fault on audit_events`.execute(db);
  await sql`create trigger journey_fault before insert on audit_events
    for each row execute function journey_fault()`.execute(db);
}
const healAudit = (db: DB) => sql`drop trigger if exists journey_fault on audit_events`.execute(db);
const expectUnavailable = (response: LightMyRequestResponse) => expectFailureEnvelope(response, 503, 5003);

describe.each(targets)('journeys through their store ($name)', (target) => {
  const h = useHarness(target);
  const { codeOf, nextStep } = appClock(h);

  const journeysOf = (accountId: string, kind: JourneyKind) =>
    h.db
      .selectFrom('journeys')
      .select(['id', 'state', 'factors', 'data', 'completed_at'])
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .execute();
  const sessionsOf = (accountId: string) =>
    h.db
      .selectFrom('sessions')
      .select(['id', 'ended_at'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  const events = async (accountId: string, event: string) =>
    (
      await h.db
        .selectFrom('audit_events')
        .select('detail')
        .where('account_id', '=', accountId)
        .where('event', '=', event)
        .execute()
    )
      .map((r) => r.detail)
      // The password step records its own 'factor-passed' row.
      .filter((detail) => detail.factor !== 'password');

  test.each(['factor-passed', 'sign-in'])(
    'a sign-in cut by a database fault at its %s audit row leaves no session and the journey at its factor; the database back, the same journey signs in once',
    async (event) => {
      const { app, ctx } = await h.start(WIDE_LIMITS);
      const { account, secret } = await appAccount(ctx, `cutin${event.length}`);
      const browser = await atFactor(app, `cutin${event.length}`);
      nextStep();
      await failAudit(h.db, event);
      try {
        expectUnavailable(await totpCheck(browser, codeOf(secret)));
      } finally {
        await healAudit(h.db);
      }
      expect(await sessionsOf(account.id)).toEqual([]);
      const [journey] = await journeysOf(account.id, 'login');
      expect(journey).toMatchObject({ state: 'factor', completed_at: null });
      expect(journey!.factors.map((f) => f.kind)).toEqual(['password']);
      expect(await events(account.id, 'factor-passed')).toEqual([]);
      expect(await events(account.id, 'sign-in')).toEqual([]);

      nextStep();
      const again = await totpCheck(browser, codeOf(secret));
      expect(code(again), again.body).toBe(1200);
      expect(await liveSessionCount(h.db, account.id)).toBe(1);
      expect((await journeysOf(account.id, 'login')).map((j) => j.state)).toEqual(['completed']);
      expect(await events(account.id, 'factor-passed')).toEqual([{ factor: 'TOTPAUTHN', journey: 'login' }]);
      expect(await events(account.id, 'sign-in')).toEqual([{ factors: 'password TOTPAUTHN' }]);
    },
  );

  test.each(['factor-passed', 'step-up'])(
    'a step-up cut by a database fault at its %s audit row leaves the session unrotated and the step-up open; the database back, it completes once',
    async (event) => {
      const { app, ctx } = await h.start(WIDE_LIMITS);
      const { account, secret } = await appAccount(ctx, `cutup${event.length}`);
      const browser = await atFactor(app, `cutup${event.length}`);
      nextStep();
      expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
      const signedIn = await sessionsOf(account.id);
      expect(signedIn).toHaveLength(1);

      nextStep();
      await failAudit(h.db, event);
      try {
        expectUnavailable(await totpCheck(browser, codeOf(secret)));
      } finally {
        await healAudit(h.db);
      }
      expect(await sessionsOf(account.id)).toEqual(signedIn);
      expect((await journeysOf(account.id, 'stepup')).map((j) => j.state)).toEqual(['factor']);
      expect(await events(account.id, 'step-up')).toEqual([]);
      expect(await events(account.id, 'factor-passed')).toEqual([{ factor: 'TOTPAUTHN', journey: 'login' }]);

      // The same browser, on the session it had, steps up with the next code.
      nextStep();
      const again = await totpCheck(browser, codeOf(secret));
      expect(code(again), again.body).toBe(1200);
      const after = await sessionsOf(account.id);
      expect(after).toHaveLength(2);
      expect(after.find((s) => s.id === signedIn[0]!.id)!.ended_at).not.toBeNull();
      expect(await liveSessionCount(h.db, account.id)).toBe(1);
      expect((await journeysOf(account.id, 'stepup')).map((j) => j.state)).toEqual(['completed']);
      expect(await events(account.id, 'step-up')).toEqual([{ factor: 'TOTPAUTHN' }]);
    },
  );

  test("the token's wrong codes are a typed count of the journey, never its data", async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    const { account, secret, credentialId } = await tokenAccount(ctx, 'tokcount01');
    const browser = await atFactor(app, 'tokcount01');
    expect(code(await tokenCheck(browser, credentialId, wrongOf(codeOf(secret))))).toBe(1428);
    const [journey] = await journeysOf(account.id, 'login');
    const tries = await h.db
      .selectFrom('journey_tries')
      .select(['counter', 'tries'])
      .where('journey_id', '=', journey!.id)
      .execute();
    expect(tries).toEqual([{ counter: 'token-wrong', tries: 1 }]);
    expect(Object.keys(journey!.data).filter((k) => /token/i.test(k))).toEqual([]);
  });

  test('the database refuses a journey of an unknown kind or state, and a count below 0', async () => {
    const now = new Date();
    // Values the types refuse too: the database is the last word.
    const journey = (kind: string, state: string) =>
      h.db
        .insertInto('journeys')
        .values({
          kind: kind as JourneyKind,
          state: state as JourneyState,
          account_id: null,
          created_at: now,
          updated_at: now,
          expires_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    await expect(journey('signup', 'password')).rejects.toMatchObject({ code: '23514' });
    await expect(journey('stepup', 'password')).rejects.toMatchObject({ code: '23514' });
    await expect(journey('recovery', 'completed')).rejects.toMatchObject({ code: '23514' });
    await expect(journey('login', 'Completed')).rejects.toMatchObject({ code: '23514' });
    const { id } = await journey('recovery', 'identified');
    await expect(
      h.db
        .insertInto('journey_tries')
        .values({ journey_id: id, counter: 'token-wrong', tries: -1 })
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    await h.db.deleteFrom('journeys').where('id', '=', id).execute();
  });
});

describe('migration 028 moves the journeys counts in flight', () => {
  test("a journey's tokenWrong and tokenSyncWrong become its journey_tries rows and leave its data", async () => {
    const client = await PGlite.create();
    const db = pgliteKysely<unknown>(client) as Kysely<unknown>;
    try {
      const migrations: Record<string, Migration> = {};
      for (const file of migrationFiles()) {
        migrations[basename(file, '.ts')] = (await import(pathToFileURL(file).href)) as Migration;
      }
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const before = Object.keys(migrations).filter((name) => name < '028');
      expect((await migrator.migrateTo(before.at(-1)!)).error).toBeUndefined();
      await sql`insert into journeys (kind, state, data, created_at, updated_at, expires_at) values
        ('login', 'factor', '{"context":"ctx1","tokenWrong":2,"tokenSyncWrong":1}', now(), now(), now()),
        ('login', 'factor', '{"context":"ctx2"}', now(), now(), now())`.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await sql<{
        context: string;
        data: Record<string, unknown>;
        counts: Record<string, number> | null;
      }>`
        select j.data->>'context' as context, j.data,
          (select jsonb_object_agg(t.counter, t.tries) from journey_tries t where t.journey_id = j.id) as counts
        from journeys j order by context`.execute(db);
      expect(rows.rows).toEqual([
        { context: 'ctx1', data: { context: 'ctx1' }, counts: { 'token-wrong': 2, 'token-sync-wrong': 1 } },
        { context: 'ctx2', data: { context: 'ctx2' }, counts: null },
      ]);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
