import { paths } from '@gatehouse/contract';
import { type KyselyPlugin, PostgresQueryCompiler, sql } from 'kysely';
import pg from 'pg';
import { beforeEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { compiledQuery } from '../src/db/compiled.ts';
import { type DB, openDatabase } from '../src/db/database.ts';
import { journeyColumns } from '../src/journeys/store.ts';
import { sessionColumns } from '../src/services/sessions.ts';
import { check, contacts, factorAccount, latestMessage, PASSWORD, sendSms } from './support/factors.ts';
import {
  api,
  baseEnv,
  Client,
  code,
  createAccount,
  postgresUrl,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Issue 25: what a sign-in costs the database. Every statement the service runs passes through a
 * recorder (a Kysely plugin: on PGlite and PostgreSQL alike), and on PostgreSQL node-postgres's own
 * protocol messages are counted too (Parse, Execute, simple Query). A complete password-only
 * sign-in runs at most 5 statements and no BEGIN or COMMIT, and a second one parses none
 * (docs/decisions/042-prepared-statements.md).
 */
const PASSWORD_ONLY_BUDGET = 5;
/**
 * A sign-in with a text code, as the widget goes (password, session login, contacts, send, check,
 * session login again): at most 8 statements of the service's own (issue 25; decision 057). The
 * development text gateway's insert into the outbox is the SMS gateway's part (a production
 * instance calls the gateway over HTTP instead), so it is counted apart.
 */
const WITH_A_CODE_BUDGET = 8;

const compiler = new PostgresQueryCompiler();
/** Records the SQL of every statement run through `db.withPlugin(recorder.plugin)`. */
function statementRecorder() {
  const statements: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      statements.push(compiler.compileQuery(args.node, args.queryId).sql);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { plugin, statements };
}

/** Protocol messages node-postgres sends (PostgreSQL only): Parse, Execute and simple Query. */
const protocol = { parse: 0, execute: 0, query: 0 };
type Sender = (...args: unknown[]) => unknown;
const connection = (
  pg as unknown as { Connection: { prototype: Record<'parse' | 'execute' | 'query', Sender> } }
).Connection.prototype;
for (const name of ['parse', 'execute', 'query'] as const) {
  const send = connection[name];
  connection[name] = function (this: unknown, ...args: unknown[]) {
    protocol[name] += 1;
    return send.apply(this, args);
  };
}
const resetProtocol = () => Object.assign(protocol, { parse: 0, execute: 0, query: 0 });
beforeEach(resetProtocol);

describe.each(targets)('statements per sign-in ($name)', (target) => {
  const h = useHarness(target);

  test(`a complete password-only sign-in runs at most ${PASSWORD_ONLY_BUDGET} statements; a second one parses none`, async () => {
    const recorder = statementRecorder();
    const { app, ctx } = await h.start({}, { db: h.db.withPlugin(recorder.plugin) });
    await createAccount(ctx, { username: 'counted01', password: PASSWORD });
    await createAccount(ctx, { username: 'counted02', password: PASSWORD });
    const signIn = async (username: string) => {
      const client = new Client(app);
      // The browser's first call hands out its CSRF token; it reads nothing.
      await client.get(api(paths.health));
      recorder.statements.length = 0;
      resetProtocol();
      expect(code(await client.signInPassword(username, PASSWORD))).toBe(1200);
      expect(code(await client.sessionLogin())).toBe(1200);
      return { statements: [...recorder.statements], protocol: { ...protocol } };
    };
    const first = await signIn('counted01');
    expect(first.statements.length, first.statements.join('\n')).toBeLessThanOrEqual(PASSWORD_ONLY_BUDGET);
    const second = await signIn('counted02');
    expect(second.statements).toEqual(first.statements);
    if (target.name === 'postgres') {
      // At the protocol: one Execute per statement, no BEGIN or COMMIT, and nothing parsed again.
      expect(second.protocol).toEqual({ parse: 0, execute: second.statements.length, query: 0 });
    }
  });

  test(`a sign-in with a text code runs no more than ${WITH_A_CODE_BUDGET} statements of the service's`, async () => {
    const recorder = statementRecorder();
    const { app, ctx } = await h.start({}, { db: h.db.withPlugin(recorder.plugin) });
    await factorAccount(ctx, 'counted03', { phones: [{ value: '2025550143' }] });
    const client = new Client(app);
    await client.get(api(paths.health));
    recorder.statements.length = 0;
    expect(code(await client.signInPassword('counted03', PASSWORD))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1201);
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const counted = recorder.statements.length;
    const sent = await latestMessage(h.db, '+12025550143');
    recorder.statements.length = counted;
    expect(code(await check(client, 'sms', sent.code!))).toBe(1200);
    // The widget then continues the journey: session login, signed in (useContinueJourney).
    expect(code(await client.sessionLogin())).toBe(1200);
    const gateway = recorder.statements.filter((q) => /^insert into "outbox"/.test(q));
    const own = recorder.statements.filter((q) => !gateway.includes(q));
    expect(gateway).toHaveLength(1);
    expect(own.length, own.join('\n')).toBeLessThanOrEqual(WITH_A_CODE_BUDGET);
  });

  test.runIf(target.name === 'postgres')(
    'DB_PREPARED_STATEMENTS=off: every statement is parsed again, unnamed (a pooler that cannot keep them)',
    async () => {
      const config = loadConfig({ ...baseEnv, DATABASE_URL: postgresUrl!, DB_PREPARED_STATEMENTS: 'off' });
      expect(config.database.prepared).toBe(false);
      for (const prepared of [true, false]) {
        const db = await openDatabase({ kind: 'postgres', url: postgresUrl!, ...config.database, prepared });
        try {
          resetProtocol();
          for (let i = 0; i < 3; i++) {
            await sql`select ${i}::int as n, ${prepared} as prepared`.execute(db);
          }
          // Prepared: parsed once on the connection; off: once per statement.
          expect(protocol, String(prepared)).toEqual({ parse: prepared ? 1 : 3, execute: 3, query: 0 });
        } finally {
          await db.destroy();
        }
      }
    },
  );

  test('a hot read compiled once (the remember GET) is seen by the recorder, once per call, with its values', async () => {
    const recorder = statementRecorder();
    const { app } = await h.start({}, { db: h.db.withPlugin(recorder.plugin) });
    const client = new Client(app);
    await client.get(api(paths.health));
    recorder.statements.length = 0;
    for (let i = 0; i < 3; i++) expect(code(await client.get(api(paths.rememberUsername)))).toBe(1200);
    expect(recorder.statements).toHaveLength(3);
    expect(new Set(recorder.statements).size).toBe(1);
    expect(recorder.statements[0]).toMatch(/from "remembered_usernames" as "r"/);
  });

  test("a compiled query runs with each call's values, and refuses a value it would inline", async () => {
    const { ctx } = await h.start();
    await createAccount(ctx, { username: 'compiled01', password: PASSWORD });
    const byName = compiledQuery((db: DB, username: string) =>
      db.selectFrom('accounts').select('username').where('username', '=', username),
    );
    for (const name of ['compiled01', 'nobody0001', 'compiled01']) {
      const { rows } = await byName(h.db, name);
      expect(rows.map((r) => r.username)).toEqual(name === 'compiled01' ? ['compiled01'] : []);
    }
    const inlined = compiledQuery((db: DB, limit: string) =>
      db.selectFrom('accounts').select('username').where(sql.lit(limit), '=', 'x'),
    );
    await expect(inlined(h.db, 'a')).rejects.toThrow(/every parameter must be bound/);
  });

  test.each([
    ['journeys', journeyColumns],
    ['sessions', sessionColumns],
  ] as const)('the %s columns read with an account are every column of the table', async (table, columns) => {
    const { rows } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_name = ${table} and table_schema = current_schema()`.execute(h.db);
    expect(rows.map((r) => r.column_name).sort()).toEqual([...columns].sort());
  });
});
