import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

type DemoAccount = { username: string; password: string; totp?: { secret: string } };
const accounts = JSON.parse(
  readFileSync(new URL('../demo/accounts.json', import.meta.url), 'utf8'),
) as DemoAccount[];
const authApp = accounts.find((a) => a.username === 'authapp01')!;

/**
 * Passkeys end to end in Chromium (issue 24, decision 041b) with the browser's own virtual
 * authenticator over CDP (ctap2, internal, resident key, user verification): added on the security
 * page, signed in with after the password, stepped up with on the embedded widget, removed; a
 * passkey the service does not know is refused with a message. Keyboard only, axe on each screen.
 */
describe('passkeys: add, sign in, step up, remove, an unknown one refused', () => {
  const env = useServerAndBrowser();
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
  async function tabTo(page: Page, target: Locator) {
    await target.waitFor();
    for (let i = 0; i < 60 && !(await focused(target)); i++) await page.keyboard.press('Tab');
    expect(await focused(target)).toBe(true);
  }
  const totp = new TOTP({
    secret: Secret.fromBase32(authApp.totp!.secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  const codeNow = () => {
    env.server.clock.advance(30_000);
    return totp.generate({ timestamp: env.server.clock.now().getTime() });
  };

  async function withAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    return { cdp, authenticatorId };
  }

  async function typeLogin(page: Page) {
    await page.goto(`${env.server.origin}/#/login`);
    const username = page.getByRole('textbox', { name: /Username/ });
    await tabTo(page, username);
    expect(await username.getAttribute('autocomplete')).toBe('username webauthn');
    await page.keyboard.type(authApp.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(authApp.password);
    await page.keyboard.press('Enter');
  }

  /** The passkey screen's button, by keyboard. */
  async function usePasskey(page: Page) {
    await heading(page, "Verify it's you with a passkey").waitFor({ timeout: 15_000 });
    await tabTo(page, page.getByRole('button', { name: 'Use my passkey' }));
    await page.keyboard.press('Enter');
  }

  it('adds a passkey on the security page, signs in and steps up with it, removes it; an unknown one is refused', {
    timeout: 240_000,
  }, async () => {
    const context = await env.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const { cdp, authenticatorId } = await withAuthenticator(page);

    // Sign in with the authenticator app (no passkey yet), then the security page's step-up.
    await typeLogin(page);
    await heading(page, 'Enter the code from your authenticator app').waitFor({ timeout: 15_000 });
    await tabTo(page, page.getByRole('textbox', { name: /Security code/ }));
    await page.keyboard.type(codeNow());
    await page.keyboard.press('Enter');
    await heading(page, `Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
    await page.goto(`${env.server.origin}/#/security`);
    await heading(page, 'Enter the code from your authenticator app').waitFor({ timeout: 15_000 });
    await tabTo(page, page.getByRole('textbox', { name: /Security code/ }));
    await page.keyboard.type(codeNow());
    await page.keyboard.press('Enter');
    await heading(page, 'Security settings').waitFor({ timeout: 15_000 });
    const passkeys = page.getByRole('region', { name: 'Passkeys', exact: true });
    await passkeys.getByText('No passkey is saved for your account.').waitFor();
    await expectNoAxeViolations(page, 'security page with its Passkeys section');
    // Forced colours at 320 px: the section reflows, its Add button keeps a visible border, axe finds nothing.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const addPasskey = page.getByRole('button', { name: 'Add a passkey' });
    expect(await addPasskey.evaluate((b) => getComputedStyle(b).borderTopStyle)).not.toBe('none');
    await expectNoAxeViolations(page, 'Passkeys section, forced colours, 320 px');
    await page.emulateMedia({ forcedColors: 'none' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Add a passkey, by keyboard: the name, then the browser's ceremony (the virtual authenticator).
    await tabTo(page, passkeys.getByRole('button', { name: 'Add a passkey' }));
    await page.keyboard.press('Enter');
    const name = passkeys.getByRole('textbox', { name: /Name/ });
    await name.waitFor();
    await expectNoAxeViolations(page, 'Add a passkey form');
    await tabTo(page, name);
    await page.keyboard.type('Desk key');
    await page.keyboard.press('Enter');
    const added = passkeys.getByRole('heading', { name: 'Desk key', level: 3 });
    const refusal = passkeys.getByRole('alert');
    await added.or(refusal).first().waitFor({ timeout: 15_000 });
    // A refusal here says why (e.g. the page's origin is not among PASSKEY_ORIGINS).
    expect(await refusal.count(), (await refusal.allTextContents()).join(' ')).toBe(0);
    await passkeys.getByText('Recently added').waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // Sign out (from the home page, where the portal offers it).
    async function signOut() {
      await page.goto(`${env.server.origin}/#/home`);
      await heading(page, `Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
      await tabTo(page, page.getByRole('button', { name: 'Sign out' }));
      await page.keyboard.press('Enter');
      await page
        .waitForURL(/#\/(login|logout|session-ended|ended)/, { timeout: 15_000 })
        .catch(() => undefined);
    }
    await signOut();

    // The login screen's passkey autofill (conditional mediation): the virtual authenticator answers
    // its pending request as a customer choosing the passkey in the username field's list would; after
    // the password, the passkey step (offered first: the strongest) completes with that proof,
    // without a second prompt (passkey API, decision 041b).
    await typeLogin(page);
    await heading(page, `Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });
    await signOut();

    // Without the autofill (no one answers it on the login screen): password, then the passkey
    // screen's prompt. The login screen's pending request ends with it, or this prompt could not run.
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
    await typeLogin(page);
    await heading(page, "Verify it's you with a passkey").waitFor({ timeout: 15_000 });
    await expectNoAxeViolations(page, 'passkey screen (login)');
    // Forced colours at 320 px: the screen still reflows, its button keeps a visible border, axe finds nothing.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const use = page.getByRole('button', { name: 'Use my passkey' });
    expect(await use.evaluate((b) => getComputedStyle(b).borderTopStyle)).not.toBe('none');
    await expectNoAxeViolations(page, 'passkey screen (login), forced colours, 320 px');
    await page.emulateMedia({ forcedColors: 'none' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
    await usePasskey(page);
    await heading(page, `Welcome, ${authApp.username}`).waitFor({ timeout: 15_000 });

    // A step-up with it on the embedded widget, once it is established (decision 030).
    await env.server.ctx.db
      .updateTable('credentials')
      .set({ created_at: new Date(env.server.clock.now().getTime() - 3 * 24 * 3600 * 1000) })
      .where('kind', '=', 'passkey')
      .execute();
    await page.goto(`${env.server.origin}/widget/embed.html?journey=STEPUP`);
    await heading(page, "Verify it's you with a passkey").waitFor({ timeout: 15_000 });
    expect(await page.getByRole('checkbox', { name: "Don't ask me again on this device" }).count()).toBe(0);
    await expectNoAxeViolations(page, 'passkey screen (step-up)');
    await usePasskey(page);
    await page.getByText('Step-up complete (status 1200).').waitFor({ timeout: 15_000 });

    // A passkey the service does not know: refused with its message (1403 passkeyNotRecognized).
    await page.goto(`${env.server.origin}/widget/embed.html?journey=STEPUP`);
    await heading(page, "Verify it's you with a passkey").waitFor({ timeout: 15_000 });
    const origin = env.server.origin;
    const refused = await page.evaluate(async (base) => {
      const xsrf = document.cookie.match(/XSRF-TOKEN=([^;]+)/)?.[1] ?? '';
      const headers = { 'content-type': 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf) };
      await fetch(`${base}/api/user/factor/passkey/options`, { method: 'POST', headers, body: '{}' });
      const answer = await fetch(`${base}/api/user/factor/passkey/authentication`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          response: {
            id: 'dW5rbm93bi1jcmVkZW50aWFs',
            rawId: 'dW5rbm93bi1jcmVkZW50aWFs',
            type: 'public-key',
            response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
            clientExtensionResults: {},
          },
        }),
      });
      return (await answer.json()).responseBaseInfo.status;
    }, origin);
    expect(refused).toEqual({
      code: 1403,
      message:
        "This passkey isn't registered for your account. Choose another passkey or another way to verify.",
    });

    // Remove it on the security page (the step-up above is fresh), behind its confirmation.
    await page.goto(`${env.server.origin}/#/security`);
    await heading(page, 'Security settings').waitFor({ timeout: 15_000 });
    await tabTo(page, passkeys.getByRole('button', { name: 'Remove Desk key' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Remove Desk key?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'remove passkey dialog');
    await tabTo(page, dialog.getByRole('button', { name: 'Yes, remove' }));
    await page.keyboard.press('Enter');
    await passkeys.getByText('No passkey is saved for your account.').waitFor({ timeout: 15_000 });
  });
});
