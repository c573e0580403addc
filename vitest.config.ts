import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { catalogs } from './packages/i18n/src/vite.ts';

/**
 * One runner, four projects: unit (node), ui (jsdom, Testing Library), api (HTTP against a real
 * database) and e2e (real Chromium against the built apps).
 */
export default defineConfig({
  plugins: [catalogs(), react()],
  test: {
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
          include: [
            'packages/ui/**/*.test.tsx',
            'packages/signin/**/*.test.{ts,tsx}',
            'apps/portal/**/*.test.{ts,tsx}',
            'apps/device/**/*.test.{ts,tsx}',
            'apps/console/**/*.test.{ts,tsx}',
          ],
          setupFiles: [
            './packages/ui/test/setup.ts',
            './packages/signin/src/test/setup.ts',
            './apps/portal/test/setup.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['apps/identity/test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
