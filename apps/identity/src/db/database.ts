import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, type RawBuilder } from 'kysely';
import pg from 'pg';
import { classifyDatabaseError, DatabaseUnavailable, databaseErrorFields, isUnavailable } from './faults.ts';
import { pgliteKysely } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

/**
 * A value of a statement: a parameter, or SQL over the statement's own rows (decision 057: a code
 * check that reads its journey names the account and the journey from that read).
 */
export type StatementValue = string | RawBuilder<string>;

/**
 * PostgreSQL pool size and timeouts (config.database); each has the default of its setting, and a
 * statement or query timeout of 0 means none (`npm run migrate`).
 */
export type PostgresOptions = {
  poolMax?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  queryTimeoutMs?: number;
  /** Named prepared statements (default on; docs/decisions/042-prepared-statements.md). */
  prepared?: boolean;
};

/** Where a fault of an idle connection is reported: its code and message only. */
export type DatabaseLog = (
  fields: { errorCode: string | undefined; message: string },
  message: string,
) => void;

export type DatabaseTarget =
  | ({ kind: 'postgres'; url: string; log?: DatabaseLog } & PostgresOptions)
  | { kind: 'pglite'; dir: string | null /* null: in memory */ };

const defaultLog: DatabaseLog = (fields, message) => {
  console.error(JSON.stringify({ level: 50, msg: message, db: fields }));
};

/**
 * The database of a command-line task (`npm run migrate`, `npm run credentials:rotate`): the
 * configured one, without statement or query timeouts (a task may run longer than a request).
 */
export function openForTask(config: {
  databaseUrl?: string | undefined;
  database: PostgresOptions;
  dataDir: string;
}): Promise<DB> {
  return openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          ...config.database,
          statementTimeoutMs: 0,
          queryTimeoutMs: 0,
        }
      : { kind: 'pglite', dir: config.dataDir },
  );
}

/** Opens the database: PostgreSQL through DATABASE_URL, else PGlite under the data folder. */
export async function openDatabase(target: DatabaseTarget): Promise<DB> {
  if (target.kind === 'postgres') {
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool: guardedPool(target) }) });
  }
  let client: PGlite;
  if (target.dir) {
    const dir = resolve(target.dir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await PGlite.create();
  }
  return pgliteKysely<Database>(client);
}

/**
 * Statements run as named prepared statements (docs/decisions/042-prepared-statements.md): the name
 * is a digest of the SQL text, so the same query shape gets the same name on every connection, and
 * node-postgres sends Parse only the first time a connection sees it (it remembers the names each
 * connection has prepared); after that a call is Bind and Execute, and PostgreSQL neither parses
 * nor analyses it again. Only data statements are prepared (a migration's DDL, BEGIN and COMMIT are
 * not), and at most MAX_PREPARED shapes per process: a query whose text varies with its input (an
 * IN list of a new length) cannot fill the server's memory, it runs unprepared once the budget is
 * spent.
 */
const MAX_PREPARED = 2000;
const prepared = new Map<string, string>();
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
export function statementName(sql: string): string | undefined {
  const known = prepared.get(sql);
  if (known !== undefined) return known;
  if (prepared.size >= MAX_PREPARED || !DATA_STATEMENT.test(sql)) return undefined;
  const name = `gh_${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;
  prepared.set(sql, name);
  return name;
}

/**
 * Runs a named prepared statement. A query config object (`{ name, text, values }`) is copied by
 * node-postgres on every call with Object.getOwnPropertyDescriptors (about 10 µs of the remember
 * GET's CPU, issue 25); a Query built from the text is not copied, and gets its name before it is
 * submitted. The client's query timeout applies to it as to any other query.
 */
function namedQuery(
  client: pg.PoolClient,
  name: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new pg.Query(text, values, (error, result) =>
      error ? reject(error) : resolve(result as unknown as pg.QueryResult),
    ) as pg.Query & { name?: string };
    query.name = name;
    client.query(query);
  });
}

/**
 * The pg pool behind Kysely, made safe for a database that restarts, resets or stops answering:
 *
 * - every client has an 'error' listener from birth (pg emits 'error' on a client whose socket
 *   fails, idle in the pool or checked out between queries; without a listener the process exits),
 *   and the pool has one for idle clients;
 * - connect (`connectionTimeoutMillis`), statement (`statement_timeout`, server side) and query
 *   (`query_timeout`, client side: a database that accepts but never answers) timeouts;
 * - every error is classified (faults.ts): the caller sees DatabaseUnavailable (503, 5003) or a
 *   sanitized SQL error, never the pg error with its client;
 * - a client whose query failed for unavailability is destroyed on release, not reused (after a
 *   query timeout its connection still waits for the lost answer).
 */
function guardedPool(target: { url: string; log?: DatabaseLog } & PostgresOptions): PostgresPool {
  const log = target.log ?? defaultLog;
  const prepare = target.prepared !== false;
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolMax ?? 10,
    connectionTimeoutMillis: target.connectTimeoutMs ?? 5000,
    statement_timeout: target.statementTimeoutMs ?? 10_000,
    query_timeout: target.queryTimeoutMs ?? 15_000,
    keepAlive: true,
  });
  pool.on('error', (error) => log(databaseErrorFields(error), 'database connection lost (idle)'));
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      // Idle clients are also reported by the pool's listener above; log checked-out ones here.
      if (client.listenerCount('error') === 1) log(databaseErrorFields(error), 'database connection lost');
    });
  });

  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const broken = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw classifyDatabaseError(error);
      }
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        const c = client;
        wrapper = {
          query: (async (sql: string, parameters: unknown[]) => {
            // A client that failed stays failed: the rest of its transaction (a rollback) fails
            // at once instead of waiting for another timeout.
            if (broken.has(c)) throw new DatabaseUnavailable(undefined, 'connection discarded after a fault');
            try {
              const name = prepare ? statementName(sql) : undefined;
              return await (name ? namedQuery(c, name, sql, parameters) : c.query(sql, parameters));
            } catch (error) {
              if (isUnavailable(error)) broken.add(c);
              throw classifyDatabaseError(error);
            }
          }) as unknown as PostgresPoolClient['query'],
          release(destroy?: boolean) {
            if (broken.has(c)) {
              broken.delete(c);
              c.release(true);
            } else c.release(destroy);
          },
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}
