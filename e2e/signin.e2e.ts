import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

const PASSWORD_ONLY = { username: 'alexdemo1', password: 'Harbor7Lights' };

describe('first journey: sign in with a password, the signed-in page, sign out', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  const sessionTokens = new Set<string>();

  async function openLogin() {
    context = await env.browser.newContext();
    page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
  }

  async function rememberTokens() {
    for (const c of await context.cookies())
      if (c.name === 'ET' || c.name === 'XSRF-TOKEN') sessionTokens.add(c.value);
  }

  it('signs in, shows who is signed in, signs out to Session Ended, and the guard then refuses', async () => {
    await openLogin();
    await expectNoAxeViolations(page, 'login');
    await page.getByLabel('Username', { exact: true }).fill(PASSWORD_ONLY.username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD_ONLY.password);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.getByRole('heading', { name: `Welcome, ${PASSWORD_ONLY.username}` }).waitFor();
    expect(page.url()).toMatch(/#\/home$/);
    await expect(page.getByText(`You are signed in as ${PASSWORD_ONLY.username}.`).isVisible()).resolves.toBe(
      true,
    );
    const et = (await context.cookies()).find((c) => c.name === 'ET');
    expect(et?.httpOnly).toBe(true);
    expect(et?.sameSite).toBe('Lax');
    await rememberTokens();
    await expectNoAxeViolations(page, 'signed-in page');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Session Ended' }).waitFor();
    await expect(page.getByText('You were successfully signed out of the portal').isVisible()).resolves.toBe(
      true,
    );
    expect((await context.cookies()).find((c) => c.name === 'ET')).toBeUndefined();
    await expectNoAxeViolations(page, 'Session Ended');

    // The old session is dead on the server: the signed-in page sends the visitor to login.
    await page.goto(`${env.server.origin}/#/home`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    expect(page.url()).toMatch(/#\/login$/);

    await context.close();
  });

  it('shows the spec message for a wrong password, clears the password and focuses the username', async () => {
    await openLogin();
    await page.getByLabel('Username', { exact: true }).fill(PASSWORD_ONLY.username);
    await page.getByLabel('Password', { exact: true }).fill('Wrong1Password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'incorrect' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      "You've entered an incorrect username or password. Please try again.",
    );
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    // The username field has focus (its autocomplete also offers saved passkeys: decision 041b).
    expect(
      await page.getByLabel('Username', { exact: true }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await expectNoAxeViolations(page, 'login with wrong password');
    await rememberTokens();
    await context.close();
  });

  it('tells which field is empty and focuses it', async () => {
    await openLogin();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Enter your username.').waitFor();
    // The username field has focus (its autocomplete also offers saved passkeys: decision 041b).
    expect(
      await page.getByLabel('Username', { exact: true }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.getByLabel('Username', { exact: true }).fill(PASSWORD_ONLY.username);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Enter your password.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe(
      'current-password',
    );
    await expectNoAxeViolations(page, 'login with empty fields');
    await context.close();
  });

  it('can be done with the keyboard alone, and show/hide reveals the password', async () => {
    await openLogin();
    await page.getByLabel('Username', { exact: true }).focus();
    await page.keyboard.type(PASSWORD_ONLY.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD_ONLY.password);
    const password = page.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await password.getAttribute('type')).toBe('text');
    await page.keyboard.press('Enter');
    expect(await password.getAttribute('type')).toBe('password');
    await password.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Welcome, ${PASSWORD_ONLY.username}` }).waitFor();
    await rememberTokens();
    await context.close();
  });

  it('wrote no password, session token or CSRF token to the server log', () => {
    const log = env.server.logs.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain('signed in');
    for (const secret of [PASSWORD_ONLY.password, 'Wrong1Password', ...sessionTokens]) {
      expect(log.includes(secret), `log contains a secret (${secret.slice(0, 3)}…)`).toBe(false);
    }
  });
});
