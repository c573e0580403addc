import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { errorSummary, expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

type DemoAccount = {
  username: string;
  password: string;
  token?: { credentialId: string; secret: string };
  totp?: { secret: string };
};
const accounts = JSON.parse(
  readFileSync(new URL('../demo/accounts.json', import.meta.url), 'utf8'),
) as DemoAccount[];
const account = (username: string) => accounts.find((a) => a.username === username)!;
const authApp = account('authapp01');
const tokenUser = account('tokenuser1');

const blockedText =
  'Sorry, your account has been temporarily blocked due to too many attempts. Please try again 5 minutes from the time you first saw this message.';

/**
 * The token app and the authenticator app end to end (issue 12): the portal's widget against the
 * server, codes computed here from the demo secrets of demo/accounts.json with the server's
 * (movable) clock, as the customer's authenticator app would show them.
 */
describe('token app and authenticator app: sign-in, replay, block, resync', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext | undefined;
  let page: Page;

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  const field = (name: RegExp) => page.getByRole('textbox', { name });

  /**
   * The code the app shows at the server's time (or at `at`), `offset` steps of 30 s away (a
   * drifted token).
   */
  function codeOf(secret: string, offset = 0, at = env.server.clock.now().getTime()): string {
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    return totp.generate({ timestamp: at + offset * 30_000 });
  }
  /** A 6-digit code that is none of the codes within two steps of now: surely wrong. */
  function wrongCode(secret: string): string {
    const near = new Set([-2, -1, 0, 1, 2].map((s) => codeOf(secret, s)));
    for (let n = 0; ; n++) {
      const candidate = String(n * 111_111 + 123_456).slice(-6);
      if (!near.has(candidate)) return candidate;
    }
  }

  async function signIn(who: { username: string; password: string }) {
    context = await env.browser.newContext();
    page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).fill(who.username);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  async function submit(code: string, button: 'Continue' | 'Submit', label = /Security code/) {
    await field(label).fill(code);
    await page.getByRole('button', { name: button }).click();
  }

  it('authapp01 signs in with a computed code; the same code is refused next time; five wrong codes block for 5 minutes', async () => {
    const secret = authApp.totp!.secret;
    await signIn(authApp);
    await heading('Enter the code from your authenticator app').waitFor();
    await page
      .getByText(/^This 6-digit will confirm the connection between your authenticator app and .+\.$/)
      .waitFor();
    await page.getByRole('checkbox', { name: "Don't ask me again on this device" }).waitFor();
    await expectNoAxeViolations(page, 'TOTP screen');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Enter your security code.').waitFor();
    await expectNoAxeViolations(page, 'TOTP screen with an error');
    const used = codeOf(secret);
    await submit(used, 'Continue');
    await heading(`Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
    await context!.close();

    // The same code on the next sign-in: refused (a time step is accepted once).
    await signIn(authApp);
    await heading('Enter the code from your authenticator app').waitFor();
    await submit(used, 'Continue');
    await page.getByText('Security code not recognized. Try again.').waitFor();
    // Five wrong codes: the fifth shows the TOTP block page.
    for (let i = 1; i <= 5; i++) {
      await submit(wrongCode(secret), 'Continue');
      if (i < 5) {
        await page.getByText('Security code not recognized. Try again.').waitFor();
        await expect.poll(() => field(/Security code/).inputValue()).toBe('');
      }
    }
    await heading('We were unable to log you in').waitFor();
    await page.getByText(blockedText).waitFor();
    await expectNoAxeViolations(page, 'TOTP block page');
    // Back leaves for the login screen (the login journey).
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('textbox', { name: /Username/ }).waitFor();
    await context!.close();

    // During the block even the right code is refused; after 5 minutes it signs in.
    await signIn(authApp);
    await heading('Enter the code from your authenticator app').waitFor();
    env.server.clock.advance(30_000);
    await submit(codeOf(secret), 'Continue');
    await heading('We were unable to log you in').waitFor();
    await context!.close();
    env.server.clock.advance(5 * 60_000);
    await signIn(authApp);
    await heading('Enter the code from your authenticator app').waitFor();
    await submit(codeOf(secret), 'Continue');
    await heading(`Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
  });

  it('tokenuser1 signs in; two wrong codes lead to resync; two codes of a drifted token resync it and the next sign-in succeeds', async () => {
    const secret = tokenUser.token!.secret;
    env.server.clock.advance(60_000);
    await signIn(tokenUser);
    await heading('VIP access code').waitFor();
    await page.getByText('Enter the 6-digit security code from the VIP Access mobile app.').waitFor();
    await page
      .getByText(/^If you are having difficulties with your VIP Access security code, please call .+\.$/)
      .waitFor();
    await expectNoAxeViolations(page, 'token screen');
    await submit(codeOf(secret), 'Submit');
    await heading(`Welcome, ${tokenUser.username}`).waitFor({ timeout: 15_000 });
    await context!.close();

    // The token drifts 7 steps ahead (3.5 minutes, inside TOKEN_RESYNC_WINDOW_MINUTES): its codes are wrong to the server; two wrong codes: resync.
    env.server.clock.advance(60_000);
    await signIn(tokenUser);
    await heading('VIP access code').waitFor();
    await submit(codeOf(secret, 7), 'Submit');
    await page.getByText('Security code not recognized. Try again.').waitFor();
    await expectNoAxeViolations(page, 'token screen with an error');
    await submit(wrongCode(secret), 'Submit');
    await heading('We need to re-sync').waitFor();
    await expectNoAxeViolations(page, 'token resync');
    // Both fields are required, 6 digits each, with the summary and each field's message.
    await page.getByRole('button', { name: 'Submit' }).click();
    const summaryLinks = errorSummary(page, /There is a problem/).getByRole('link');
    await summaryLinks.first().waitFor();
    // Two targets of their own words, at least 24 px apart centre to centre (WCAG 2.4.4, 2.5.8).
    expect(await summaryLinks.allTextContents()).toEqual([
      'First security code: Enter your security code.',
      'Second security code: Enter your security code.',
    ]);
    const [a, b] = [(await summaryLinks.nth(0).boundingBox())!, (await summaryLinks.nth(1).boundingBox())!];
    expect(b.y + b.height / 2 - (a.y + a.height / 2)).toBeGreaterThanOrEqual(24);
    await field(/Second security code/).fill('12');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Enter your 6-digit security code.').first().waitFor();
    await expectNoAxeViolations(page, 'token resync with errors');
    // Two consecutive codes of the drifted token: resynced, back on the token screen.
    // Both read at one instant: read on each side of a 30 s step, they were not consecutive
    // (a clean clone's run failed so).
    const at = env.server.clock.now().getTime();
    await field(/First security code/).fill(codeOf(secret, 7, at));
    await field(/Second security code/).fill(codeOf(secret, 8, at));
    await page.getByRole('button', { name: 'Submit' }).click();
    await heading('VIP access code').waitFor();
    // The server's 'in sync' text, and the next code asked for (issue 26).
    await page.getByText('Your security code app is in sync again.').waitFor();
    await page.getByText('Enter the next security code that your VIP Access mobile app shows.').waitFor();
    await expectNoAxeViolations(page, 'token screen after a resync');
    await context!.close();

    // The next sign-in: the token's own (drifted) code a minute later signs in.
    env.server.clock.advance(60_000);
    await signIn(tokenUser);
    await heading('VIP access code').waitFor();
    await submit(codeOf(secret, 7), 'Submit');
    await heading(`Welcome, ${tokenUser.username}`).waitFor({ timeout: 15_000 });
  });

  it('by keyboard alone, in forced colours at 320 px: the authenticator-app screen and the token screen', async () => {
    // A fresh time step: the codes of the tests above were used.
    env.server.clock.advance(5 * 60_000);
    for (const [who, title] of [
      [authApp, 'Enter the code from your authenticator app'],
      [tokenUser, 'VIP access code'],
    ] as const) {
      context = await env.browser.newContext({ viewport: { width: 320, height: 640 } });
      page = await context.newPage();
      await page.emulateMedia({ forcedColors: 'active' });
      await page.goto(`${env.server.origin}/#/login`);
      await page.getByRole('textbox', { name: /Username/ }).fill(who.username);
      await page.getByLabel('Password', { exact: true }).fill(who.password);
      await page.keyboard.press('Enter');
      await heading(title).waitFor();
      // The heading takes focus; Tab reaches the code field, typing and Enter submit.
      await page.waitForFunction(() => /^H[1-3]$/.test(document.activeElement?.tagName ?? ''));
      const input = field(/Security code/);
      for (let i = 0; i < 6 && !(await input.evaluate((e) => e === document.activeElement)); i++) {
        await page.keyboard.press('Tab');
      }
      expect(await input.evaluate((e) => e === document.activeElement)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await expectNoAxeViolations(page, `${title}, forced colours, 320 px`);
      const secret = who === authApp ? authApp.totp!.secret : tokenUser.token!.secret;
      await page.keyboard.type(codeOf(secret, who === tokenUser ? 7 : 0));
      await page.keyboard.press('Enter');
      await heading(`Welcome, ${who.username}`).waitFor({ timeout: 15_000 });
      await context.close();
      context = undefined;
    }
  });
});
