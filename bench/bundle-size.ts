/**
 * Bundle sizes of the production builds (run `npm run build` first): every JavaScript and CSS
 * file of the portal and the widget bundle, raw and gzip. Deterministic, so `--check` fails
 * the run when a budget is exceeded.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const dists = ['apps/portal/dist', 'packages/signin/dist'];

/** Budgets in gzip bytes for whole builds (issue 4 tightens the login route to 100 KB JS). */
export const budgets = {
  'apps/portal/dist': { js: 150 * 1024, css: 15 * 1024 },
  'packages/signin/dist': { js: 150 * 1024, css: 15 * 1024 },
} as const;

type Row = { file: string; kind: 'js' | 'css'; raw: number; gzip: number };

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export function measure(dist: string): Row[] {
  return walk(join(root, dist))
    .filter((f) => /\.(js|css)$/.test(f))
    .map((file) => {
      const bytes = readFileSync(file);
      return {
        file: relative(root, file),
        kind: file.endsWith('.css') ? 'css' : 'js',
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
      } satisfies Row;
    });
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let failed = false;
  for (const dist of dists) {
    const rows = measure(dist);
    console.log(`\n${dist}`);
    for (const r of rows)
      console.log(`  ${r.file.padEnd(60)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
    for (const kind of ['js', 'css'] as const) {
      const total = rows.filter((r) => r.kind === kind).reduce((s, r) => s + r.gzip, 0);
      const budget = budgets[dist as keyof typeof budgets][kind];
      const over = total > budget;
      failed ||= over;
      console.log(`  total ${kind}: ${kb(total)} gzip (budget ${kb(budget)})${over ? '  OVER BUDGET' : ''}`);
    }
  }
  if (process.argv.includes('--check') && failed) {
    console.error('\nA bundle is over its budget.');
    process.exit(1);
  }
}
