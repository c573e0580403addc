import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dir: string | null /* null: in memory */ };

/** Opens the database: PostgreSQL through DATABASE_URL, else PGlite under the data folder. */
export async function openDatabase(target: DatabaseTarget): Promise<DB> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  let client: PGlite;
  if (target.dir) {
    const dir = resolve(target.dir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await PGlite.create();
  }
  return new Kysely<Database>({ dialect: new PGliteDialect(client) });
}
