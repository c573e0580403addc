/**
 * Lighthouse (mobile, default simulated throttling) on the two login routes as `npm start` serves
 * them: the portal's login page and the widget on a plain page. Each page runs three times in
 * Debian's Chromium (headless); the median run (Lighthouse's own choice of median) is printed:
 * every category's score and the Web Vitals. Goals (issue 14): performance at least 98,
 * accessibility 100, best practices 100. Not part of `npm test`: the figures vary with the
 * machine's load, so they are printed, not asserted.
 *
 *   npm run bench:lighthouse                       # builds and starts the product on port 8388
 *   BASE_URL=http://localhost:8080 npm run bench:lighthouse   # against a server already running
 *   CHROME_PATH=/path/to/chrome RUNS=5 PAGE=embed npm run bench:lighthouse   # one page only
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { waitFor } from './wait-for.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.RUNS ?? 3);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.LIGHTHOUSE_PORT ?? 8388);

export const pages = [
  { name: 'portal login', path: '/#/login' },
  { name: 'widget on a plain page', path: '/widget/embed.html' },
].filter((page) => !process.env.PAGE || page.path.includes(process.env.PAGE));

const categories = ['performance', 'accessibility', 'best-practices'] as const;
const goals: Record<(typeof categories)[number], number> = {
  performance: 98,
  accessibility: 100,
  'best-practices': 100,
};
const vitals = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['CLS', 'cumulative-layout-shift'],
  ['SI', 'speed-index'],
  ['TTI', 'interactive'],
] as const;

type Lhr = {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    { numericValue?: number; displayValue?: string; score: number | null; title: string }
  >;
};

function startServer(): { base: string; server: ChildProcess } {
  const base = `http://localhost:${port}`;
  const server = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  return { base, server };
}

function failedAudits(lhr: Lhr, category: string): string[] {
  const refs = (lhr.categories[category] as unknown as { auditRefs?: Array<{ id: string; weight: number }> })
    .auditRefs;
  return (refs ?? [])
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => `${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`);
}

async function main() {
  let server: ChildProcess | undefined;
  let base = process.env.BASE_URL;
  if (!base) {
    const started = startServer();
    server = started.server;
    base = started.base;
    await waitFor(`${base}/widget/embed.html`, server, 'npm start', 180);
  }
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  let missed = 0;
  try {
    for (const page of pages) {
      const url = `${base}${page.path}`;
      const results: Lhr[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...categories],
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
        const lhr = result.lhr as unknown as Lhr;
        if (lhr.runtimeError)
          console.log(`  run ${i + 1}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        results.push(lhr);
      }
      // A run Lighthouse could not measure (no first paint seen, e.g. on an overloaded machine) is
      // left out of the median, and said so.
      const valid = filterToValidRuns(results) as Lhr[];
      if (valid.length === 0) {
        console.log(`\n${page.name} (${url}): no valid run of ${runs}`);
        missed += categories.length;
        continue;
      }
      const median = computeMedianRun(valid) as Lhr;
      console.log(`\n${page.name} (${url}), median of ${valid.length} valid runs of ${runs}, mobile`);
      for (const category of categories) {
        const score = Math.round((median.categories[category]?.score ?? 0) * 100);
        const all = valid.map((r) => Math.round((r.categories[category]?.score ?? 0) * 100)).join(', ');
        const ok = score >= goals[category];
        if (!ok) missed += 1;
        console.log(
          `  ${category.padEnd(15)} ${String(score).padStart(3)}  (goal ${goals[category]}; runs ${all})${ok ? '' : '  BELOW GOAL'}`,
        );
        if (!ok) for (const audit of failedAudits(median, category)) console.log(`      - ${audit}`);
      }
      for (const [label, id] of vitals) {
        console.log(`  ${label.padEnd(15)} ${median.audits[id]?.displayValue ?? 'n/a'}`);
      }
    }
  } finally {
    chrome.kill();
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  }
  if (missed) console.log(`\n${missed} score(s) below the goals of issue 14.`);
}

await main();
