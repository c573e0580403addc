import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { recordScan, screensShown } from './axe-coverage.ts';

/** Debian's Chromium, driven by playwright-core; no browser download. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** As root, without a sandbox; no background networking (this machine has no internet). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

/**
 * The screen states scanned already: the page's markup with the viewport and the media features
 * axe's results depend on. The files of a worker share this module (decision 056), so a state is
 * scanned once per worker, however many tests and files pass through it; each file still records
 * the screens it showed (recordScan).
 */
const scanned = new Map<string, string[]>();

/** What makes two moments the same screen state for axe. */
function screenState(page: Page): Promise<string> {
  return page.evaluate(() => {
    const media = [
      '(forced-colors: active)',
      '(prefers-color-scheme: dark)',
      '(prefers-reduced-motion: reduce)',
    ]
      .map((query) => `${query}=${matchMedia(query).matches}`)
      .join(' ');
    return `${location.href} ${innerWidth}x${innerHeight} ${media} ${document.title}\n${document.documentElement.outerHTML}`;
  });
}

/**
 * Runs axe (WCAG 2.0-2.2 A and AA rules and best practice) on the page and fails with the
 * violations listed; a state this file has already scanned (the same markup, viewport and media) is
 * not scanned again, since axe would find the same.
 */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  // Let fades and slides settle: a half-faded dialog would fail colour contrast for the wrong reason.
  // Spinners run forever, so only finite animations are awaited.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ).then(() => undefined),
  );
  const state = await screenState(page);
  // The same state again: axe's finding for it is the one it made then.
  let summary = scanned.get(state);
  if (!summary) {
    // axe.run in the page (legacy mode), which reaches frames of the page's own origin only: the
    // default mode's merging of cross-origin frames opens a blank page per scan and doubled each
    // scan's time (decision 055). A cross-origin frame would go unscanned, so it fails here.
    const origin = new URL(page.url()).origin;
    const foreign = page
      .frames()
      .filter((f) => !['about:blank', ''].includes(f.url()) && new URL(f.url()).origin !== origin);
    expect(
      foreign.map((f) => f.url()),
      `cross-origin frames on ${screen}`,
    ).toEqual([]);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .setLegacyMode(true)
      .analyze();
    summary = results.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    scanned.set(state, summary);
  }
  expect(summary, `axe violations on ${screen}`).toEqual([]);
  // Clean: counted towards the run's inventory of screens (axe-coverage.ts).
  recordScan(inject('axeCoverageDir'), expect.getState().testPath, await screensShown(page));
}

/**
 * The error summary titled `title`: the wrapper that takes focus. In GOV.UK Frontend 4.4.0's
 * markup the `role="alert"` is a container inside it, with no name of its own.
 */
export function errorSummary(page: Page, title: string | RegExp = 'There is a problem'): Locator {
  return page
    .locator('.gh-error-summary')
    .filter({ has: page.getByRole('alert').getByRole('heading', { name: title }) });
}

/** The text of the element as a screen reader reads it: without what is `aria-hidden`. */
export function spokenText(locator: Locator): Promise<string> {
  return locator.evaluate((element) => {
    const read = (node: Node): string =>
      node.nodeType === Node.TEXT_NODE
        ? (node.textContent ?? '')
        : node instanceof Element && node.getAttribute('aria-hidden') === 'true'
          ? ''
          : [...node.childNodes].map(read).join('');
    return read(element).replace(/\s+/g, ' ').trim();
  });
}

/** The page does not scroll sideways (WCAG 1.4.10 reflow, at 320 px). */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
  }));
  expect(scroll, `sideways scroll on ${where}`).toBeLessThanOrEqual(width);
}

/** A live region's text, or a role=alert's or role=status's, holds `text` (it was announced). */
export async function expectAnnounced(page: Page, text: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        (t) =>
          [
            ...document.querySelectorAll(
              '[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"]',
            ),
          ].some((el) => el.textContent?.includes(t)),
        text,
      ),
    )
    .toBe(true);
}
