/**
 * Size of @gatehouse/ui itself: builds packages/ui/src/index.ts in library mode (React, React DOM
 * and the Radix primitives left external, as an app bundles them once for everything) into a
 * temporary directory and prints the JS and CSS bytes, raw and gzip.
 *
 *   node --import tsx bench/ui-size.ts          # table
 *   node --import tsx bench/ui-size.ts --json   # machine-readable
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'packages/ui/src/index.ts');

export interface UiSize {
  js: { raw: number; gzip: number };
  css: { raw: number; gzip: number };
}

export async function measureUiSize(): Promise<UiSize> {
  const outDir = await mkdtemp(join(tmpdir(), 'gatehouse-ui-size-'));
  try {
    await build({
      configFile: false,
      logLevel: 'silent',
      root,
      plugins: [react()],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir,
        emptyOutDir: true,
        minify: true,
        cssMinify: true,
        lib: { entry, formats: ['es'], fileName: 'ui', cssFileName: 'ui' },
        rollupOptions: {
          external: (id) => /^(react|react-dom)(\/|$)/.test(id) || id.startsWith('@radix-ui/'),
        },
      },
    });
    const size: UiSize = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
    for (const name of await readdir(outDir, { recursive: true })) {
      const kind = extname(name) === '.css' ? 'css' : ['.js', '.mjs'].includes(extname(name)) ? 'js' : null;
      if (!kind) continue;
      const bytes = await readFile(join(outDir, name));
      size[kind].raw += bytes.length;
      size[kind].gzip += gzipSync(bytes, { level: 9 }).length;
    }
    return size;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const size = await measureUiSize();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(size));
  } else {
    console.log('@gatehouse/ui (own code; react, react-dom and @radix-ui external)');
    console.log(
      `  JS   ${String(size.js.raw).padStart(7)} B raw (${kb(size.js.raw)})   ${String(size.js.gzip).padStart(6)} B gzip (${kb(size.js.gzip)})`,
    );
    console.log(
      `  CSS  ${String(size.css.raw).padStart(7)} B raw (${kb(size.css.raw)})   ${String(size.css.gzip).padStart(6)} B gzip (${kb(size.css.gzip)})`,
    );
  }
}
