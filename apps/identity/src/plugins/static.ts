import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const root = (relative: string) => fileURLToPath(new URL(`../../../../${relative}`, import.meta.url));

export type Site = { prefix: string; dir: string };

/** The built apps: the portal at /, the widget bundle at /widget/, the device app at /device/, the console at /console/. */
const builtSites = (): Site[] => [
  { prefix: '/', dir: root('apps/portal/dist') },
  { prefix: '/widget/', dir: root('packages/signin/dist') },
  { prefix: '/device/', dir: root('apps/device/dist') },
  { prefix: '/console/', dir: root('apps/console/dist') },
];

/**
 * Serves the built apps (or the given folders, in tests). A path the file server refuses
 * (traversal, NUL, `//host`) reaches the app's error handler, which answers 404 in the envelope.
 *
 * Text files are sent compressed: the build writes a `.br` and a `.gz` beside each one
 * (vite.precompress.ts) and the file server picks by Accept-Encoding (Brotli first, then gzip,
 * else the file itself), with `Vary: Accept-Encoding` on every variant. Nothing is compressed per
 * request. Hashed assets (`assets/`) are cached for a year, immutable; the HTML, env.json and the
 * widget's fixed names are revalidated (`no-cache`, with ETag and Last-Modified).
 */
export async function staticPlugin(
  app: FastifyInstance,
  options: { sites?: Site[]; environment?: Record<string, unknown> } = {},
) {
  const sites = options.sites ?? builtSites();
  let first = true;
  for (const site of sites) {
    if (!existsSync(site.dir)) {
      app.log.warn({ dir: site.dir }, 'not built: run npm run build');
      continue;
    }
    if (site.prefix === '/' && options.environment) servedEnvironment(app, site.dir, options.environment);
    await app.register(fastifyStatic, {
      root: site.dir,
      prefix: site.prefix,
      decorateReply: first,
      index: ['index.html'],
      preCompressed: true,
      maxAge: 0,
      setHeaders: (res, path) => {
        // Hashed assets never change; everything else is revalidated.
        res.header(
          'Cache-Control',
          /\/assets\//.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    first = false;
    // An app's address without its slash ('/device') goes to the app ('/device/'); its screens
    // are hash routes, so the index is the one page it serves.
    if (site.prefix !== '/' && site.prefix.endsWith('/') && existsSync(`${site.dir}/index.html`)) {
      const target = site.prefix;
      app.get(site.prefix.slice(0, -1), (_request, reply) => reply.redirect(target, 301));
    }
  }
}

/**
 * The portal's environment asset (portal spec §7: env.json beside index.html) with what only the
 * service's settings know added to it: the device-risk step's two addresses (decision 045), so a
 * deployment turns the step on for the portal it serves with RISK_SCRIPT_URL and RISK_BEACON_URL
 * alone. The built file's own fields stand; it is read once, at start.
 */
function servedEnvironment(app: FastifyInstance, dir: string, extra: Record<string, unknown>) {
  const file = `${dir}/env.json`;
  const built = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const body = JSON.stringify({ ...built, ...extra });
  app.get('/env.json', (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(body),
  );
}
