import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';

/**
 * One schema for PGlite and PostgreSQL. Migrations are code, one file per migration, run in order
 * of their names (`NNN_what.ts`) at start and by `npm run migrate`; Kysely's migrator takes a
 * lock, so concurrent starts are safe.
 *
 * A migration lives with the code that owns its tables: the foundation's in `db/migrations/`, a
 * domain's or a factor's in a `migrations/` folder of its own module. They are found by walking
 * the source tree, so adding one is adding its file. Names are unique across the tree.
 */
const sourceRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every migration file under the source tree, in the order they run. */
export function migrationFiles(root: string = sourceRoot): string[] {
  const found: string[] = [];
  const walk = (dir: string, inMigrations: boolean) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, entry.name === 'migrations');
      else if (inMigrations && /^\d{3}_[a-z0-9_]+\.ts$/.test(entry.name)) found.push(path);
    }
  };
  walk(root, false);
  const byName = new Map<string, string>();
  for (const file of found) {
    const name = basename(file, '.ts');
    const other = byName.get(name);
    if (other) throw new Error(`Two migrations are named ${name}: ${other} and ${file}`);
    byName.set(name, file);
  }
  return [...byName.keys()].sort().map((name) => byName.get(name) as string);
}

/** The migrations' source, for a cache key (the tests' migrated template database). */
export function migrationSources(): string {
  return migrationFiles()
    .map((file) => `${basename(file)}\n${readFileSync(file, 'utf8')}`)
    .join('\n');
}

const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const file of migrationFiles()) {
      const module = (await import(pathToFileURL(file).href)) as Migration;
      if (typeof module.up !== 'function') throw new Error(`${file} exports no up() function`);
      migrations[basename(file, '.ts')] = module;
    }
    return migrations;
  },
};

export async function migrate(db: Kysely<unknown>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: a
  // kysely_migration table of another schema (another application, a parallel test run) would
  // count as ours. Pin them to the schema our tables go to (search_path's first, usually public).
  const current = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = current.rows[0]?.schema ?? undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // Kysely's introspection reads the tables of every schema; a table or schema another client
    // drops while it reads (another application, a parallel test run) fails it with 42P01 or
    // 3F000 naming that one. Nothing of ours was written then: the lock and the migrations come
    // after it. Read again.
    if (attempt < 5 && droppedUnderIntrospection(error, schema)) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * An undefined-table or -schema error about another schema: another client's drop, not ours. Or a
 * column of a table vanishing while the introspection read it (42703, which names no schema): a
 * schema dropped whole meanwhile (a parallel test run's); nothing drops a column of ours under a
 * migration, which holds the lock.
 */
export function droppedUnderIntrospection(error: unknown, schema: string | undefined): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.message !== 'string') return false;
  if (e.code === '42703' && /^column "[^"]+" of relation "[^"]+" does not exist$/.test(e.message))
    return true;
  const named =
    e.code === '42P01'
      ? /relation "([^".]+)\./.exec(e.message)?.[1]
      : e.code === '3F000'
        ? /schema "([^"]+)" does not exist/.exec(e.message)?.[1]
        : undefined;
  return named !== undefined && named !== schema;
}
