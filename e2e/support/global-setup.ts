import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { checkCoverage } from './axe-coverage.ts';
import { serverEnv } from './env.ts';
import { makeSeededDump, removeDump, seededDumpPath } from './seeded-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's migrated and seeded PGlite dump, copied by each end-to-end file's server. */
    seededDatabase: string;
    /** Where each e2e file records the screens its axe scans covered (axe-coverage.ts). */
    axeCoverageDir: string;
  }
}

/** Once per run, before any end-to-end file: the seeded database every file copies. */
export default async function setup(project: TestProject) {
  const file = seededDumpPath();
  const started = performance.now();
  await makeSeededDump(file, serverEnv({ LOG_LEVEL: 'warn' }));
  console.log(`e2e: seeded database made once for the run in ${Math.round(performance.now() - started)} ms`);
  project.provide('seededDatabase', file);
  const coverage = mkdtempSync(join(tmpdir(), 'gatehouse-axe-'));
  project.provide('axeCoverageDir', coverage);
  return () => {
    removeDump(file);
    try {
      // Every worker is done here: the files of all of them are counted.
      checkCoverage(coverage, join(dirname(fileURLToPath(import.meta.url)), '..'));
    } catch (error) {
      // Vitest reports an error thrown here but still exits 0: the run fails by its exit code.
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    } finally {
      rmSync(coverage, { recursive: true, force: true });
    }
  };
}
