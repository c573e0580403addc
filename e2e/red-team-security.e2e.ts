import { readFileSync } from 'node:fs';
import jsQR from 'jsqr';
import { Secret, TOTP, URI } from 'otpauth';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

type DemoAccount = { username: string; password: string; totp?: { secret: string } };
const accounts = JSON.parse(
  readFileSync(new URL('../demo/accounts.json', import.meta.url), 'utf8'),
) as DemoAccount[];
const account = (username: string) => accounts.find((a) => a.username === username)!;
/** An authenticator app and an e-mail address: step-up by a code computed from the demo secret. */
const authApp = account('authapp01');
/** Text, voice and e-mail codes: the phone journey. */
const otpOnly = account('otponly01');

const recentlyAddedNotice =
  "Your recently added contact information won't appear right away. You need to wait 2–3 days before your new phone number can be used to verify your identity.";

/**
 * The portal's security page end to end (issue 12): the step-up it demands through the widget's
 * STEPUP journey, an authenticator app added by scanning its QR code (decoded here from a
 * screenshot), another session listed and ended, a trusted browser revoked, and a phone added that
 * stays unusable (the widget's 'recently added' notice) until the server's clock passes the wait.
 */
describe('red team: the security page reflows at 320 px with long unbroken text', () => {
  const env = useServerAndBrowser();
  const contexts: BrowserContext[] = [];

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  async function open(options: Parameters<typeof env.browser.newContext>[0] = {}) {
    const context = await env.browser.newContext(options);
    contexts.push(context);
    return context.newPage();
  }

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  /** The code an authenticator app with this secret shows at the server's time. */
  const codeOf = (totp: TOTP) => totp.generate({ timestamp: env.server.clock.now().getTime() });
  const demoTotp = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  /** A code is accepted once per time step: the next use of the same app waits for the next step. */
  const nextStep = () => env.server.clock.advance(30_000);

  async function latestCode(to: string): Promise<string> {
    const response = await fetch(`${env.server.origin}/api/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await response.json()) as { messages: Array<{ code: string | null }> };
    const code = body.messages[0]?.code;
    if (!code) throw new Error(`no code sent to ${to}`);
    return code;
  }

  async function logIn(page: Page, who: { username: string; password: string }) {
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).fill(who.username);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  /** authapp01 signs in with its authenticator code (optionally trusting this browser). */
  async function signInAuthApp(page: Page, trust = false) {
    await logIn(page, authApp);
    await heading(page, 'Enter the code from your authenticator app').waitFor();
    if (trust) await page.getByRole('checkbox', { name: "Don't ask me again on this device" }).check();
    nextStep();
    await page.getByRole('textbox', { name: /Security code/ }).fill(codeOf(demoTotp(authApp.totp!.secret)));
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, `Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
  }

  /** The live region's text, or a role=alert's, holds `text` (it was announced). */
  async function expectAnnounced(page: Page, text: string) {
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

  const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

  /** Reads the QR code on screen as a scanning app would: a screenshot, decoded by jsQR. */
  async function scan(qr: Locator): Promise<string> {
    const png = PNG.sync.read(await qr.screenshot());
    const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    if (!found) throw new Error('no QR code found in the screenshot');
    return found.data;
  }

  it('finding 4: a 60-character authenticator name without a space wraps at 320 px', {
    timeout: 180_000,
  }, async () => {
    const page = await open({ viewport: { width: 320, height: 640 } });
    await signInAuthApp(page);
    await page.getByRole('link', { name: 'Security settings' }).click();
    await heading(page, 'Enter the code from your authenticator app').waitFor();
    nextStep();
    await page.getByRole('textbox', { name: /Security code/ }).fill(codeOf(demoTotp(authApp.totp!.secret)));
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Security settings').waitFor({ timeout: 15_000 });
    const apps = section(page, 'Authenticator app');
    await apps.getByRole('button', { name: 'Add an authenticator app' }).click();
    const scanned = URI.parse(
      await scan(apps.getByRole('img', { name: 'QR code to add your account to an authenticator app' })),
    ) as TOTP;
    const name = 'W'.repeat(60);
    await apps.getByRole('textbox', { name: /Code from the app/ }).fill(codeOf(scanned));
    await apps.getByRole('textbox', { name: /Name/ }).fill(name);
    await apps.getByRole('button', { name: 'Confirm' }).click();
    await apps.getByRole('heading', { name, level: 3 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page, 'security page with a long name, 320 px');
  });
});
