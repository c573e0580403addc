import { availableParallelism } from 'node:os';
import { catalogs } from '@gatehouse/i18n/vite';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { uiFiles, uiFilesThatMock, uiSetup } from './test/ui-projects.ts';

/**
 * One runner, five projects: unit (node), ui and ui-mocks (jsdom, Testing Library; decision 054),
 * api (HTTP against a real database) and e2e (real Chromium against the built apps).
 *
 * Files of every project run in parallel, one per worker: each API file works in databases of its
 * own (a PGlite copy, a PostgreSQL schema), each end-to-end file starts its own server on a free
 * port with its own copy of the run's seeded database and its own Chromium. Two workers on these
 * 2-core machines, one per core where there are more.
 */
export default defineConfig({
  plugins: [catalogs(), react()],
  test: {
    maxWorkers: Math.max(2, availableParallelism()),
    // The default report, then where the time went (each project, the ten slowest files).
    reporters: ['default', './test/timing-reporter.ts'],
    // A test that asserts nothing fails: it proves nothing.
    expect: { requireAssertions: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/contract/**/*.test.ts',
            'packages/i18n/**/*.test.ts',
            'apps/identity/src/**/*.test.ts',
            'bench/**/*.test.ts',
            'test/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: uiFiles,
          exclude: [...configDefaults.exclude, ...uiFilesThatMock],
          setupFiles: uiSetup,
          // The files of a worker share one module graph (no fresh import of React, the widget and
          // the catalogs per file): the environment and setup of each file cost 2.5 times the
          // tests themselves (decision 054). Each test renders into a clean document (the setup
          // files' cleanup).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Files that replace a module (vi.mock) need a module graph of their own: a module an
          // earlier file imported would keep the real one.
          name: 'ui-mocks',
          environment: 'jsdom',
          include: uiFilesThatMock,
          setupFiles: uiSetup,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['apps/identity/test/**/*.test.ts'],
          // The files of a worker share one module graph: each imported the whole service again
          // (decision 056). Each file still works in databases of its own.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['./e2e/support/global-setup.ts'],
          // The files of a worker share one module graph, as the API files do (decision 056): each
          // file still starts its own server, database and Chromium.
          isolate: false,
          // A browser's page on a loaded 2-core machine can take seconds: a poll waits up to 10 s
          // for what a person would see arrive (the default, 1 s, failed a device-risk test when the
          // machine ran the whole suite at twice its usual time).
          expect: { requireAssertions: true, poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
