import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { paths } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { precompress } from '../../../vite.precompress.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { api, baseEnv, targets } from './support/harness.ts';

/**
 * Issue 14 point 1: the built apps are served precompressed (Brotli, else gzip, else as built),
 * with `Vary: Accept-Encoding`, immutable caching for hashed assets and revalidation for the HTML
 * and env.json; the decoded body is the file itself.
 */

/** Text that compresses the way a bundle does (repetitive identifiers, some entropy). */
const bundleLike = (label: string) =>
  Array.from(
    { length: 400 },
    (_, i) =>
      `export function ${label}Component${i}(props){return createElement("div",{id:"${i}"},props.children)}`,
  ).join('\n');

function builtApps() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-compressed-'));
  const portal = join(dir, 'portal');
  const widget = join(dir, 'widget');
  mkdirSync(join(portal, 'assets'), { recursive: true });
  mkdirSync(join(widget, 'assets'), { recursive: true });
  writeFileSync(
    join(portal, 'index.html'),
    `<!doctype html><html lang="en"><head><title>portal</title>${'<link rel="modulepreload" href="/assets/chunk.js">'.repeat(20)}</head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(portal, 'assets', 'index-Ab12Cd34.js'), bundleLike('Portal'));
  writeFileSync(join(portal, 'assets', 'index-Ef56Gh78.css'), '.button{color:red}\n'.repeat(300));
  writeFileSync(join(portal, 'assets', 'logo-Ij90Kl12.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  writeFileSync(join(portal, 'env.json'), '{ "name": "local" }');
  writeFileSync(join(widget, 'signin.js'), bundleLike('Widget'));
  const written = [...precompress(portal), ...precompress(widget)];
  // The device app (not precompressed here: its serving, not its compression, is under test).
  const device = join(dir, 'device');
  mkdirSync(device, { recursive: true });
  writeFileSync(join(device, 'index.html'), '<!doctype html><title>device</title>');
  writeFileSync(join(device, 'manifest.webmanifest'), '{ "name": "Gatehouse Device" }');
  return { dir, portal, widget, device, written };
}

const brotli = 'br';
const gzip = 'gzip';

/** The body as the client reads it, decoded by its Content-Encoding. */
function decoded(response: LightMyRequestResponse): Buffer {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(raw);
    case 'gzip':
      return gunzipSync(raw);
    default:
      return raw;
  }
}

const varyTokens = (r: LightMyRequestResponse) =>
  String(r.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((t) => t.trim());

describe('precompressed static files', () => {
  const built = builtApps();
  let app: FastifyInstance;

  beforeAll(async () => {
    const pglite = targets.find((t) => t.name === 'pglite')!;
    const db = await pglite.open();
    ({ app } = await buildApp({
      config: loadConfig({ ...baseEnv, SERVE_APPS: 'true' }),
      db,
      logStream: { write: () => {} },
      staticSites: [
        { prefix: '/', dir: built.portal },
        { prefix: '/widget/', dir: built.widget },
        { prefix: '/device/', dir: built.device },
      ],
    }));
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(built.dir, { recursive: true, force: true });
  });

  test('the build step writes a smaller .br and .gz beside each text file, not beside images or env.json', () => {
    const names = built.written.map((w) => w.file).sort();
    expect(names).toEqual([
      'assets/index-Ab12Cd34.js',
      'assets/index-Ef56Gh78.css',
      'index.html',
      'signin.js',
    ]);
    for (const w of built.written) {
      expect(w.br, w.file).toBeLessThan(w.raw);
      expect(w.gz, w.file).toBeLessThan(w.raw);
    }
    const js = built.written.find((w) => w.file === 'assets/index-Ab12Cd34.js')!;
    expect(js.br!).toBeLessThan(js.raw / 5);
  });

  test('the device app: /device/ is its index, /device goes there, its manifest is served as one', async () => {
    const index = await app.inject({ method: 'GET', url: '/device/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<title>device</title>');
    const bare = await app.inject({ method: 'GET', url: '/device' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/device/');
    const manifest = await app.inject({ method: 'GET', url: '/device/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect((await app.inject({ method: 'GET', url: '/device/nothing.js' })).statusCode).toBe(404);
  });

  test.each([
    ['/assets/index-Ab12Cd34.js', 'portal/assets/index-Ab12Cd34.js', 'immutable'],
    ['/assets/index-Ef56Gh78.css', 'portal/assets/index-Ef56Gh78.css', 'immutable'],
    ['/', 'portal/index.html', 'revalidated'],
    ['/index.html', 'portal/index.html', 'revalidated'],
    ['/widget/signin.js', 'widget/signin.js', 'revalidated'],
  ])(
    '%s: Brotli first, gzip as fallback, identity last; Vary and caching on each',
    async (url, file, caching) => {
      const original = readFileSync(join(built.dir, file));
      const cases = [
        { accept: 'gzip, deflate, br, zstd', encoding: brotli },
        { accept: 'br;q=1.0, gzip;q=0.8', encoding: brotli },
        { accept: 'gzip, deflate', encoding: gzip },
        { accept: 'identity', encoding: undefined },
        { accept: undefined, encoding: undefined },
      ];
      for (const { accept, encoding } of cases) {
        const r = await app.inject({
          method: 'GET',
          url,
          headers: accept === undefined ? {} : { 'accept-encoding': accept },
        });
        const label = `${url} with Accept-Encoding: ${accept}`;
        expect(r.statusCode, label).toBe(200);
        expect(r.headers['content-encoding'], label).toBe(encoding);
        expect(varyTokens(r), label).toContain('accept-encoding');
        expect(decoded(r).equals(original), label).toBe(true);
        if (encoding) expect(r.rawPayload.length, label).toBeLessThan(original.length);
        expect(Number(r.headers['content-length']), label).toBe(r.rawPayload.length);
        expect(String(r.headers['content-type']), label).toMatch(
          /\.js$/.test(file) ? /javascript/ : /\.css$/.test(file) ? /text\/css/ : /text\/html/,
        );
        expect(r.headers['cache-control'], label).toBe(
          caching === 'immutable' ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        expect(r.headers.etag, label).toBeTruthy();
      }
    },
  );

  test('each encoding has its own ETag, so a cache never mixes representations', async () => {
    const etags = new Set<string>();
    for (const accept of ['br', 'gzip', 'identity']) {
      const r = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': accept } });
      etags.add(String(r.headers.etag));
    }
    expect(etags.size).toBe(3);
  });

  test('env.json, edited by deployments after the build, is sent as it is and revalidated', async () => {
    const r = await app.inject({
      method: 'GET',
      url: '/env.json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.json()).toEqual({ name: 'local' });
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(varyTokens(r)).toContain('accept-encoding');
  });

  test('images are sent as they are, immutable when hashed', async () => {
    const r = await app.inject({
      method: 'GET',
      url: '/assets/logo-Ij90Kl12.png',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.rawPayload.equals(readFileSync(join(built.portal, 'assets', 'logo-Ij90Kl12.png')))).toBe(true);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('API answers stay uncompressed, uncacheable JSON (decision 017)', async () => {
    const r = await app.inject({
      method: 'GET',
      url: api(paths.health),
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json()).toEqual({ status: 'ok' });
  });
});
