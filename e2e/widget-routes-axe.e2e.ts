import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

/** Two accounts whose login opens the contact list, in turn: one would reach the per-account sign-in limit. */
const accounts = [
  { username: 'otponly01', password: 'River8Stone' },
  { username: 'emailonly1', password: 'Cedar5Brook' },
];

/**
 * The widget's routes no journey of this server leads to, each reached as widget spec §7 says a
 * server may send the widget there: a `redirectPath` in the answer to the contact list (OTP state)
 * call. The answer is the test's (the seeded server never redirects to these); the screens, their
 * own calls and the page are real. axe scans each screen once (axe-coverage.ts counts it).
 */
const routes = [
  '/otp',
  '/securitycode',
  '/rep',
  '/totp',
  '/totp-sync',
  '/totp-block',
  '/push',
  '/pushdenied',
  '/ssoerror',
  '/reject',
  '/logout',
];

describe("axe on the widget's routes no journey of this server reaches", () => {
  const env = useServerAndBrowser();

  for (const [index, route] of routes.entries()) {
    const account = accounts[index % accounts.length]!;
    it(`the ${route} screen`, async () => {
      const context = await env.browser.newContext();
      const page = await context.newPage();
      // Once: the screen the redirect opens may ask for the contacts again, and gets the real list.
      await page.route(
        '**/api/user/factor/otp/state*',
        (request) =>
          request.fulfill({
            json: {
              responseBaseInfo: { requestId: 'REQtest', status: { code: 1200, message: 'Success' } },
              redirectPath: route,
            },
          }),
        { times: 1 },
      );
      await page.goto(`${env.server.origin}/#/login`);
      await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      const widget = page.locator('.gh-signin');
      await page.locator(`.gh-signin[data-route="${route}"]`).getByRole('heading').first().waitFor();
      await expectNoAxeViolations(page, `widget ${route}`);
      // Still there: the scan was of this screen, not of one it moved on to.
      expect(await widget.getAttribute('data-route')).toBe(route);
      await context.close();
    });
  }

  it('a frame of another origin fails the scan, since axe in the page would not reach it (decision 055)', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).waitFor();
    // The console's origin (127.0.0.1) is another origin than the portal's (localhost).
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.title = 'Another origin';
      frame.src = src;
      document.body.append(frame);
      return new Promise((loaded) => frame.addEventListener('load', loaded, { once: true }));
    }, `${env.server.consoleOrigin}/console/`);
    await expect(expectNoAxeViolations(page, 'login with a foreign frame')).rejects.toThrow(
      /cross-origin frames on login with a foreign frame/,
    );
    await context.close();
  });
});
