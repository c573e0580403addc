import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp, type Database, type DB, loadConfig, pgliteKysely, TestClock } from '@gatehouse/identity';

/**
 * One database per run, made once and copied into every end-to-end file: migrated and seeded with
 * the demo accounts and staff exactly as `npm start` seeds them (the service itself does it, through
 * buildApp), then dumped with PGlite's dumpDataDir. A file loads the dump instead of running initdb,
 * the migrations and the seeding again (about 7 s each on these machines).
 */
export async function makeSeededDump(file: string, env: Record<string, string>): Promise<void> {
  const client = await PGlite.create();
  const db = pgliteKysely<Database>(client);
  const { app } = await buildApp({ config: loadConfig(env), db, clock: new TestClock() });
  await app.close();
  const dump = await client.dumpDataDir('none');
  await db.destroy();
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
}

/** A private copy of the run's seeded database (the test process's own, in memory). */
export async function openSeededCopy(file: string): Promise<DB> {
  if (!existsSync(file))
    throw new Error(`the run's seeded database ${file} is missing (e2e/support/global-setup.ts makes it)`);
  const client = await PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  return pgliteKysely<Database>(client);
}

export const seededDumpPath = () => join(tmpdir(), `gatehouse-e2e-${process.pid}-${Date.now()}.tar`);
export const removeDump = (file: string) => rmSync(file, { force: true });
