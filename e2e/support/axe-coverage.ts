import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { routes as consoleRoutes } from '@gatehouse/console/routes';
import { routes as deviceRoutes } from '@gatehouse/device/routes';
import { routes as widgetRoutes } from '@gatehouse/signin/routes';
import type { Page } from 'playwright-core';

/**
 * Every screen of every journey is scanned by axe (craft.md; issue 26): the inventory of screens,
 * what each `expectNoAxeViolations` call scanned (recorded per e2e file in a run directory), and
 * the check at the end of the run (global-setup.ts's teardown, which runs once every worker is
 * done, so files in parallel workers are all counted) that fails naming each screen no file
 * scanned.
 *
 * A screen is named by where it is, never by its words (the Spanish runs scan the same screens):
 * the app and its hash route, the portal recovery's step (`data-step`, portal spec §4's steps),
 * the widget's route (`data-route` on its root, widget spec §2) or its finished state, and
 * whether a dialog is open over the page.
 */

/** The portal's hash routes (apps/portal/src/App.tsx) and its recovery steps (UsernamePage.tsx). */
const portalScreens = [
  '/login',
  '/logout',
  '/noaccess',
  '/username [username]',
  '/username [email]',
  '/username [channel]',
  '/username [phone]',
  '/username [code]',
  '/username [rep]',
  '/username + dialog',
  '/resetPassword',
  '/info/browsers',
  '/info/agreement',
  '/info/privacy',
  '/info/security',
  '/home',
  '/security',
  '/security + dialog',
  '/changeUsername',
  // The OpenID Provider's interaction (decision 048): the widget in LOGIN or STEPUP, or its error.
  '/oidc/login',
  '/oidc/stepup',
  '/oidc/error',
];

/**
 * Widget routes a person never sees as a screen of their own: each with the reason. A route
 * added to the widget is in the inventory until it is scanned or named here.
 */
export const notScreens: Record<string, string> = {
  '/authenticator':
    "reads the factors allowed and replaces itself with the first one's screen; it shows only the widget's loading state (AuthenticatorEntry.tsx)",
  '/extend-session':
    "step-up's first call: it shows nothing but the widget's loading state, then moves on (ExtendSession.tsx)",
};

/** Every screen of every journey, by name. */
export function inventory(): string[] {
  return [
    ...portalScreens.map((screen) => `portal ${screen}`),
    ...Object.values(widgetRoutes)
      .filter((route) => !(route in notScreens))
      .map((route) => `widget ${route}`),
    'widget done',
    ...Object.values(deviceRoutes).map((route) => `device ${route}`),
    'device / + dialog',
    'device /codes + dialog',
    ...Object.values(consoleRoutes).map((route) => `console ${route}`),
    // The idle warning over the console (decision 049).
    'console / + dialog',
  ];
}

/** The names of what the page shows now: its own screen, each widget on it, a dialog over it. */
export function screensShown(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    if (document.title.includes('UI gallery')) return ['gallery'];
    const path = location.pathname;
    const app = path.startsWith('/device')
      ? 'device'
      : path.startsWith('/console')
        ? 'console'
        : path === '/' || path === '/index.html'
          ? 'portal'
          : `page ${path}`;
    // An interaction's id is not part of the screen's name.
    const route =
      location.hash
        .replace(/^#/, '')
        .split('?')[0]
        ?.replace(/^(\/oidc\/(?:login|stepup))\/.+$/, '$1') || '/';
    const step = document.querySelector('[data-step]')?.getAttribute('data-step');
    const host = `${app} ${route}`;
    const names = [step ? `${host} [${step}]` : host];
    if (document.querySelector('[role="dialog"], [role="alertdialog"]')) names.push(`${host} + dialog`);
    for (const widget of document.querySelectorAll('.gh-signin')) {
      const widgetRoute = widget.getAttribute('data-route');
      if (widgetRoute) names.push(`widget ${widgetRoute}`);
      else if (widget.querySelector('.gh-signin__done')) names.push('widget done');
    }
    return names;
  });
}

/** Adds what one clean scan covered to this worker's record of the run. */
export function recordScan(directory: string | undefined, file: string | undefined, names: string[]): void {
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  appendFileSync(
    join(directory, `${process.pid}.jsonl`),
    `${JSON.stringify({ file: file ? basename(file) : '', names })}\n`,
  );
}

/** What the run's files scanned: the screens, and the files that scanned anything. */
function readRecords(directory: string): { names: Set<string>; files: Set<string> } {
  const names = new Set<string>();
  const files = new Set<string>();
  let entries: string[] = [];
  try {
    entries = readdirSync(directory);
  } catch {
    return { names, files };
  }
  for (const entry of entries) {
    for (const line of readFileSync(join(directory, entry), 'utf8').split('\n')) {
      if (!line) continue;
      const record = JSON.parse(line) as { file: string; names: string[] };
      files.add(record.file);
      for (const name of record.names) names.add(name);
    }
  }
  return { names, files };
}

/**
 * At the end of the run: when every e2e file ran (or `AXE_COVERAGE=check` asks for it on a part
 * of them), fails listing each screen of the inventory that no file scanned clean. A run of a few
 * files only says how far they got (`AXE_COVERAGE=list` also names what they scanned).
 */
export function checkCoverage(directory: string, e2eDirectory: string): void {
  const { names, files } = readRecords(directory);
  const all = readdirSync(e2eDirectory).filter((file) => file.endsWith('.e2e.ts'));
  const ran = all.filter((file) => files.has(file));
  const screens = inventory();
  const missing = screens.filter((screen) => !names.has(screen));
  // The gallery's components and the demo host pages (the widget's embed page) are no screens of
  // a journey: the widget in them is.
  const hosts = (name: string) => name === 'gallery' || name.startsWith('page ');
  const unknown = [...names].filter((name) => !hosts(name) && !screens.includes(name));
  const summary = `axe coverage: ${screens.length - missing.length} of ${screens.length} screens scanned by ${ran.length} of ${all.length} e2e files`;
  if (process.env.AXE_COVERAGE === 'list')
    console.log(`axe coverage, scanned: ${[...names].sort().join(', ')}`);
  if (unknown.length) console.log(`${summary}; scanned but not in the inventory: ${unknown.join(', ')}`);
  if (ran.length < all.length && process.env.AXE_COVERAGE !== 'check') {
    console.log(`${summary} (the inventory is checked on a run of every e2e file)`);
    return;
  }
  if (missing.length) {
    throw new Error(
      `${summary}. No e2e file scanned these screens with expectNoAxeViolations:\n  ${missing.join('\n  ')}`,
    );
  }
  console.log(summary);
}
