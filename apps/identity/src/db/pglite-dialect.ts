import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { classifyDatabaseError } from './faults.ts';

/**
 * Kysely dialect for the embedded PGlite database. PGlite is one connection, so the driver
 * hands it to one holder at a time: a transaction owns it from BEGIN to COMMIT and no other
 * query interleaves (kysely-pglite's driver does not serialize, see docs/decisions/003).
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/**
 * The PGlite transaction trap (docs/decisions/003): inside `db.transaction().execute(cb)` the
 * transaction holds the one connection, so a query on the outer handle `db` (instead of `tx`) waits
 * for the transaction that waits for it: a deadlock, silent until a timeout. The callback runs in
 * this scope, and the driver refuses an acquisition made inside it at once, with a message naming
 * the mistake. Other requests' queries are outside the scope and wait their turn as before.
 */
const inTransaction = new AsyncLocalStorage<true>();

export class OuterHandleInTransaction extends Error {
  constructor() {
    super(
      'The outer database handle was used inside a transaction: use the transaction handle (tx). ' +
        'On PGlite this deadlocks; on PostgreSQL it runs outside the transaction.',
    );
    this.name = 'OuterHandleInTransaction';
  }
}

/** A Kysely instance on PGlite whose transactions refuse the outer handle inside them. */
export function pgliteKysely<DB>(client: PGlite): Kysely<DB> {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  const transaction = db.transaction.bind(db);
  db.transaction = () => {
    const builder = transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = (callback) => execute((tx) => inTransaction.run(true, () => callback(tx)));
    return builder;
  };
  return db;
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  private release: (() => void) | undefined;

  constructor(private readonly client: PGlite) {
    this.connection = new PGliteConnection(client);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    if (inTransaction.getStore()) throw new OuterHandleInTransaction();
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async releaseConnection() {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
  async destroy() {
    await this.queue;
    await this.client.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    let result: Awaited<ReturnType<typeof this.client.query<R>>>;
    try {
      result = await this.client.query<R>(compiled.sql, [...compiled.parameters]);
    } catch (error) {
      // PGlite's errors carry the query and its parameters: classified, they carry neither.
      throw classifyDatabaseError(error);
    }
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }
  // biome-ignore lint/correctness/useYield: PGlite cannot stream; the method exists for the interface.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results.');
  }
}
