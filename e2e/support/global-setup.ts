import type { TestProject } from 'vitest/node';
import { serverEnv } from './env.ts';
import { makeSeededDump, removeDump, seededDumpPath } from './seeded-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's migrated and seeded PGlite dump, copied by each end-to-end file's server. */
    seededDatabase: string;
  }
}

/** Once per run, before any end-to-end file: the seeded database every file copies. */
export default async function setup(project: TestProject) {
  const file = seededDumpPath();
  const started = performance.now();
  await makeSeededDump(file, serverEnv({ LOG_LEVEL: 'warn' }));
  console.log(`e2e: seeded database made once for the run in ${Math.round(performance.now() - started)} ms`);
  project.provide('seededDatabase', file);
  return () => removeDump(file);
}
