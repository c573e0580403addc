/**
 * Bundle sizes of the production builds (run `npm run build` first): every chunk of the portal,
 * of the widget bundle, of the device app and of the console, raw and gzip, and the login route: the entry with everything it
 * imports statically (chunks loaded on demand are not part of it). The figures are
 * deterministic, so `--check` fails the run when the login route is over its budget.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Issue 14: the login routes of the widget and of the portal, React included, at most 85 KB gzip
 * of JavaScript and 8 KB of CSS each (docs/decisions/019-small-router.md; issue 4's 100/105 KB and
 * 15 KB before, docs/decisions/006-bundle-budgets.md).
 */
export const builds = [
  {
    name: 'widget bundle',
    dir: 'packages/signin/dist',
    entry: 'signin.js',
    css: ['signin.css'],
    budget: { js: 85 * 1024, css: 8 * 1024 },
  },
  {
    name: 'portal',
    dir: 'apps/portal/dist',
    entry: 'index.html',
    css: [] as string[],
    // 85.6 KB, not 85: docs/decisions/047-portal-login-route-half-a-kilobyte.md.
    budget: { js: 85.6 * 1024, css: 8 * 1024 },
    /**
     * On-demand chunks with budgets of their own (as the device app's below): the security page
     * (issue 12; decision 027) with its QR library, the widget's step-up screens and the pages
     * chunk it shares: measured 32.3 KB JS and 2.1 KB CSS gzip.
     */
    onDemand: [
      {
        name: 'security page',
        file: /^assets\/SecurityPage-[\w-]+\.js$/,
        budget: { js: 34 * 1024, css: 3 * 1024 },
      },
    ],
  },
  /**
   * The device app's start page (served at /device/; the add-an-account page and its widget load on
   * demand): React, Radix Dialog (fraud and remove confirmations) and the contract's outcome
   * tables. Measured at 96.4 KB JS and 3.7 KB CSS gzip; the budget leaves a modest margin. Its
   * texts are the catalog group `device` (`<language>_device` chunks), loaded before it renders:
   * 96.98 KB in English, 97.20 KB in Spanish (issue 15). The hosted widget's `<language>_login`
   * texts load with the add-an-account page, not here.
   */
  {
    name: 'device app',
    dir: 'apps/device/dist',
    entry: 'index.html',
    base: '/device/',
    css: [] as string[],
    budget: { js: 100 * 1024, css: 5 * 1024 },
    catalog: 'device',
    /**
     * On-demand chunks with budgets of their own: each chunk and what it imports statically, less
     * what the start page loads already (docs/decisions/026-device-app-codes.md). The codes page
     * (otpauth, the page, its CSS) measured 17.0 KB JS and 1.6 KB CSS gzip (17.25 KB in English and
     * 17.43 KB in Spanish with its texts); jsQR, loaded only when a picture is chosen, 45.3 KB.
     */
    onDemand: [
      {
        name: 'codes page',
        file: /^assets\/CodesPage-[\w-]+\.js$/,
        budget: { js: 22 * 1024, css: 3 * 1024 },
        // Its texts (`<language>_codes` chunks) load with it, one language at a time.
        catalog: 'codes',
      },
      {
        name: 'QR picture decoder (jsQR)',
        file: /^assets\/jsQR-[\w-]+\.js$/,
        budget: { js: 48 * 1024, css: 0 },
      },
    ],
  },
  /**
   * The representative console (served at /console/; docs/decisions/028-representative-console.md):
   * one file, React, wouter and the components it uses, and its catalog in one language (the
   * `<language>_common…` chunk, all of its groups, loaded before the first screen; decision 029).
   * Measured at 83.9 KB JS and 3.9 KB CSS gzip before the catalog.
   */
  {
    name: 'console',
    dir: 'apps/console/dist',
    entry: 'index.html',
    base: '/console/',
    css: [] as string[],
    budget: { js: 90 * 1024, css: 5 * 1024 },
    catalog: 'common',
  },
] as const;

const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The entry's JavaScript and CSS and every module it imports statically, transitively. */
export function loginRoute(dir: string, entry: string, basePath = '/'): { js: string[]; css: string[] } {
  const base = join(root, dir);
  const js = new Set<string>();
  const css = new Set<string>();
  const queue: string[] = [];
  if (entry.endsWith('.html')) {
    const html = readFileSync(join(base, entry), 'utf8');
    // The address in the page, relative to the build's folder: without the app's base path.
    const file = (href: string) => join(base, href.startsWith(basePath) ? href.slice(basePath.length) : href);
    for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) queue.push(file(m[1]!));
    for (const m of html.matchAll(/<link[^>]+href="([^"]+\.css)"/g)) css.add(file(m[1]!));
  } else queue.push(join(base, entry));
  while (queue.length) {
    const file = queue.pop()!;
    if (js.has(file) || !existsSync(file)) continue;
    js.add(file);
    const code = readFileSync(file, 'utf8');
    // Static imports only: `import … from "./x.js"`, `import "./x.js"` and re-exports
    // (`export … from "./x.js"`), not `import("./x.js")`.
    for (const m of code.matchAll(
      /(?:^|[;\s}])(?:import|export)\s*(?:[^'"()]*?from\s*)?["']([^"']+\.js)["']/g,
    )) {
      queue.push(resolve(dirname(file), m[1]!));
    }
  }
  return { js: [...js], css: [...css] };
}

const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;

export function report(): { failures: string[] } {
  const failures: string[] = [];
  for (const build of builds) {
    const dir = join(root, build.dir);
    if (!existsSync(dir)) {
      failures.push(`${build.dir} is missing: run npm run build`);
      continue;
    }
    console.log(`\n${build.name} (${build.dir})`);
    for (const file of walk(dir)
      .filter((f) => /\.(js|css)$/.test(f))
      .sort()) {
      console.log(
        `  ${relative(dir, file).padEnd(56)} ${kb(statSync(file).size).padStart(9)} raw ${kb(gzip(file)).padStart(9)} gzip`,
      );
    }
    const route = loginRoute(build.dir, build.entry, 'base' in build ? build.base : '/');
    const cssFiles = [...route.css, ...build.css.map((c) => join(dir, c))];
    const cssTotal = cssFiles.reduce((s, f) => s + gzip(f), 0);
    const { budget } = build;
    // The login route's texts load before its first screen, in one language: each language's
    // `<language>_login…` catalog chunks (the device app's `<language>_device…`, the console's
    // `<language>_common…`) and what they import count, one language at a time (docs/decisions/029-languages.md).
    const group = 'catalog' in build ? build.catalog : 'login';
    const catalogs = (language: string, name = group) =>
      walk(dir)
        .filter((f) => new RegExp(`^assets/${language}_${name}[\\w]*-[\\w-]+\\.js$`).test(relative(dir, f)))
        .flatMap((f) => loginRoute(build.dir, relative(dir, f)).js);
    const languagesOf = (name: string) =>
      [
        ...new Set(
          walk(dir).map((f) => new RegExp(`^assets/([a-z]{2,3})_${name}`).exec(relative(dir, f))?.[1]),
        ),
      ]
        .filter((l): l is string => !!l)
        .sort();
    const languages = languagesOf(group);
    let js = 0;
    for (const language of languages.length ? languages : ['']) {
      const files = new Set([...route.js, ...(language ? catalogs(language) : [])]);
      const total = [...files].reduce((s, f) => s + gzip(f), 0);
      js = Math.max(js, total);
      console.log(
        `  login route${language ? ` (${language})` : ''}: ${files.size} JS files ${kb(total)} gzip (budget ${kb(budget.js)}), CSS ${kb(cssTotal)} gzip (budget ${kb(budget.css)})`,
      );
      if (total > budget.js)
        failures.push(
          `${build.name}: login route${language ? ` (${language})` : ''} JS ${total} B gzip > ${budget.js} B`,
        );
    }
    if (cssTotal > budget.css)
      failures.push(`${build.name}: login route CSS ${cssTotal} B gzip > ${budget.css} B`);
    for (const chunk of 'onDemand' in build ? build.onDemand : []) {
      const found = walk(dir).filter((f) => chunk.file.test(relative(dir, f)));
      if (found.length !== 1) {
        failures.push(`${build.name}: ${found.length} files match the ${chunk.name} chunk (${chunk.file})`);
        continue;
      }
      const part = loginRoute(build.dir, relative(dir, found[0]!));
      const own = part.js.filter((f) => !route.js.includes(f));
      // Vite names a chunk's CSS after the chunk, and that of shared chunks after them.
      const ownCss = own.flatMap((f) => {
        const stem = relative(dir, f).replace(/-[\w-]+\.js$/, '-');
        return walk(dir).filter((c) => c.endsWith('.css') && relative(dir, c).startsWith(stem));
      });
      const chunkCss = ownCss.reduce((sum, f) => sum + gzip(f), 0);
      // A page whose texts come with it counts its catalog chunks, one language at a time (less
      // what the start page's texts in that language brought already).
      const pageGroup = 'catalog' in chunk ? chunk.catalog : undefined;
      const pageLanguages = pageGroup ? languagesOf(pageGroup) : [];
      for (const language of pageLanguages.length ? pageLanguages : ['']) {
        const files = new Set([
          ...own,
          ...(language && pageGroup
            ? catalogs(language, pageGroup).filter(
                (f) => !route.js.includes(f) && !catalogs(language).includes(f),
              )
            : []),
        ]);
        const chunkJs = [...files].reduce((sum, f) => sum + gzip(f), 0);
        const which = `${chunk.name}${language ? ` (${language})` : ''}`;
        console.log(
          `  ${which} (on demand): ${files.size} JS files ${kb(chunkJs)} gzip (budget ${kb(chunk.budget.js)}), CSS ${kb(chunkCss)} gzip (budget ${kb(chunk.budget.css)})`,
        );
        if (chunkJs > chunk.budget.js)
          failures.push(`${build.name}: ${which} JS ${chunkJs} B gzip > ${chunk.budget.js} B`);
      }
      if (chunkCss > chunk.budget.css)
        failures.push(`${build.name}: ${chunk.name} CSS ${chunkCss} B gzip > ${chunk.budget.css} B`);
    }
  }
  return { failures };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { failures } = report();
  if (failures.length) {
    console.error(`\nOver budget:\n- ${failures.join('\n- ')}`);
    if (process.argv.includes('--check')) process.exit(1);
  }
}
