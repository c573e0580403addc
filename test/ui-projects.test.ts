import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { files as under } from './files.ts';
import { uiFiles, uiFilesThatMock } from './ui-projects.ts';

const root = new URL('..', import.meta.url).pathname;

/** The patterns' shapes (`dir/**\/*.test.{ts,tsx}`) as regular expressions. */
const asPattern = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/\./g, '\\.')
      .replace(/\*\*\//g, '(?:.*/)?')
      .replace(/(?<![.)])\*/g, '[^/]*')
      .replace(/\{([^}]+)\}/g, (_, options: string) => `(?:${options.split(',').join('|')})`)}$`,
  );

test('every jsdom test file that replaces a module (vi.mock) runs in the ui-mocks project, with a module graph of its own', () => {
  const patterns = uiFiles.map(asPattern);
  const files = [...new Set(uiFiles.map((glob) => glob.split('/**')[0]!))]
    .flatMap((dir) => under(join(root, dir), () => true))
    .map((path) => relative(root, path))
    .filter((file) => patterns.some((pattern) => pattern.test(file)));
  expect(files.length).toBeGreaterThan(50);
  const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(root, file), 'utf8')));
  expect(mocking.sort()).toEqual([...uiFilesThatMock].sort());
});
