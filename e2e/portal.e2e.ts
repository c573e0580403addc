import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

type Account = { username: string; password: string };

describe('the portal: shell, recovery by e-mail code, reset password, logout, guard', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;

  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  const alertWith = (text: string) => page.getByRole('alert').filter({ hasText: text });

  async function fresh(path = '/#/login') {
    context = await env.browser.newContext();
    page = await context.newPage();
    await page.goto(`${env.server.origin}${path}`);
  }

  async function latestCode(address: string): Promise<string> {
    const response = await fetch(`${env.server.origin}/api/dev/outbox?to=${encodeURIComponent(address)}`);
    const body = (await response.json()) as { messages: Array<{ code: string | null }> };
    const code = body.messages[0]?.code;
    if (!code) throw new Error(`no code sent to ${address}`);
    return code;
  }

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
    await context.close();
    await fresh('/#/login');
    await signIn(account);
    await alertWith("You've entered an incorrect username or password. Please try again.").waitFor();
    await context.close();
  });

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
    await page.getByText('Enter your username.').waitFor();
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
    await page.getByText('Enter the 6-digit one-time code.').waitFor();
    const real = await latestCode(`${account.username}@example.com`);
    await code.fill(real === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Your one-time code is invalid. Please try again or request a new code.').waitFor();
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
