import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  errorSummary,
  expectNoAxeViolations,
  expectNoSidewaysScroll as noSidewaysScroll,
  spokenText,
} from './support/browser.ts';
import { latestCode as latestCodeOf, useServerAndBrowser } from './support/server.ts';

type Account = { username: string; password: string };

describe('the portal: shell, recovery by e-mail code, reset password, logout, guard', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;

  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  const alertWith = (text: string) => page.getByRole('alert').filter({ hasText: text });

  /** A field error: inline under the field, and as a link in the error summary (GOV.UK). */
  async function fieldErrorShown(text: string) {
    await page.locator('.gh-field__error', { hasText: text }).waitFor();
    await errorSummary(page, 'There is a problem').getByRole('link', { name: text }).waitFor();
  }

  /** Keyboard alone: Tab until the target has focus (fails if it never does). */
  async function tabTo(target: Locator, max = 40) {
    for (let i = 0; i < max; i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${target}`);
  }

  /**
   * After a failed submit the error is heard whatever has focus: its text is in a live region
   * (role alert or status, aria-live), or in the focused element's accessible description; and
   * the title starts with 'Error: '.
   */
  async function expectAnnounced(text: string) {
    await expect
      .poll(() =>
        page.evaluate((t) => {
          const live = document.querySelectorAll(
            '[role="alert"], [role="status"], [aria-live]:not([aria-live="off"])',
          );
          if ([...live].some((el) => el.textContent?.includes(t))) return true;
          const ids = document.activeElement?.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
          return ids.some((id) => document.getElementById(id)?.textContent?.includes(t) ?? false);
        }, text),
      )
      .toBe(true);
    await expect.poll(() => page.title()).toMatch(/^Error: /);
  }

  /**
   * The server limits code sends per client address (60 per 15 minutes) and per account (5) and every test comes from
   * 127.0.0.1: a test that sends late in the file starts a new window on the server's clock.
   */
  const newRateWindow = () => env.server.clock.advance(16 * 60_000);

  /** The page does not scroll sideways (WCAG 1.4.10 at 320 px). */
  const expectNoSidewaysScroll = (where: string) => noSidewaysScroll(page, where);

  /** WCAG 1.4.12's text-spacing values (the bookmarklet's). */
  const textSpacing = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
    word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }`;

  async function fresh(path = '/#/login') {
    context = await env.browser.newContext();
    page = await context.newPage();
    await page.goto(`${env.server.origin}${path}`);
  }

  const latestCode = (address: string) => latestCodeOf(env.server, address);

  async function signIn(account: Account) {
    await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  async function emailStepToCode(account: Account) {
    await heading('Extra Security Step Required').waitFor();
    await page.getByText(/Email on file: .+@example\.com/).waitFor();
    expect(await page.getByText(`${account.username}@example.com`).count()).toBe(0);
    await expectNoAxeViolations(page, 'Extra Security Step Required');
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading('Confirm Identity').waitFor();
    await page
      .getByText(
        'A validation code has been emailed to you. It may take up to 3-4 minutes to receive this code. Please use this code to continue.',
      )
      .waitFor();
    await expectNoAxeViolations(page, 'one-time code');
  }

  /** The username step from #/username, then the e-mail step, up to the code step. */
  async function startRecovery(account: Account) {
    await fresh('/#/username');
    await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
    await page.getByRole('button', { name: 'Continue' }).click();
    await emailStepToCode(account);
  }

  /** Yes in the resend confirmation dialog. */
  async function confirmResend() {
    await page
      .getByRole('dialog', { name: 'Please confirm.' })
      .getByRole('button', { name: 'Resend' })
      .click();
  }

  /** The code step: the latest code from the dev outbox, then Confirm. */
  async function confirmWithLatestCode(account: Account) {
    await page
      .getByRole('textbox', { name: /OTP Confirmation Code/ })
      .fill(await latestCode(`${account.username}@example.com`));
    await page.getByRole('button', { name: 'Confirm' }).click();
  }

  async function resetTo(newPassword: string) {
    await heading('Reset Password').waitFor();
    await expectNoAxeViolations(page, 'Reset Password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm your password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Password changed successfully').first().waitFor();
    await heading('Log in to your account').waitFor();
  }

  it('shows the shell: disclosure, support line, footer pages that exist; unknown routes go to login', async () => {
    await fresh('/#/somewhere-else');
    await heading('Log in to your account').waitFor();
    expect(page.url()).toMatch(/#\/login$/);
    await page.getByText('Inactive sessions in secured areas will time out after four hours.').waitFor();
    await page.getByText('Please contact login support at').waitFor();
    for (const [link, title] of [
      ['Browser requirements', 'Browser requirements'],
      ['User agreement', 'User agreement'],
      ['Privacy', 'Privacy'],
      ['Security', 'Security'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await heading(title).waitFor();
      await expectNoAxeViolations(page, `footer page ${title}`);
    }
    await page.goto(`${env.server.origin}/#/noaccess`);
    await heading('Access Denied').waitFor();
    await page.getByText('Check your network connection').waitFor();
    await expectNoAxeViolations(page, 'no access');
    await page.goto(`${env.server.origin}/#/`);
    await heading('Log in to your account').waitFor();
    await context.close();
  });

  it('recovers a password end to end: username, e-mail code from the outbox, reset, sign in with it', async () => {
    const account = { username: 'jordandemo2', password: 'Lantern6Bridge' };
    await fresh('/#/login');
    await page.getByRole('link', { name: 'Forgot username?' }).click();
    await heading('Confirm Identity').waitFor();
    await page.getByText('Please enter your username to receive an email with a one-time code.').waitFor();
    await expectNoAxeViolations(page, 'username step');
    await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
    await page.getByRole('button', { name: 'Continue' }).click();
    await emailStepToCode(account);
    await confirmWithLatestCode(account);
    await resetTo('Lantern5Orbit');
    await signIn({ username: account.username, password: 'Lantern5Orbit' });
    await heading(`Welcome, ${account.username}`).waitFor();
    // Signed in, the customer changes their username from the signed-in page (issue 26).
    await page.getByRole('link', { name: 'Change your username' }).click();
    await heading('Change your username').waitFor();
    await page.getByRole('textbox', { name: /New username/ }).waitFor();
    await expectNoAxeViolations(page, 'change username (signed in)');
    await page.getByRole('textbox', { name: /New username/ }).fill('jordanriver7');
    await page.getByLabel('Current password', { exact: true }).fill('Lantern5Orbit');
    await page.getByRole('button', { name: 'Update username' }).click();
    await heading("You've changed your username").waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Your username is now jordanriver7. Use it the next time you sign in.').waitFor();
    await page.getByText('You are signed in as jordanriver7.').waitFor();
    await expectNoAxeViolations(page, 'signed-in page with the new username');
    await context.close();
    await fresh('/#/login');
    await signIn(account);
    await alertWith("You've entered an incorrect username or password. Please try again.").waitFor();
    await context.close();
  });

  it('recovers otponly01 by text, then by voice: another way from the e-mail step, the established phone only, the code, a new password', async () => {
    const account = { username: 'otponly01', password: 'River8Stone' };
    const phone = '+12025550143';
    newRateWindow();
    for (const [option, sent, password] of [
      [
        /^Text message to/,
        'We sent the code to number ending in 0 1 4 3. It will expire after 30 minutes.',
        'Pebble7Harbor',
      ],
      [
        /^Voice call to/,
        "We're calling number ending in 0 1 4 3 with the code. It will expire after 30 minutes.",
        'Marble6Forest',
      ],
    ] as const) {
      await fresh('/#/username');
      await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
      await page.getByRole('button', { name: 'Continue' }).click();
      await heading('Extra Security Step Required').waitFor();
      await page.getByRole('button', { name: 'Choose another way to get the code' }).click();
      // Step 0: the account's established contacts only; the phone added just now (…0178) is not offered.
      await heading('Choose how to confirm your identity').waitFor();
      expect(await page.title()).toBe('Choose how to confirm your identity – Prime Portal');
      expect(await page.getByRole('radio').count()).toBe(4);
      for (const name of [
        'E-mail to o****1@example.com',
        // A masked number is read as the digits it ends in, not 'star star star' (issue 26 §4.11).
        'Text message to number ending in 0 1 4 3',
        'Voice call to number ending in 0 1 4 3',
        'A representative, by phone',
      ]) {
        expect(await page.getByRole('radio', { name, exact: true }).count()).toBe(1);
      }
      expect(await page.getByText(/0178/).count()).toBe(0);
      await expectNoAxeViolations(page, 'recovery: channel step');
      await page.getByRole('radio', { name: option }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      // Step 1: the phone, masked.
      await heading('Choose the phone number').waitFor();
      expect(await page.getByRole('radio', { name: 'number ending in 0 1 4 3' }).isChecked()).toBe(true);
      await expectNoAxeViolations(page, 'recovery: phone step');
      await page.getByRole('button', { name: 'Continue' }).click();
      // Steps 2 and 3: the code by text or call.
      await heading('Confirm Identity').waitFor();
      const sentLine = page.getByText(/^We( sent|'re calling)/);
      await expect.poll(() => spokenText(sentLine)).toBe(sent);
      expect(await sentLine.textContent()).toContain('(XXX) XXX-0143');
      await expectNoAxeViolations(page, 'recovery: phone code step');
      await page.getByRole('textbox', { name: /OTP Confirmation Code/ }).fill(await latestCode(phone));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await resetTo(password);
      await context.close();
    }
    // The e-mail on file, the other established contact, was told of each code.
    const mails = await fetch(`${env.server.origin}/api/dev/outbox?to=otponly01%40example.com`);
    const { messages } = (await mails.json()) as { messages: Array<{ text: string }> };
    expect(
      messages.filter((m) => m.text.includes('a one-time code was sent to another of your phone numbers'))
        .length,
    ).toBe(2);
  }, 180_000);

  for (const [label, account, info] of [
    [
      'expired',
      { username: 'expired01', password: 'Autumn3Field' },
      'This password is expired, please go through OTP process to create new password',
    ],
    [
      'temporary',
      { username: 'temppass01', password: 'Winter6Cloud' },
      'This password is a temporary password or expired, please go through OTP process to create new password',
    ],
  ] as const) {
    it(`takes the ${label}-password account through the skip path to a new password`, async () => {
      await fresh('/#/login');
      await signIn(account);
      await heading('You must create a new password').waitFor();
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page.getByText(info).waitFor();
      await emailStepToCode(account);
      await confirmWithLatestCode(account);
      await resetTo('Harvest4Meadow');
      await signIn({ username: account.username, password: 'Harvest4Meadow' });
      await heading(`Welcome, ${account.username}`).waitFor();
      await context.close();
    });
  }

  it('shows each failure message of the username screen', async () => {
    const account = { username: 'emailonly1', password: 'Cedar5Brook' };
    await fresh('/#/username');
    await heading('Confirm Identity').waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await fieldErrorShown('Enter your username.');
    const username = page.getByRole('textbox', { name: /Username/ });
    await username.fill('nobody4242');
    await page.getByRole('button', { name: 'Continue' }).click();
    await alertWith('The information provided is invalid. Please try again.').waitFor();
    expect(await username.inputValue()).toBe('');
    await expectNoAxeViolations(page, 'username step with error');

    await username.fill(account.username);
    await page.getByRole('button', { name: 'Continue' }).click();
    await emailStepToCode(account);
    const code = page.getByRole('textbox', { name: /OTP Confirmation Code/ });
    await code.fill('12ab3');
    expect(await code.inputValue()).toBe('123');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await fieldErrorShown('Enter the 6-digit one-time code.');
    const real = await latestCode(`${account.username}@example.com`);
    await code.fill(real === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await fieldErrorShown('Your one-time code is invalid. Please try again or request a new code.');
    expect(await code.inputValue()).toBe('');
    await expectNoAxeViolations(page, 'code step with error');

    // Forgot Username? popover.
    await page.getByRole('button', { name: 'Forgot Username?' }).click();
    await page
      .getByRole('dialog', { name: 'Forgot Username?' })
      .getByText('Please contact login support at')
      .waitFor();
    await expectNoAxeViolations(page, 'forgot username popover');
    await page.keyboard.press('Escape');

    // Resend asks first; the third send is the last before the block.
    await page.getByRole('button', { name: 'Resend Code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Please confirm.' });
    await dialog.getByText(/Do you really want to resend OTP to .+@example\.com\?/).waitFor();
    await expectNoAxeViolations(page, 'resend confirmation');
    await dialog.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('A validation code has been emailed to you.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Resend Code' }).click();
    await confirmResend();
    await page.getByText('A validation code has been emailed to you.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Resend Code' }).click();
    await confirmResend();
    await alertWith('(status code 1491)').waitFor();
    expect(await alertWith('(status code 1491)').textContent()).toContain(
      'Please contact loginsupport@primeservices.example for assistance (status code 1491).',
    );
    await context.close();
  });

  it('blocks resend after a transport error on the code check', async () => {
    const account = { username: 'allfactors1', password: 'Maple4Canyon' };
    await startRecovery(account);
    await page.route('**/api/user/factor/otp/email/authentication', (route) =>
      route.request().method() === 'PUT' ? route.abort('failed') : route.continue(),
    );
    await page.getByRole('textbox', { name: /OTP Confirmation Code/ }).fill('123456');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await alertWith('(status code 1491)').waitFor();
    await page.getByRole('button', { name: 'Resend Code' }).click();
    await confirmResend();
    await alertWith('(status code 1491)').waitFor();
    await context.close();
  });

  it('refuses the reset page without a confirmed code and returns to login', async () => {
    await fresh('/#/resetPassword');
    await page.getByText('Cannot access this page without OTP confirmation').waitFor();
    await expectNoAxeViolations(page, 'reset without OTP');
    await heading('Log in to your account').waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('checks the reset rules in the spec order, the match, and each server code', async () => {
    const account = { username: 'pushuser1', password: 'Comet3Prairie' };
    await startRecovery(account);
    await confirmWithLatestCode(account);
    await heading('Reset Password').waitFor();
    for (const hint of [
      'Must be 8-20 characters in length.',
      'Must contain at least one uppercase, one lowercase letter, one number.',
      'Cannot contain single repeated characters (e.g. 111111), sequential digits (e.g. 12345), or special characters.',
      'Cannot share 5 or more characters with your User ID.',
      'Cannot match any of your 6 previous passwords.',
    ]) {
      await page.getByText(hint, { exact: true }).waitFor();
    }
    const fresh1 = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm your password', { exact: true });
    const submit = page.getByRole('button', { name: 'Submit' });
    expect(await submit.getAttribute('aria-disabled')).toBe('true');
    for (const [value, message] of [
      ['Ab1', 'Password must be between 8 and 20 characters'],
      ['abcdefg1x', 'Password must contain at least one uppercase letter'],
      ['ABCDEFG1X', 'Password must contain at least one lowercase letter'],
      ['Abcdefghx', 'Password must contain at least one number'],
      ['Abcdefg1x!', 'Password cannot contain any special characters'],
    ]) {
      await fresh1.fill(value!);
      await fresh1.blur();
      await page.getByText(message!).first().waitFor();
    }
    await fresh1.fill('Meadow7Falcon');
    await confirm.fill('Meadow7Falcom');
    await confirm.blur();
    await page.getByText('Passwords do not match').first().waitFor();
    await expectNoAxeViolations(page, 'reset with rule errors');

    for (const [value, message] of [
      [
        account.password,
        'Your new password cannot match any of your 6 previous passwords. Please try again.',
      ],
      ['Pushuser1x', "Passwords cannot contain the user's SSN, Tax ID, G number, or username."],
      ['Abc123456xyz', 'Passwords cannot have more than 5 sequential numbers.'],
      ['Xaaaaaa1bc', 'Passwords cannot have more than 5 instances of a single number or letter.'],
      ['Password1', 'Password is too common.'],
      ['Pushusx9Abc', 'Passwords cannot share more than 5 characters with usernames.'],
    ]) {
      await fresh1.fill(value!);
      await confirm.fill(value!);
      expect(await submit.getAttribute('aria-disabled')).toBe('false');
      await submit.click();
      await alertWith(message!).waitFor();
    }
    await expectNoAxeViolations(page, 'reset with a server error');
    await resetTo('Meadow7Falcon');
    await context.close();
  });

  it('by keyboard alone: recovery with every failed submit announced, then reset and the toast', async () => {
    const account = { username: 'otponly01', password: 'River8Stone' };
    newRateWindow();
    // At 320 px, where every screen must also reflow without sideways scrolling (1.4.10).
    context = await env.browser.newContext({ viewport: { width: 320, height: 568 } });
    page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await heading('Log in to your account').waitFor();
    await tabTo(page.getByRole('link', { name: 'Forgot username?' }));
    await page.keyboard.press('Enter');
    await heading('Confirm Identity').waitFor();
    expect(await page.title()).toBe('Confirm Identity – Prime Portal');
    const username = page.getByRole('textbox', { name: /Username/ });
    await tabTo(username);
    await page.keyboard.press('Enter');
    await expectAnnounced('Enter your username.');
    await expectNoAxeViolations(page, 'username step, empty (keyboard)');
    // The same failure again, from the field: announced again (the summary takes focus).
    await tabTo(username);
    await page.keyboard.press('Enter');
    // The error summary takes focus: the wrapper whose alert holds the title and links (GOV.UK 4.4.0).
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            document.activeElement?.classList.contains('gh-error-summary') === true &&
            document.activeElement.querySelector(':scope > [role="alert"]') !== null,
        ),
      )
      .toBe(true);
    await tabTo(username);
    await page.keyboard.type('nobody4242');
    await page.keyboard.press('Enter');
    await expectAnnounced('The information provided is invalid. Please try again.');
    expect(await username.inputValue()).toBe('');
    await tabTo(username);
    await page.keyboard.type(account.username);
    await page.keyboard.press('Enter');
    await heading('Extra Security Step Required').waitFor();
    expect(await page.title()).toBe('Extra Security Step Required – Prime Portal');
    await expectNoSidewaysScroll('e-mail step (keyboard)');
    await tabTo(page.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    await page.getByText('A validation code has been emailed to you.', { exact: false }).waitFor();
    const code = page.getByRole('textbox', { name: /OTP Confirmation Code/ });
    await tabTo(code);
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await expectAnnounced('Enter the 6-digit one-time code.');
    const real = await latestCode(`${account.username}@example.com`);
    await tabTo(code);
    await page.keyboard.type(real === '000000' ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await expectAnnounced('Your one-time code is invalid. Please try again or request a new code.');
    await expectNoAxeViolations(page, 'code step, wrong code (keyboard)');
    await expectNoSidewaysScroll('code step (keyboard)');
    await tabTo(code);
    await page.keyboard.type(real);
    await page.keyboard.press('Enter');

    await heading('Reset Password').waitFor();
    expect(await page.title()).toBe('Reset Password – Prime Portal');
    const submit = page.getByRole('button', { name: 'Submit' });
    // Disabled while the form is invalid, and it looks it (not only aria-disabled).
    expect(await submit.getAttribute('aria-disabled')).toBe('true');
    const look = () =>
      submit.evaluate((b) => `${getComputedStyle(b).backgroundColor} ${getComputedStyle(b).color}`);
    const disabledLook = await look();
    const fresh1 = page.getByLabel('New password', { exact: true });
    await tabTo(fresh1);
    await page.keyboard.type('short');
    await page.keyboard.press('Enter');
    await expectAnnounced('Password must be between 8 and 20 characters');
    await expectNoAxeViolations(page, 'reset with errors (keyboard)');
    await expectNoSidewaysScroll('reset password (keyboard)');
    await tabTo(fresh1);
    await page.keyboard.press('Enter');
    // The error summary takes focus: the wrapper whose alert holds the title and links (GOV.UK 4.4.0).
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            document.activeElement?.classList.contains('gh-error-summary') === true &&
            document.activeElement.querySelector(':scope > [role="alert"]') !== null,
        ),
      )
      .toBe(true);
    await tabTo(fresh1);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Harvest4Meadow');
    await tabTo(page.getByLabel('Confirm your password', { exact: true }));
    await page.keyboard.type('Harvest4Meadow');
    await expect.poll(() => submit.getAttribute('aria-disabled')).toBe('false');
    // The button's colours change with a short transition: wait for it to end, as a person's eye would.
    await expect
      .poll(look, { message: 'the enabled Submit looks different from the disabled one' })
      .not.toBe(disabledLook);

    // The toast must not cover the control that has focus (2.4.11), at 320 px and at 200 % zoom.
    await page.keyboard.press('Enter');
    await page.getByText('Password changed successfully').first().waitFor();
    await heading('Log in to your account').waitFor();
    await expectNoSidewaysScroll('login with the toast');
    await expectNoAxeViolations(page, 'login with the success toast');
    for (const viewport of [
      { width: 320, height: 568 },
      { width: 640, height: 400 },
    ]) {
      await page.setViewportSize(viewport);
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        const covered = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement | null;
          const toast = document.querySelector('.gh-toast');
          if (!focused || focused === document.body || !toast) return null;
          if (toast.contains(focused)) return null;
          const a = focused.getBoundingClientRect();
          const b = toast.getBoundingClientRect();
          const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          return overlap ? focused.outerHTML.slice(0, 80) : null;
        });
        expect(
          covered,
          `toast covers the focused control at ${viewport.width}x${viewport.height}`,
        ).toBeNull();
      }
    }
    await context.close();
  });

  it('reflows at 320 px: no sideways scroll on any page, the popover fits at 400 % zoom, text spacing keeps the support line', async () => {
    // bypassCSP: the text-spacing style is injected as the bookmarklet does, as a style element.
    context = await env.browser.newContext({ viewport: { width: 320, height: 640 }, bypassCSP: true });
    page = await context.newPage();
    for (const [path, title] of [
      ['/#/login', 'Log in to your account'],
      ['/#/username', 'Confirm Identity'],
      ['/#/noaccess', 'Access Denied'],
      ['/#/info/privacy', 'Privacy'],
      ['/#/logout', 'Session Ended'],
    ] as const) {
      await page.goto(`${env.server.origin}${path}`);
      await heading(title).waitFor();
      await expectNoSidewaysScroll(path);
      // Text spacing at 320 px: the support line stays whole and nothing scrolls sideways.
      const style = await page.addStyleTag({ content: textSpacing });
      await expectNoSidewaysScroll(`${path} with text spacing`);
      const line = page.locator('.portal__support-line, .portal__disclosure').first();
      const clipped = await line.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return (
          el.scrollWidth > el.clientWidth || r.left < 0 || r.right > document.documentElement.clientWidth
        );
      });
      expect(clipped, `support line cut off on ${path}`).toBe(false);
      await style.evaluate((el) => (el as Element).remove());
    }

    // The code step at 400 % zoom (1280 x 800 shown as 320 x 200): the popover's title and Close
    // stay on screen, and its e-mail address wraps.
    const account = { username: 'tokenuser1', password: 'Garnet7Shore' };
    newRateWindow();
    await page.goto(`${env.server.origin}/#/username`);
    await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading('Extra Security Step Required').waitFor();
    await expectNoSidewaysScroll('e-mail step');
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading('Confirm Identity').waitFor();
    await expectNoSidewaysScroll('code step');
    await page.setViewportSize({ width: 320, height: 200 });
    const trigger = page.getByRole('button', { name: 'Forgot Username?' });
    await trigger.scrollIntoViewIfNeeded();
    await trigger.click();
    const popover = page.getByRole('dialog', { name: 'Forgot Username?' });
    await popover.waitFor();
    // Measured once it has come to rest: its opening animation over, placed two frames running.
    await popover.evaluate(async (el) => {
      await Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined)));
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let last = '';
      for (;;) {
        await frame();
        const box = JSON.stringify(el.getBoundingClientRect());
        if (box === last) return;
        last = box;
      }
    });
    for (const part of [
      popover.getByText('Forgot Username?', { exact: true }),
      popover.getByRole('button', { name: 'Close' }),
    ]) {
      const box = await part.boundingBox();
      expect(box, 'popover part has a box').not.toBeNull();
      expect(box!.y, 'above the viewport').toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, 'below the viewport').toBeLessThanOrEqual(200);
      expect(box!.x + box!.width, 'right of the viewport').toBeLessThanOrEqual(320);
    }
    expect(await popover.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectNoSidewaysScroll('popover open');
    await context.close();
  });

  it('the logout spinner and the session check have a main landmark and an h1 (axe best practice)', async () => {
    await fresh('/#/login');
    await signIn({ username: 'alexdemo1', password: 'Harbor7Lights' });
    await heading('Welcome, alexdemo1').waitFor();
    // Locally the portal address of the finish is this app's signed-in page.
    expect(page.url()).toBe(`${env.server.origin}/#/home`);
    await page.setViewportSize({ width: 320, height: 568 });
    await expectNoSidewaysScroll('signed-in page');
    await page.setViewportSize({ width: 1280, height: 720 });
    let release: () => void = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await page.route('**/api/user/session/login', async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await page.reload();
    await heading('Checking your session').waitFor();
    expect(await page.title()).toBe('Checking your session – Prime Portal');
    await expectNoAxeViolations(page, 'session check');
    release();
    await heading('Welcome, alexdemo1').waitFor();

    let releaseLogout: () => void = () => {};
    const heldLogout = new Promise<void>((done) => {
      releaseLogout = done;
    });
    await page.route('**/api/user/session/login/', async (route) => {
      if (route.request().method() === 'DELETE') await heldLogout;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Signing you out').waitFor();
    expect(await page.title()).toBe('Signing you out – Prime Portal');
    await expectNoAxeViolations(page, 'signing out');
    releaseLogout();
    await heading('Session Ended').waitFor();
    await context.close();
  });

  it('logs out with Session Ended, retries a failed logout, and the guard then refuses the signed-in page', async () => {
    await fresh('/#/login');
    await signIn({ username: 'alexdemo1', password: 'Harbor7Lights' });
    await heading('Welcome, alexdemo1').waitFor();
    let failures = 1;
    await page.route('**/api/user/session/login/', async (route) => {
      if (route.request().method() === 'DELETE' && failures-- > 0) {
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            responseBaseInfo: {
              requestId: 'REQx',
              status: { code: 5003, message: 'The service is temporarily unavailable.' },
            },
          }),
        });
      } else await route.continue();
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('There was a problem').waitFor();
    await page.getByText('The service is temporarily unavailable. please click logout to retry').waitFor();
    expect(await page.title()).toBe('There was a problem – Prime Portal');
    await expectNoAxeViolations(page, 'logout failed');
    await page.getByRole('button', { name: 'Logout' }).click();
    await heading('Session Ended').waitFor();
    await page.getByText('For Login support, please email').waitFor();
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await heading('Log in to your account').waitFor();
    await page.goto(`${env.server.origin}/#/home`);
    await heading('Log in to your account').waitFor();
    await context.close();
  });
});
