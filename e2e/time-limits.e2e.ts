import { readFileSync } from 'node:fs';
import { codeAt, readDemoStaff, timeStep } from '@gatehouse/identity';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAnnounced, expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

/**
 * Issue 26 §4 point 4 (WCAG 2.2.1 Timing Adjustable; docs/decisions/049-time-limit-warnings.md):
 * the console's idle limit (STAFF_IDLE_MINUTES, 15) and the security page's step-up
 * (SECURITY_STEPUP_MINUTES, 10) warn TIME_LIMIT_WARNING_SECONDS (120) before they end and offer to
 * extend; typing keeps a console session alive; at the end the person is told. Time moves on both
 * clocks at once: the browser's (Playwright's `page.clock`) and the server's (its TestClock).
 */

const staff = Object.fromEntries(
  readDemoStaff(new URL('../demo/staff.json', import.meta.url)).map((s) => [s.name, s]),
);
type DemoAccount = { username: string; password: string; totp?: { secret: string } };
const authApp = (
  JSON.parse(readFileSync(new URL('../demo/accounts.json', import.meta.url), 'utf8')) as DemoAccount[]
).find((a) => a.username === 'authapp01')!;

const MINUTE = 60_000;

describe('time limits: a warning before the end, an offer to extend, and word of the end', () => {
  const env = useServerAndBrowser();
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  /** A page whose clock the test moves (installed before anything loads). */
  async function open(options: Parameters<typeof env.browser.newContext>[0] = {}): Promise<Page> {
    const context = await env.browser.newContext(options);
    contexts.push(context);
    const page = await context.newPage();
    await page.clock.install();
    return page;
  }

  /** Moves the browser's clock and the server's together (timers due in between fire). */
  async function pass(page: Page, ms: number) {
    env.server.clock.advance(ms);
    await page.clock.fastForward(ms);
  }

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

  /**
   * What a screen reader hears when focus lands in a dialog: the focused element's name, and the
   * dialog's accessible name and description (aria-labelledby, aria-describedby).
   */
  function heardInDialog(page: Page) {
    return page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      const dialog = active?.closest('[role="dialog"]');
      const text = (ids: string | null | undefined) =>
        (ids ?? '')
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim();
      return {
        focused: active?.textContent?.trim() ?? '',
        role: dialog?.getAttribute('role') ?? null,
        name: text(dialog?.getAttribute('aria-labelledby')),
        description: text(dialog?.getAttribute('aria-describedby')),
      };
    });
  }

  /** The dialog fits a 320 px wide screen: nothing scrolls sideways, its buttons are in view. */
  async function expectReflow(page: Page, dialog: Locator) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    for (const button of await dialog.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
    }
    // Forced colours: the dialog keeps a border of its own where its shadow is gone.
    expect(await dialog.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
  }

  function staffCode(name: string): string {
    const into = env.server.clock.now().getTime() % 30_000;
    env.server.clock.advance(30_000 - into + 1000);
    const secret = new Uint8Array(Secret.fromBase32(staff[name]!.totpSecret).buffer);
    return codeAt(secret, timeStep(env.server.clock.now(), 30), { algorithm: 'SHA1', digits: 6 });
  }

  async function staffSignIn(page: Page, name: string) {
    await page.goto(`${env.server.consoleOrigin}/console/`);
    await heading(page, 'Staff sign-in').waitFor();
    await page.getByRole('textbox', { name: /Staff name/ }).fill(name);
    await page.getByLabel(/^Password/).fill(staff[name]!.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Authenticator code').waitFor();
    await page.getByRole('textbox', { name: /Authenticator code/ }).fill(staffCode(name));
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading(page, 'Find a customer').waitFor();
    await page.getByRole('textbox', { name: /Customer username/ }).fill('emailonly1');
    await page.getByRole('button', { name: 'Find' }).click();
    await heading(page, 'Customer emailonly1').waitFor();
  }

  const extendCalls = (page: Page) => {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/console/session/extend')) calls.push(r.method());
    });
    return calls;
  };

  it('console: two minutes before the idle end a focused, described dialog offers "Stay signed in"; Enter keeps the session and the half-typed note (keyboard, forced colours, 320 px)', {
    timeout: 120_000,
  }, async () => {
    const page = await open({ viewport: { width: 320, height: 640 } });
    await page.emulateMedia({ forcedColors: 'active' });
    await staffSignIn(page, 'rita.rep');
    const note = page.getByRole('textbox', { name: /Note on the verification/ });
    await note.fill('Called back on the number on file, asked about');
    await note.focus();

    await pass(page, 12 * MINUTE);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await pass(page, MINUTE + 1000);
    const dialog = page.getByRole('dialog', { name: 'Your session is about to end' });
    await dialog.waitFor();
    const stay = dialog.getByRole('button', { name: 'Stay signed in' });
    await expect.poll(() => focused(stay)).toBe(true);
    expect(await heardInDialog(page)).toEqual({
      focused: 'Stay signed in',
      role: 'dialog',
      name: 'Your session is about to end',
      description:
        'For security, you will be signed out in 2 minutes because there has been no activity. Choose Stay signed in to keep working: what you have typed stays on the page.',
    });
    await expectNoAxeViolations(page, 'console idle warning, forced colours, 320 px');
    await expectReflow(page, dialog);
    // Under a minute left, it counts in seconds.
    await pass(page, 61_000);
    await expect
      .poll(async () => (await heardInDialog(page)).description)
      .toMatch(/signed out in \d\d seconds/);

    // Keyboard alone: Enter on the focused button.
    const calls = extendCalls(page);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(calls).toEqual(['POST']);
    await expectAnnounced(page, 'You are still signed in.');
    await expect.poll(() => focused(note)).toBe(true);
    expect(await note.inputValue()).toBe('Called back on the number on file, asked about');

    // The server's clock is past the first 15 minutes: the session lives because of the extend.
    await pass(page, 5 * MINUTE);
    await page.getByRole('textbox', { name: /Customer username/ }).fill('emailonly1');
    await page.getByRole('button', { name: 'Find' }).click();
    await heading(page, 'Customer emailonly1').waitFor();
    expect(await heading(page, 'Staff sign-in').count()).toBe(0);
  });

  it('console: typing counts as activity (one keep-alive a minute at most); at the end the console signs out and says what happened and where to sign in', {
    timeout: 120_000,
  }, async () => {
    const page = await open();
    await staffSignIn(page, 'ray.rep');
    const calls = extendCalls(page);
    const note = page.getByRole('textbox', { name: /Note on the verification/ });
    await note.focus();

    await pass(page, 10 * MINUTE);
    const keepAlive = page.waitForResponse((r) => r.url().endsWith('/api/console/session/extend'));
    await page.keyboard.type('Answered the ');
    expect((await keepAlive).status()).toBe(200);
    await page.keyboard.type('questions on file');
    expect(calls).toEqual(['POST']);

    // 14 minutes after the last click, 4 after typing: no warning (it was due at 13 without typing).
    await pass(page, 4 * MINUTE);
    expect(await page.getByRole('dialog').count()).toBe(0);
    // 13 minutes after typing, the warning; the server still knows the session (22 minutes after the click).
    await pass(page, 9 * MINUTE + 1000);
    const dialog = page.getByRole('dialog', { name: 'Your session is about to end' });
    await dialog.waitFor();
    expect(calls).toEqual(['POST']);
    expect(
      (await page.request.get(`${env.server.consoleOrigin}/api/console/session`)).status(),
      'the session is alive on the server',
    ).toBe(200);

    // Nobody answers: at the end the console signs out, says so, and offers the sign-in.
    const signOut = page.waitForRequest(
      (r) => r.method() === 'DELETE' && r.url().endsWith('/api/console/session'),
    );
    await pass(page, 2 * MINUTE);
    await signOut;
    const told =
      'You were signed out after 15 minutes without activity, to protect customer details. Anything you had typed and not sent was not kept. Sign in again below to continue.';
    await heading(page, 'Staff sign-in').waitFor();
    await page.getByRole('main').getByText(told).waitFor();
    await expectAnnounced(page, told);
    await expect.poll(() => focused(heading(page, 'Staff sign-in'))).toBe(true);
    await page.getByRole('textbox', { name: /Staff name/ }).waitFor();
    expect((await page.request.get(`${env.server.consoleOrigin}/api/console/session`)).status()).toBe(401);
    await expectNoAxeViolations(page, 'console sign-in after the idle end');
  });

  it("console: two tabs share one session, so one tab's typing keeps the other from warning, and Stay signed in in one closes the warning in both", {
    timeout: 120_000,
  }, async () => {
    const first = await open();
    await staffSignIn(first, 'sam.super');
    const second = await first.context().newPage();
    await second.goto(`${env.server.consoleOrigin}/console/`);
    await heading(second, 'Find a customer').waitFor();
    const field = second.getByRole('textbox', { name: /Customer username/ });
    await field.focus();

    await pass(first, 10 * MINUTE);
    // The first tab hears of the second tab's activity through their channel: a listener of the
    // test's own, made after the console's, hears it after the console's did (messages reach a
    // page's channels in the order they were made), so the clock moves only once the tab knows.
    // The message carries the second tab's clock, so the time it is compared with is read there:
    // the two pages' fake clocks drift apart by tens of milliseconds (each page's clock is
    // paused while its own timers run on a fast-forward), and a time read in the first tab could
    // be later than the keep-alive's own (it was, 1 run in 3).
    const heard = first.evaluate(
      (typedFrom) =>
        new Promise<number>((resolve) => {
          const channel = new BroadcastChannel('gatehouse-console-activity');
          channel.onmessage = (event) => {
            // The keep-alive the typing sends, not an earlier call of the second tab.
            if ((event.data as number) < typedFrom) return;
            channel.close();
            resolve(event.data as number);
          };
        }),
      await second.evaluate(() => Date.now()),
    );
    const keepAlive = second.waitForResponse((r) => r.url().endsWith('/api/console/session/extend'));
    await second.keyboard.type('carla');
    expect((await keepAlive).status()).toBe(200);
    expect(typeof (await heard)).toBe('number');
    // The first tab's own last call is 14 minutes old: it would have warned at 13 alone.
    await pass(first, 4 * MINUTE);
    expect(await first.getByRole('dialog').count()).toBe(0);
    await pass(first, 9 * MINUTE + 1000);
    const warning = (page: Page) => page.getByRole('dialog', { name: 'Your session is about to end' });
    await warning(first).waitFor();
    await warning(second).waitFor();
    await warning(first).getByRole('button', { name: 'Stay signed in' }).click();
    await warning(first).waitFor({ state: 'detached' });
    await warning(second).waitFor({ state: 'detached' });
    expect(await field.inputValue()).toBe('carla');
  });

  // --- the security page's step-up ------------------------------------------------------------

  const codeOf = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: env.server.clock.now().getTime(),
    });
  /** A code is accepted once per time step: each use of the app waits for the next step. */
  async function enterAppCode(page: Page) {
    await heading(page, 'Enter the code from your authenticator app').waitFor();
    env.server.clock.advance(30_000);
    await page.getByRole('textbox', { name: /Security code/ }).fill(codeOf(authApp.totp!.secret));
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('security page: two minutes before the step-up ends a dialog offers "Verify again"; the new step-up keeps the half-typed form and focus goes back to it; ignored, the page closes saying why and keeps the form', {
    timeout: 180_000,
  }, async () => {
    const page = await open({ viewport: { width: 320, height: 640 } });
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).fill(authApp.username);
    await page.getByLabel('Password', { exact: true }).fill(authApp.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await enterAppCode(page);
    await heading(page, `Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Security settings' }).click();
    await enterAppCode(page);
    const title = heading(page, 'Security settings');
    await title.waitFor({ timeout: 30_000 });

    const contacts = page.getByRole('region', { name: 'Phones and e-mails', exact: true });
    await contacts.getByRole('button', { name: 'Add a phone' }).click();
    const phone = contacts.getByRole('textbox', { name: /Phone number/ });
    await phone.fill('(202) 555-01');
    await phone.focus();

    await pass(page, 7 * MINUTE);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await pass(page, MINUTE + 1000);
    const dialog = page.getByRole('dialog', { name: 'Your security settings are about to close' });
    await dialog.waitFor();
    const again = dialog.getByRole('button', { name: 'Verify again' });
    await expect.poll(() => focused(again)).toBe(true);
    expect(await heardInDialog(page)).toEqual({
      focused: 'Verify again',
      role: 'dialog',
      name: 'Your security settings are about to close',
      description:
        'For your security, in 2 minutes you will need to verify your identity again to make changes here. Verify again now to keep going: what you have typed stays on this page.',
    });
    await expectNoAxeViolations(page, 'security page step-up warning, forced colours, 320 px');
    await expectReflow(page, dialog);

    // Keyboard alone: Enter on 'Verify again'; the widget asks for a factor, the form waits hidden.
    await page.keyboard.press('Enter');
    await heading(page, 'Verify your identity to continue').waitFor();
    await page
      .getByText(
        'Verify your identity again to keep your security settings open. What you have typed on the page is kept.',
      )
      .waitFor();
    expect(await phone.isVisible()).toBe(false);
    await enterAppCode(page);
    await title.waitFor({ timeout: 30_000 });
    await expect.poll(() => focused(phone)).toBe(true);
    expect(await phone.inputValue()).toBe('(202) 555-01');

    // A full window again: no warning 7 minutes on; at 8, the warning; Escape closes it, nothing lost.
    await pass(page, 7 * MINUTE);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await pass(page, MINUTE + 1000);
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused(phone)).toBe(true);
    expect(await phone.inputValue()).toBe('(202) 555-01');

    // Ignored to the end: the page closes, says why, and the form is still there after verifying.
    await pass(page, 2 * MINUTE);
    const ended =
      'For your security, your security settings closed because some time has passed since you verified your identity. Verify again to continue: what you had typed on the page is kept.';
    await heading(page, 'Verify your identity to continue').waitFor();
    await page.getByRole('main').getByText(ended).waitFor();
    await expectAnnounced(page, ended);
    await expectNoAxeViolations(page, 'security page step-up after the end, forced colours, 320 px');
    await enterAppCode(page);
    await title.waitFor({ timeout: 30_000 });
    await expect.poll(() => focused(phone)).toBe(true);
    expect(await phone.inputValue()).toBe('(202) 555-01');
  });
});
