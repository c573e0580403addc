/**
 * The jsdom projects' files (vitest.config.ts). The `ui` project runs its files without a fresh
 * module graph per file (`isolate: false`); a file that replaces a module with `vi.mock` needs one,
 * since a module an earlier file imported would keep the real one, so it runs in `ui-mocks`.
 * test/ui-projects.test.ts fails when a file that mocks a module is missing from that list.
 */
export const uiFiles = [
  'packages/ui/**/*.test.tsx',
  'packages/signin/**/*.test.{ts,tsx}',
  'apps/portal/**/*.test.{ts,tsx}',
  'apps/device/**/*.test.{ts,tsx}',
  'apps/console/**/*.test.{ts,tsx}',
];

export const uiFilesThatMock = [
  'apps/device/test/add.test.tsx',
  'apps/device/test/language.test.tsx',
  'apps/console/src/messages.test.tsx',
  'apps/portal/src/pages/LoginPage.test.tsx',
];

export const uiSetup = [
  './packages/ui/test/setup.ts',
  './packages/signin/src/test/setup.ts',
  './apps/portal/test/setup.ts',
];
