import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { files } from './files.ts';

/**
 * The repository's shape, as design.md and craft.md state it: plugins own their domain and import
 * no other plugin (shared code lives in services and lib; import cycles are refused by Biome's
 * noImportCycles), and every workspace declares what it imports and nothing it does not use.
 */
const root = new URL('..', import.meta.url).pathname;

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

/**
 * Workspaces meet through their packages: a file reaches another workspace by the package name and
 * one of its exports ('@gatehouse/identity', '@gatehouse/i18n/vite'), never by a relative path into
 * its source, so a package's exports are its whole surface. The root's own configuration files
 * (vitest.config.ts, vite.precompress.ts) follow the same rule.
 */
describe('boundaries between workspaces', () => {
  /** Root files that are no workspace's and serve several: the build's precompression plugin. */
  const sharedRootFiles = new Set(['vite.precompress.ts']);
  const workspaceDirs = workspaces.map((w) => join(root, w));
  const workspaceOf = (file: string) => workspaceDirs.find((dir) => file.startsWith(`${dir}/`)) ?? root;
  const rootConfigs = readdirSync(root)
    .filter((name) => source(name))
    .map((name) => join(root, name));

  test('no relative import crosses a workspace boundary', () => {
    const checked = [...workspaceDirs.flatMap((dir) => files(dir, source)), ...rootConfigs];
    expect(checked.length).toBeGreaterThan(300);
    const crossings = checked.flatMap((file) =>
      imports(file)
        .filter((s) => s.startsWith('.'))
        .filter((s) => {
          const target = join(file, '..', s);
          if (sharedRootFiles.has(relative(root, target))) return false;
          const home = workspaceOf(file);
          // A root config may read non-source files (demo data, index.html) but no workspace's code.
          if (home === root) return workspaceDirs.some((dir) => target.startsWith(`${dir}/`));
          return !target.startsWith(`${home}/`);
        })
        .map((s) => `${relative(root, file)} imports ${s}`),
    );
    expect(crossings).toEqual([]);
  });

  test.each(workspaces)('every export path of %s exists', (workspace) => {
    const pkg = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')) as {
      exports?: unknown;
      main?: string;
    };
    const targets: string[] = [];
    const walk = (entry: unknown) => {
      if (typeof entry === 'string') targets.push(entry);
      else if (entry && typeof entry === 'object') for (const value of Object.values(entry)) walk(value);
    };
    walk(pkg.exports);
    if (pkg.main) targets.push(pkg.main);
    const missing = targets.filter((target) => {
      try {
        // A subpath pattern ('./messages/*.json') names a folder that must hold such files. One
        // whose `*` is a folder ('./src/screens/*/public.ts', what a factor's folder offers other
        // packages) names a folder of folders, which hold such a file when they offer one.
        if (target.includes('*')) {
          const [folder, suffix] = target.split('*') as [string, string];
          const names = readdirSync(join(root, workspace, folder));
          if (suffix.startsWith('/')) return names.length === 0;
          return !names.some((name) => name.endsWith(suffix));
        }
        return !statSync(join(root, workspace, target)).isFile();
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
