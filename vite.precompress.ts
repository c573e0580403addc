import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Precompression of the built apps: every text file of the output folder gets a `.br` (Brotli,
 * quality 11) and a `.gz` (gzip, level 9) beside it, which the identity service sends by
 * Accept-Encoding (@fastify/static's `preCompressed`), so no response is compressed per request.
 * A variant that would not be smaller is not written (the file is then sent as it is).
 */

/** Text files worth compressing; images and fonts are compressed already. */
const TEXT = /\.(html|js|mjs|css|json|svg|txt|xml|map|webmanifest)$/;
/**
 * Files a deployment edits after the build (the portal's environment settings): a stale
 * precompressed copy would be served instead of the edit, so they are left alone. They are tiny.
 */
const EDITED_AFTER_BUILD = new Set(['env.json']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export type Precompressed = { file: string; raw: number; br?: number; gz?: number };

/** Writes the `.br` and `.gz` of every text file under `dir`; returns what it wrote. */
export function precompress(dir: string): Precompressed[] {
  const done: Precompressed[] = [];
  for (const file of walk(dir)) {
    const name = relative(dir, file);
    if (!TEXT.test(file) || EDITED_AFTER_BUILD.has(name)) continue;
    const raw = readFileSync(file);
    const entry: Precompressed = { file: name, raw: raw.length };
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    if (br.length < raw.length) {
      writeFileSync(`${file}.br`, br);
      entry.br = br.length;
    }
    const gz = gzipSync(raw, { level: 9 });
    if (gz.length < raw.length) {
      writeFileSync(`${file}.gz`, gz);
      entry.gz = gz.length;
    }
    done.push(entry);
  }
  return done;
}

/** The Vite plugin: precompresses the output folder once the build has written it. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'gatehouse:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = precompress(outDir);
      const sum = (key: 'raw' | 'br' | 'gz') => files.reduce((s, f) => s + (f[key] ?? f.raw), 0);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      this.info?.(
        `precompressed ${files.length} files: ${kb(sum('raw'))} -> ${kb(sum('br'))} br, ${kb(sum('gz'))} gzip`,
      );
    },
  };
}
