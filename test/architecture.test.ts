import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The repository's shape, as design.md and craft.md state it: plugins own their domain and import
 * no other plugin (shared code lives in services and lib; import cycles are refused by Biome's
 * noImportCycles), and every workspace declares what it imports and nothing it does not use.
 */
const root = new URL('..', import.meta.url).pathname;

function files(dir: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (['node_modules', 'dist', '.data', 'test-results'].includes(entry) || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...files(path, accept));
    else if (accept(entry)) out.push(path);
  }
  return out;
}

const source = (name: string) => /\.(ts|tsx|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts');
const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importPattern)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** The package a bare specifier names ('@scope/name/sub' -> '@scope/name'); null for relative or node: ones. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  if (builtinModules.includes(specifier.split('/')[0]!)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

describe('server plugins', () => {
  test('no plugin imports another plugin', () => {
    const dir = join(root, 'apps/identity/src/plugins');
    const offenders = files(dir, source).flatMap((file) =>
      imports(file)
        .filter((s) => s.startsWith('./') || s.includes('/plugins/'))
        .map((s) => `${relative(root, file)} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});

type Manifest = {
  name: string;
  workspaces?: string[];
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const workspaces = manifest(root).workspaces ?? [];

/**
 * Declared but not imported by a file of the workspace, for a reason: used by a command rather
 * than an import.
 */
const usedOtherwise: Record<string, Record<string, string>> = {
  '@gatehouse/identity': { tsx: 'npm start and npm run migrate run the service with node --import tsx' },
  '@gatehouse/i18n': {
    '@messageformat/runtime': 'the catalog modules its Vite plugin compiles import it (decision 029)',
  },
};

describe.each(workspaces)('workspace %s', (workspace) => {
  const dir = join(root, workspace);
  const pkg = manifest(dir);
  const declared = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  const used = new Set(
    files(dir, source)
      .flatMap(imports)
      .map(packageOf)
      .filter((p): p is string => p !== null && p !== pkg.name),
  );

  test('declares every package it imports', () => {
    expect([...used].filter((p) => !declared.has(p)).sort()).toEqual([]);
  });

  test('declares nothing it does not use', () => {
    const otherwise = usedOtherwise[pkg.name] ?? {};
    const unused = [...declared].filter(
      (p) => !used.has(p) && !(p in otherwise) && !(p.startsWith('@types/') && used.has(p.slice(7))),
    );
    expect(unused.sort()).toEqual([]);
  });
});
