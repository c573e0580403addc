import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, spokenText } from './support/browser.ts';
import { latestCode as latestCodeOf, useServerAndBrowser } from './support/server.ts';

/**
 * Issue 9 (widget part): the widget journeys by keyboard alone on a plain page, every failed
 * submit announced (a live region put on the page by that submit), every screen titled, focus
 * never lost to <body>, the desktop layout, the pages for an ended session and a blocked account.
 */
const otpOnly = { username: 'otponly01', password: 'River8Stone' };
const passwordOnly = { username: 'alexdemo1', password: 'Harbor7Lights' };
const hostTitle = 'Gatehouse widget on a plain page';

describe('the sign-in widget by keyboard: announcements, titles, focus, layout', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;

  afterEach(async () => {
    await context?.close();
  });

  async function open(query = '', viewport = { width: 1024, height: 900 }) {
    context = await env.browser.newContext({ viewport });
    page = await context.newPage();
    await page.goto(`${env.server.origin}/widget/embed.html${query}`);
  }

  const heading = (name: string) => page.getByRole('heading', { name, exact: true });

  /** The accessible name of the focused element, as far as this test needs it. */
  const focusedName = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return '';
      const labelled = el.getAttribute('aria-labelledby');
      if (labelled) return document.getElementById(labelled)?.textContent ?? '';
      const label = (el as HTMLInputElement).labels?.[0]?.textContent;
      return (el.getAttribute('aria-label') ?? label ?? el.textContent ?? '').trim();
    });

  /** Tab (forwards) until the focused element's name starts with `name`. */
  async function tabTo(name: string) {
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if ((await focusedName()).startsWith(name)) return;
    }
    throw new Error(`Tab never reached "${name}"; focus is on "${await focusedName()}"`);
  }

  /** Marks the live regions on the page now, so that a check can ask for a new one. */
  const markLive = () =>
    page.evaluate(() => {
      for (const el of document.querySelectorAll('[role="alert"],[role="status"],[aria-live]'))
        (el as HTMLElement).dataset.seen = '1';
    });

  /**
   * The failed submit is announced: its text is in a live region that the submit put on the page
   * (so a screen reader speaks it whatever holds focus), or in the description of an element that
   * took focus because of it.
   */
  async function expectAnnounced(text: string, focusBefore: string) {
    await page.waitForFunction(
      ([t, before]) => {
        const fresh = [...document.querySelectorAll('[role="alert"],[role="status"],[aria-live]')].some(
          (el) => !(el as HTMLElement).dataset.seen && el.textContent?.includes(t),
        );
        if (fresh) return true;
        const active = document.activeElement as HTMLElement | null;
        if (!active || active.id === before) return false;
        const ids = active.getAttribute('aria-describedby')?.split(' ') ?? [];
        return ids.some((id) => document.getElementById(id)?.textContent?.includes(t));
      },
      [text, focusBefore] as const,
      { timeout: 5000 },
    );
  }

  /** Presses Enter where focus is and checks that `text` is announced. */
  async function failWithEnter(text: string) {
    await markLive();
    const before = await page.evaluate(() => document.activeElement?.id ?? '');
    await page.keyboard.press('Enter');
    await expectAnnounced(text, before);
  }

  const focusIsOnBody = () => page.evaluate(() => document.activeElement === document.body);
  /** Waits until focus is on the heading of that name (the spec's 400 ms arrival focus, or a return). */
  const headingFocused = (name: string) =>
    page.waitForFunction((text) => {
      const active = document.activeElement;
      return !!active && /^H[1-6]$/.test(active.tagName) && active.textContent === text;
    }, name);

  const latestCode = (to: string) => latestCodeOf(env.server, to);

  it('login and a texted code by keyboard alone: each failed submit announced, titles, both links, voice switch clears errors, finish ends input', async () => {
    await open();
    await heading('Log in to your account').waitFor();
    await page.waitForFunction((t) => document.title === `Log in to your account – ${t}`, hostTitle);
    await tabTo('Username');
    await failWithEnter('Enter your username.');
    await page.waitForFunction(() => document.title.startsWith('Error: Log in to your account'));
    await expectNoAxeViolations(page, 'login with errors');
    // The same failure again is announced again.
    await failWithEnter('Enter your username.');

    await page.keyboard.type(otpOnly.username);
    await tabTo('Password');
    await page.keyboard.type('Wrong1Password');
    await failWithEnter("You've entered an incorrect username or password. Please try again.");
    await page.keyboard.press('Tab');
    await page.keyboard.type(otpOnly.password);
    await page.keyboard.press('Enter');

    await heading('Verify your identity').waitFor();
    await page.waitForFunction((t) => document.title === `Verify your identity – ${t}`, hostTitle);
    // A phone and an e-mail: both ways out are offered (spec §2).
    await page.getByRole('button', { name: 'Get the code another way' }).waitFor();
    await page.getByRole('button', { name: "Can't receive the code?" }).waitFor();
    await expectNoAxeViolations(page, 'OTP contact');
    await tabTo('Text me the code');
    await page.keyboard.press('Enter');

    await heading('Enter the code we texted you').waitFor();
    await page.waitForFunction((t) => document.title === `Enter the code we texted you – ${t}`, hostTitle);
    const field = page.getByRole('textbox', { name: /Security code/ });
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    await tabTo('Security code');
    await failWithEnter('Enter your security code.');
    await page.keyboard.type('123');
    await failWithEnter('Enter your 6-digit security code.');
    const code = await latestCode('+12025550143');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(code === '000000' ? '111111' : '000000');
    await failWithEnter('Security code not recognized. Try again.');
    expect(await field.inputValue()).toBe('');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.waitForFunction(() => document.title.startsWith('Error: Enter the code we texted you'));
    await expectNoAxeViolations(page, 'OTP code with an error');

    // The voice call switches channel: the text channel's error goes with it.
    await tabTo('call me with the code');
    await page.keyboard.press('Enter');
    await heading('Enter the code from our call').waitFor();
    expect(await page.getByText('Security code not recognized. Try again.').count()).toBe(0);
    await page.waitForFunction(() => !document.title.startsWith('Error:'));
    expect(await field.getAttribute('autocomplete')).toBe('off');
    // The voice screen names the (masked) number it calls (issue 26).
    await expect
      .poll(() => spokenText(page.getByText(/^We are calling/)))
      .toBe('We are calling number ending in 0 1 4 3 with the code. It will expire after 30 minutes.');
    await expectNoAxeViolations(page, 'OTP code by voice');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(await latestCode('+12025550143'));
    await page.keyboard.press('Enter');

    await page.getByText(`Signed in as ${otpOnly.username} (status 1200).`).waitFor();
    // Finished: the widget says so, holds focus, and takes no more input.
    const done = page.locator('#signin').getByRole('status');
    expect(await done.textContent()).toBe("You're signed in.");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("You're signed in.");
    expect(await page.locator('#signin').getByRole('button').count()).toBe(0);
    expect(await page.locator('#signin').getByRole('textbox').count()).toBe(0);
    await expectNoAxeViolations(page, 'finished');
  });

  it('Back on the OTP contact screen keeps focus in the widget; the step-up representative page takes focus on its heading', async () => {
    await open();
    await page.getByRole('textbox', { name: /Username/ }).fill(otpOnly.username);
    await page.getByLabel('Password', { exact: true }).fill(otpOnly.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await heading('Verify your identity').waitFor();
    await headingFocused('Verify your identity');
    await tabTo('Get the code another way');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Email me the code' }).waitFor();
    await page.getByRole('button', { name: 'Get the code another way' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Back' }).waitFor();
    await tabTo('Back');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Email me the code' }).waitFor();
    await headingFocused('Verify your identity');
    expect(await focusIsOnBody()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Verify your identity');

    // Signed in with an e-mailed code, then step-up to the representative page.
    await page.getByRole('button', { name: 'Email me the code' }).press('Enter');
    await heading('Enter the code we emailed you').waitFor();
    const field = page.getByRole('textbox', { name: /Security code/ });
    await field.fill(await latestCode(`${otpOnly.username}@example.com`));
    await field.press('Enter');
    await page.getByText(`Signed in as ${otpOnly.username} (status 1200).`).waitFor();

    await page.goto(`${env.server.origin}/widget/embed.html?journey=STEPUP`);
    await heading('Verify your identity').waitFor();
    await headingFocused('Verify your identity');
    await tabTo("Can't receive the code?");
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Continue' }).waitFor();
    await headingFocused('Verify your identity');
    expect(await focusIsOnBody()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Verify your identity');
    expect(await page.getByText('Call us to verify your identity').count()).toBe(0);
    await page.waitForFunction((t) => document.title === `Verify your identity – ${t}`, hostTitle);
    await expectNoAxeViolations(page, 'step-up representative page');
  });

  it('step-up without a session: 401 Unauthorized, and Sign in again hands over to the host', async () => {
    await open('?journey=STEPUP');
    await heading('401 Unauthorized').waitFor();
    await page.getByText('Your session has ended. Please sign in again.').waitFor();
    await page.waitForFunction((t) => document.title === `401 Unauthorized – ${t}`, hostTitle);
    await expectNoAxeViolations(page, '401 Unauthorized');
    await headingFocused('401 Unauthorized');
    await tabTo('Sign in again');
    await page.keyboard.press('Enter');
    await page.getByText('Cancelled.').waitFor();
  });

  it('a blocked account: the security-blocked text on the blocked page', async () => {
    await open();
    await page.getByRole('textbox', { name: /Username/ }).fill('blocked01');
    await page.getByLabel('Password', { exact: true }).fill('Orchid2Vale');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await heading('Your account has been blocked').waitFor();
    await page
      .getByText(
        'For security reasons, your access has been blocked. To restore your account, please call a representative',
      )
      .waitFor();
    await expectNoAxeViolations(page, 'security blocked');
  });

  it('ArrowDown on the saved-username list changes nothing until a different username is chosen on purpose', async () => {
    await open();
    await page.getByRole('textbox', { name: /Username/ }).fill(passwordOnly.username);
    await page.getByLabel('Password', { exact: true }).fill(passwordOnly.password);
    await page.getByRole('checkbox', { name: 'Remember my username' }).check();
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await page.getByText(`Signed in as ${passwordOnly.username} (status 1200).`).waitFor();

    await page.goto(`${env.server.origin}/widget/embed.html`);
    const select = page.getByRole('combobox', { name: /Username/ });
    await select.waitFor();
    await page.getByLabel('Password', { exact: true }).fill('typed');
    await select.focus();
    await page.keyboard.press('ArrowDown');
    expect(await select.inputValue()).toBe('__other__');
    expect(await page.getByRole('textbox', { name: /Username/ }).count()).toBe(0);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('typed');
    expect(await page.getByRole('checkbox', { name: 'Remember my username' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    await expectNoAxeViolations(page, 'saved username, other user highlighted');
    await tabTo('Type a different username');
    await page.keyboard.press('Enter');
    const field = page.getByRole('textbox', { name: /Username/ });
    await field.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
    expect(await field.inputValue()).toBe('');
  });

  it('has a desktop layout from 512 px of its own, and appScreenSize small keeps the narrow one', async () => {
    const measure = () =>
      page.evaluate(() => {
        const widget = document.querySelector('.gh-signin') as HTMLElement;
        const h = widget.querySelector('h2') as HTMLElement;
        return { padding: getComputedStyle(widget).paddingTop, heading: getComputedStyle(h).fontSize };
      });
    await open('', { width: 400, height: 800 });
    await heading('Log in to your account').waitFor();
    const narrow = await measure();
    await expectNoAxeViolations(page, 'login, narrow');
    await page.setViewportSize({ width: 800, height: 800 });
    const wide = await measure();
    expect(narrow.padding).toBe('0px');
    expect(Number.parseFloat(wide.padding)).toBeGreaterThan(0);
    expect(Number.parseFloat(wide.heading)).toBeGreaterThan(Number.parseFloat(narrow.heading));
    await expectNoAxeViolations(page, 'login, desktop');
    await context.close();

    await open('?screen=small', { width: 800, height: 800 });
    await heading('Log in to your account').waitFor();
    expect(await measure()).toEqual(narrow);
    await context.close();
    await open('?screen=large', { width: 400, height: 800 });
    await heading('Log in to your account').waitFor();
    expect(await measure()).toEqual(wide);
  });

  it('an account the server allows every factor lands on a built factor screen, never an empty card', async () => {
    await open();
    await page.getByRole('textbox', { name: /Username/ }).fill('allfactors1');
    await page.getByLabel('Password', { exact: true }).fill('Maple4Canyon');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    // Push comes first in the list (decision 022); every listed type has its screen (issue 12).
    await page
      .getByRole('heading', { name: /We'll send a notification to the .+ app on your mobile device/ })
      .waitFor();
    const list = await page.evaluate(async () => (await fetch('/api/user/factor/authenticators')).json());
    const types = (list.successData.authenticators as Array<{ type: string }>).map((item) => item.type);
    expect(types).toEqual(['PUSH', 'TOTPAUTHN', 'TOTPSVIP', 'OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL']);
  });
});
