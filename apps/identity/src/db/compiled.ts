import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { DB } from './database.ts';

/**
 * A hot statement built and compiled once per database instead of on every call
 * (docs/decisions/052-compiled-hot-reads.md). Building a query with Kysely's builder and compiling
 * it cost the remember GET about 50 µs of its ~300 µs (issue 25); the SQL text it produces never
 * changes, only the parameters do.
 *
 * `build` is called once with a marker string in place of each parameter; the compiled query's
 * parameters must be exactly those markers (each value bound as a parameter, never inlined in the
 * SQL). A call then runs the same SQL text (the same string, so the prepared statement's name is
 * found at once) with the call's values in the markers' places.
 *
 * A database with Kysely plugins (a test's statement recorder) takes the builder's path on every
 * call, exactly as before: its plugins see and may transform every statement.
 */
export function compiledQuery<P extends readonly unknown[], R>(
  build: (db: DB, ...params: { [K in keyof P]: P[K] }) => Compilable<R>,
): (db: DB, ...params: P) => Promise<QueryResult<R>> {
  const cache = new WeakMap<object, { query: CompiledQuery<R>; order: number[] }>();
  const compile = (db: DB, arity: number) => {
    const markers = Array.from({ length: arity }, (_, i) => `\u0000gatehouse-parameter-${i}\u0000`);
    const query = build(db, ...(markers as unknown as { [K in keyof P]: P[K] })).compile();
    const order = query.parameters.map((value) => markers.indexOf(value as string));
    if (
      order.some((index) => index < 0) ||
      new Set(order).size !== arity ||
      markers.some((marker) => query.sql.includes(marker))
    ) {
      throw new Error(`compiledQuery: every parameter must be bound exactly once (${query.sql})`);
    }
    const entry = { query, order };
    cache.set(db.getExecutor(), entry);
    return entry;
  };
  return async (db, ...params) => {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) {
      return db.executeQuery(build(db, ...(params as unknown as { [K in keyof P]: P[K] })));
    }
    const { query, order } = cache.get(executor) ?? compile(db, params.length);
    const parameters = order.map((index) => params[index]);
    return db.executeQuery<R>({ query: query.query, queryId: query.queryId, sql: query.sql, parameters });
  };
}
