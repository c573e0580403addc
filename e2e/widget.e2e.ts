import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath, expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

const accounts = {
  passwordOnly: { username: 'alexdemo1', password: 'Harbor7Lights' },
  blocked: { username: 'blocked01', password: 'Orchid2Vale' },
  locked: { username: 'locked001', password: 'Falcon9Ridge' },
  expired: { username: 'expired01', password: 'Autumn3Field' },
  temporary: { username: 'temppass01', password: 'Winter6Cloud' },
  forced: { username: 'forceupd01', password: 'Quartz5Lake' },
  prohibited: { username: 'prohibit01', password: 'Velvet8Moss' },
};

describe('the sign-in widget: account states, saved usernames, change username, embedding', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;

  async function signIn(
    account: { username: string; password: string },
    /** A script run in the page just before the submit, with its argument (a measurement). */
    measure?: { script: (arg: string) => void; arg: string },
  ) {
    context = await env.browser.newContext();
    page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    if (measure) await page.evaluate(measure.script, measure.arg);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  const heading = (name: string) => page.getByRole('heading', { name, exact: true });

  it('blocked account: the blocked page, and Cancel returns to login', async () => {
    await signIn(accounts.blocked);
    await heading('Your account has been blocked').waitFor();
    await page
      .getByText('Sorry, your account has been blocked for security reasons. Call us so we can help.')
      .waitFor();
    await page.getByRole('link', { name: 'Call 1-800-555-0199' }).waitFor();
    await expectNoAxeViolations(page, 'blocked');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await heading('Log in to your account').waitFor();
    await context.close();
  });

  it('locked account: too many attempts, Reset password leads to the reset address', async () => {
    await signIn(accounts.locked);
    await heading('Your account has been locked').waitFor();
    await page
      .getByText(
        "You've made too many login attempts. For security reasons, you'll need to reset your password.",
      )
      .waitFor();
    await expectNoAxeViolations(page, 'blocked for reset');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/#\/(username|login)$/);
    await context.close();
  });

  for (const [label, account] of [
    ['expired', accounts.expired],
    ['temporary', accounts.temporary],
  ] as const) {
    it(`${label} password: the expired-password page`, async () => {
      await signIn(account);
      await heading('You must create a new password').waitFor();
      await page.getByText('Your current password is not strong enough, or has expired.').waitFor();
      await expectNoAxeViolations(page, `${label} password`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await heading('Log in to your account').waitFor();
      await context.close();
    });
  }

  it('a heading takes focus 400 ms after its screen appears, and not before', async () => {
    // A measured clock in the page: when the heading appeared, and every element focus went to.
    const name = 'Your account has been blocked';
    const script = (text: string) => {
      const seen = { appeared: -1, focus: [] as Array<{ at: number; text: string }> };
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        if (
          seen.appeared < 0 &&
          [...document.querySelectorAll('h1, h2')].some((h) => h.textContent === text)
        ) {
          seen.appeared = performance.now();
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
      document.addEventListener('focusin', (e) =>
        seen.focus.push({ at: performance.now(), text: (e.target as HTMLElement).textContent ?? '' }),
      );
    };
    await signIn(accounts.blocked, { script, arg: name });
    await page.waitForFunction((text) => document.activeElement?.textContent === text, name);
    const seen = await page.evaluate(
      () =>
        (window as unknown as { seen: { appeared: number; focus: Array<{ at: number; text: string }> } })
          .seen,
    );
    const onHeading = seen.focus.filter((f) => f.text === name);
    expect(seen.appeared).toBeGreaterThan(0);
    // Focus reached the heading once, 400 ms or more after it appeared (and not long after): until
    // then it was elsewhere.
    expect(onHeading).toHaveLength(1);
    expect(onHeading[0]!.at - seen.appeared).toBeGreaterThanOrEqual(400);
    expect(onHeading[0]!.at - seen.appeared).toBeLessThan(2000);
    await context.close();
  });

  it('mounts on a plain page from the built bundle, signs in, and unmounts leaving nothing', async () => {
    context = await env.browser.newContext();
    page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.server.origin}/widget/embed.html`);
    await page.getByRole('heading', { name: 'Log in to your account', level: 2 }).waitFor();
    await expectNoAxeViolations(page, 'plain page');
    await page.getByRole('textbox', { name: /Username/ }).fill(accounts.passwordOnly.username);
    await page.getByLabel('Password', { exact: true }).fill(accounts.passwordOnly.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(`Signed in as ${accounts.passwordOnly.username} (status 1200).`).waitFor();
    await page.getByRole('button', { name: 'Remove the widget' }).click();
    await page.getByText('The widget was removed.').waitFor();
    expect(await page.locator('#signin').innerHTML()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('remembers a username across a browser restart', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'gh-profile-'));
    try {
      const open = () =>
        chromium.launchPersistentContext(profile, {
          executablePath: chromiumPath,
          headless: true,
          args: chromiumArgs,
        });
      let persistent = await open();
      page = persistent.pages()[0] ?? (await persistent.newPage());
      await page.goto(`${env.server.origin}/#/login`);
      await page.getByRole('textbox', { name: /Username/ }).fill(accounts.passwordOnly.username);
      await page.getByLabel('Password', { exact: true }).fill(accounts.passwordOnly.password);
      await page.getByRole('checkbox', { name: 'Remember my username' }).check();
      await page.getByRole('button', { name: 'Log in' }).click();
      await heading(`Welcome, ${accounts.passwordOnly.username}`).waitFor();
      await persistent.close();

      persistent = await open();
      page = persistent.pages()[0] ?? (await persistent.newPage());
      await page.goto(`${env.server.origin}/#/login`);
      const select = page.getByRole('combobox', { name: /Username/ });
      await select.waitFor();
      expect(await select.inputValue()).toBe(accounts.passwordOnly.username);
      await expectNoAxeViolations(page, 'login with a saved username');
      await select.selectOption({ label: 'Use a different username' });
      await page.getByRole('textbox', { name: /Username/ }).waitFor();
      expect(await page.getByRole('textbox', { name: /Username/ }).inputValue()).toBe('');
      await page.getByRole('button', { name: 'Use a saved username' }).click();
      await page.getByLabel('Password', { exact: true }).fill(accounts.passwordOnly.password);
      await page.getByRole('checkbox', { name: 'Remember my username' }).uncheck();
      await page.getByRole('button', { name: 'Log in' }).click();
      await heading(`Welcome, ${accounts.passwordOnly.username}`).waitFor();
      await page.goto(`${env.server.origin}/#/logout`);
      await heading('Session Ended').waitFor();
      await page.goto(`${env.server.origin}/#/login`);
      await page.getByRole('textbox', { name: /Username/ }).waitFor();
      expect(await page.getByRole('combobox').count()).toBe(0);
      await persistent.close();
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('prohibited location: the prohibited page', async () => {
    await signIn(accounts.prohibited);
    await heading("You can't access this website right now").waitFor();
    await expectNoAxeViolations(page, 'prohibited');
    await context.close();
  });

  it('forced username update: each checklist rule live, each server code, confirmation, then signed in', async () => {
    await signIn(accounts.forced);
    await heading('Update your username').waitFor();
    await expectNoAxeViolations(page, 'forced username update');
    await page.getByRole('button', { name: 'Update username' }).click();
    await heading('Create a new username').waitFor();
    await expectNoAxeViolations(page, 'change username');

    const field = page.getByRole('textbox', { name: /New username/ });
    const rule = (text: string) => page.getByRole('listitem').filter({ hasText: text });
    const met = async (text: string) => (await rule(text).getAttribute('data-met')) === 'true';
    const length = 'Use 8–15 letters and/or numbers.';
    const letters =
      'If your username is between 9–11 characters in length, it must contain at least two letters.';
    const sequences = "Don't repeat a letter or number";
    const similar = 'Your username cannot share more than 5 consecutive characters with your password.';

    await field.pressSequentially('abc');
    expect(await met(length)).toBe(false);
    await field.fill('');
    await field.pressSequentially('a12345678');
    expect([await met(length), await met(letters), await met(sequences)]).toEqual([true, false, false]);
    await field.fill('');
    await field.pressSequentially('ab1357924');
    expect([await met(length), await met(letters), await met(sequences)]).toEqual([true, true, true]);
    // Typed without key-up (a paste): the checklist waits for the next key-up, as the spec says.
    await field.fill('xx');
    expect(await met(length)).toBe(true);
    await field.fill('');
    await field.pressSequentially('quartz5lak');
    await page.getByLabel('Current password', { exact: true }).pressSequentially(accounts.forced.password);
    expect(await met(similar)).toBe(false);
    await page.getByRole('button', { name: 'Update username' }).click();
    await page.getByRole('alert').filter({ hasText: 'Username requirements are not met.' }).waitFor();
    await expectNoAxeViolations(page, 'change username with unmet rules');

    // Server codes: wrong password (1403), name taken (1474).
    await field.fill('');
    await field.pressSequentially('newname42');
    const password = page.getByLabel('Current password', { exact: true });
    await password.fill('');
    await password.pressSequentially('Wrong1Password');
    await page.getByRole('button', { name: 'Update username' }).click();
    await page.getByRole('alert').filter({ hasText: 'You entered your password incorrectly.' }).waitFor();
    await field.fill('');
    await field.pressSequentially('alexdemo1');
    await password.pressSequentially(accounts.forced.password);
    await page.getByRole('button', { name: 'Update username' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The username you entered is already taken. Please try another one.' })
      .waitFor();

    await field.fill('');
    await field.pressSequentially('newname42');
    await password.fill('');
    await password.pressSequentially(accounts.forced.password);
    await page.getByRole('button', { name: 'Update username' }).click();
    await heading("You've changed your username").waitFor();
    await page.getByText('Your new username is newname42.').waitFor();
    await expectNoAxeViolations(page, 'username confirmation');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('You are signed in as newname42.').waitFor();
    await context.close();

    // The old name no longer signs in; the new one does.
    await signIn(accounts.forced);
    await page.getByText("You've entered an incorrect username or password. Please try again.").waitFor();
    await context.close();
  });
});
