import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

/**
 * The component gallery, built as `npm run gallery:build` builds it (with its strict CSP), served
 * from a throw-away HTTP server and opened entry by entry in Chromium: each entry renders with no
 * console error and no CSP violation, and axe finds nothing, closed and with its overlay open.
 */
const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'packages/ui/gallery/dist');

/** Every gallery entry; the first test checks the gallery's own index lists exactly these. */
const slugs = [
  'alert',
  'animation',
  'button',
  'card',
  'checkbox',
  'code-input',
  'dialog',
  'error-summary',
  'expand-collapse',
  'field',
  'heading',
  'icon',
  'layout',
  'link',
  'list',
  'popover',
  'radio-group',
  'select',
  'spinner',
  'text-input',
  'title-block',
  'toast',
  'tooltip',
  'tokens',
];

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  await build({
    configFile: join(root, 'packages/ui/vite.gallery.config.ts'),
    configLoader: 'runner',
    logLevel: 'warn',
  });
  server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dist, path === '/' ? 'index.html' : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => server?.close(done));
});

interface Opened {
  page: Page;
  problems: string[];
}

async function open(slug: string): Promise<Opened> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(`${origin}/#/${slug}`);
  await page.locator(`main[data-entry="${slug || 'index'}"] h1`).waitFor();
  return { page, problems };
}

/** What to do on an entry to show its second state (an overlay open) before axe runs again. */
const interactions: Record<string, (page: Page) => Promise<void>> = {
  tooltip: async (page) => {
    await page.getByRole('button', { name: 'Why do we need your phone?' }).focus();
    await page.getByRole('tooltip').waitFor();
  },
  popover: async (page) => {
    await page.getByRole('button', { name: 'Where is my code?' }).click();
    await page.getByRole('dialog', { name: 'Your security code' }).waitFor();
  },
  dialog: async (page) => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('dialog', { name: 'Sign out?' }).waitFor();
  },
  toast: async (page) => {
    await page.getByRole('button', { name: 'Show a toast' }).click();
    await page.getByText('Password changed successfully').first().waitFor();
  },
  'error-summary': async (page) => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('form .gh-error-summary').waitFor();
  },
  'expand-collapse': async (page) => {
    await page.getByRole('button', { name: 'Why do we ask for this?' }).click();
    await page.locator('.gh-expand[data-state="expanded"]').first().waitFor();
  },
  'text-input': async (page) => {
    await page.getByRole('button', { name: 'Show password' }).first().click();
  },
};

describe('component gallery', () => {
  it('lists exactly the expected entries in its index', async () => {
    const { page, problems } = await open('');
    const hrefs = await page
      .locator('nav[aria-label="Components"] a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.map((h) => h.replace('#/', '')).sort()).toEqual([...slugs].sort());
    await expectNoAxeViolations(page, 'gallery index');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each(slugs)('%s renders with no console error and no axe violation', async (slug) => {
    const { page, problems } = await open(slug);
    await expectNoAxeViolations(page, slug);
    const interact = interactions[slug];
    if (interact) {
      await interact(page);
      await expectNoAxeViolations(page, `${slug} (interacted)`);
    }
    expect(problems, `console on ${slug}`).toEqual([]);
    await page.context().close();
  });

  it('keyboard: the modal dialog traps focus, Escape closes it and focus returns', async () => {
    const { page } = await open('dialog');
    const trigger = page.getByRole('button', { name: 'Sign out' });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Sign out?' });
    // Radix moves focus in from an effect after the dialog mounts, and back to the trigger from a
    // timer after it unmounts: each is waited for as a person would see it, then held.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => trigger.evaluate((t) => t === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('reduced motion switches transitions off', async () => {
    const { page } = await open('alert');
    const fade = () =>
      page
        .locator('.gh-alert')
        .first()
        .evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(await fade()).toBe('0.15s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await fade()).toBe('0s');
    await page.context().close();
  });

  it('a dismissed alert fades for 150 ms and is then removed', async () => {
    const { page } = await open('alert');
    const alert = page.locator('.gh-alert', { hasText: 'Dismissible info' });
    // Read in the page, so a loaded machine cannot miss the 150 ms: the state right after the
    // click, the opacity transition's own timing, and when the alert left the document.
    const seen = await alert.evaluate(
      (root) =>
        new Promise<{ state: string | null; duration: number; removedAfter: number }>((done) => {
          const button = root.querySelector('button') as HTMLButtonElement;
          const start = performance.now();
          button.click();
          const check = () => {
            const transitions = root.getAnimations().filter((a) => 'transitionProperty' in a);
            if (transitions.length === 0 && root.isConnected) return requestAnimationFrame(check);
            const state = root.getAttribute('data-state');
            const duration = Number(transitions[0]?.effect?.getTiming().duration ?? 0);
            if (!root.isConnected) return done({ state, duration, removedAfter: performance.now() - start });
            const gone = new MutationObserver(() => {
              if (root.isConnected) return;
              gone.disconnect();
              done({ state, duration, removedAfter: performance.now() - start });
            });
            gone.observe(document.body, { childList: true, subtree: true });
          };
          requestAnimationFrame(check);
        }),
    );
    expect(seen.state).toBe('closing');
    expect(seen.duration).toBe(150);
    expect(seen.removedAfter).toBeGreaterThanOrEqual(150);
    expect(await alert.count()).toBe(0);
    await page.context().close();
  });

  it('expand/collapse: the panel grows over its 250 ms transition and shrinks back, read along its timeline', async () => {
    const { page } = await open('expand-collapse');
    const section = page.locator('.gh-expand').first();
    /**
     * Presses the trigger and, once the panel's height transition runs, reads the panel's height
     * at points along that transition (the transition held at each point, so a loaded machine
     * that paints few frames reads the same), then lets it finish.
     */
    const heightsAlongToggle = () =>
      section.evaluate(
        (root) =>
          new Promise<{ duration: number; heights: number[]; end: number }>((done) => {
            const trigger = root.querySelector('button') as HTMLButtonElement;
            const panel = root.querySelector('.gh-expand__panel') as HTMLElement;
            const start = performance.now();
            trigger.click();
            const find = () => {
              if (performance.now() - start > 2000) return done({ duration: 0, heights: [], end: -1 });
              const height = panel
                .getAnimations()
                .find((a) => (a as CSSTransition).transitionProperty === 'height') as
                | CSSTransition
                | undefined;
              if (!height) return requestAnimationFrame(find);
              height.pause();
              const heights: number[] = [];
              for (const at of [0, 25, 50, 100, 150, 200]) {
                height.currentTime = at;
                heights.push(panel.hidden ? 0 : panel.getBoundingClientRect().height);
              }
              const duration = Number(height.effect?.getTiming().duration ?? 0);
              height.currentTime = 0;
              height.play();
              // The component ends the phase on its own timer (it may cancel the transition).
              const settled = () => {
                // wait: polls the component's own state (it ends the phase on its timer, which signals nothing), 20 ms apart
                if (/ing$/.test(root.getAttribute('data-state') ?? '')) return setTimeout(settled, 20);
                requestAnimationFrame(() =>
                  done({ duration, heights, end: panel.hidden ? 0 : panel.getBoundingClientRect().height }),
                );
              };
              settled();
            };
            requestAnimationFrame(find);
          }),
      );
    const opening = await heightsAlongToggle();
    const full = opening.end;
    expect(full).toBeGreaterThan(10);
    expect(opening.duration).toBe(250);
    // A snap has no point part-way; the transition is part-way open at every inner point and
    // never shrinks on the way.
    expect(opening.heights[0]).toBeLessThan(0.5);
    for (const h of opening.heights.slice(1)) {
      expect(h).toBeGreaterThan(0.5);
      expect(h).toBeLessThan(full - 0.5);
    }
    for (let i = 1; i < opening.heights.length; i++)
      expect(opening.heights[i]!).toBeGreaterThanOrEqual(opening.heights[i - 1]! - 0.5);

    const closing = await heightsAlongToggle();
    expect(closing.duration).toBe(250);
    expect(closing.heights[0]).toBeGreaterThan(full - 0.5);
    for (const h of closing.heights.slice(1)) {
      expect(h).toBeGreaterThan(0.5);
      expect(h).toBeLessThan(full - 0.5);
    }
    for (let i = 1; i < closing.heights.length; i++)
      expect(closing.heights[i]!).toBeLessThanOrEqual(closing.heights[i - 1]! + 0.5);
    expect(closing.end).toBe(0);
    await page.context().close();
  });

  it('forced colours: a checked checkbox and a selected radio look different from unchecked ones', async () => {
    const { page } = await open('checkbox');
    await page.emulateMedia({ forcedColors: 'active', reducedMotion: 'reduce' });
    const shot = (selector: string) => page.locator(selector).screenshot({ animations: 'disabled' });
    expect(Buffer.compare(await shot('#cb-checked'), await shot('#cb-unchecked'))).not.toBe(0);
    // Toggling the same box changes what shows.
    const before = await shot('#cb-unchecked');
    await page.locator('#cb-unchecked').evaluate((el) => (el as HTMLInputElement).click());
    await page.mouse.move(0, 0);
    expect(Buffer.compare(await shot('#cb-unchecked'), before)).not.toBe(0);
    await page.context().close();

    const radios = await open('radio-group');
    await radios.page.emulateMedia({ forcedColors: 'active', reducedMotion: 'reduce' });
    const radioShot = (selector: string) =>
      radios.page.locator(selector).screenshot({ animations: 'disabled' });
    expect(Buffer.compare(await radioShot('#rg-method-sms'), await radioShot('#rg-method-email'))).not.toBe(
      0,
    );
    await radios.page.context().close();
  });

  it('forced colours: dialogs, tooltips and popovers keep a visible border', async () => {
    const border = async (page: Page, selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => {
          const style = getComputedStyle(el);
          return { style: style.borderTopStyle, width: Number.parseFloat(style.borderTopWidth) };
        });
    for (const [slug, selector] of [
      ['dialog', '.gh-dialog'],
      ['tooltip', '.gh-tooltip'],
      ['popover', '.gh-popover'],
    ] as const) {
      const { page } = await open(slug);
      await page.emulateMedia({ forcedColors: 'active' });
      await interactions[slug]!(page);
      const seen = await border(page, selector);
      expect(seen.style, `${slug} border style`).not.toBe('none');
      expect(seen.width, `${slug} border width`).toBeGreaterThanOrEqual(1);
      await expectNoAxeViolations(page, `${slug} in forced colours`);
      await page.context().close();
    }
  });

  it('a dismissed alert hands the focus to the next control, not the body', async () => {
    const { page } = await open('alert');
    const alert = page.locator('.gh-alert', { hasText: 'Dismissible info' });
    await alert.getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await alert.waitFor({ state: 'detached', timeout: 2000 });
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el === document.body || !el
        ? 'body'
        : `${el.tagName} ${el.closest('.gh-alert')?.textContent ?? ''}`;
    });
    expect(focused).toMatch(/^BUTTON .*Dismissible confirm/);
    await page.context().close();
  });
});
