import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  expectNoSidewaysScroll as noSidewaysScroll,
  spokenText,
} from './support/browser.ts';
import { latestMail, useServerAndBrowser } from './support/server.ts';

/**
 * Recovery by the spec's channels (portal spec §4, steps 0-3) by keyboard alone, on a 320 px screen
 * in forced colours (Windows high contrast): every step reached with Tab, the arrow keys and Enter;
 * focus always on something visible with an outline the system colours can draw; no sideways scroll.
 */
describe('recovery by voice call, by keyboard alone, at 320 px in forced colours', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  afterEach(async () => {
    await context?.close();
  });

  const heading = (name: string) => page.getByRole('heading', { name, exact: true });
  const expectNoSidewaysScroll = (where: string) => noSidewaysScroll(page, where);

  /** What has focus: its role-ish tag and accessible name, for the checks and the failure message. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return { name: '', outline: 'none', visible: false };
      const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return {
        name: (el.getAttribute('aria-label') ?? (label || el.textContent) ?? '').trim(),
        outline: style.outlineStyle === 'none' ? 'none' : `${style.outlineStyle} ${style.outlineWidth}`,
        visible: box.width > 0 && box.height > 0 && box.left >= 0 && box.right <= window.innerWidth + 1,
      };
    });

  /** Tab until the focused element's name starts with `name`; it must show an outline there. */
  async function tabTo(name: string | RegExp) {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const now = await focused();
      if (typeof name === 'string' ? now.name.startsWith(name) : name.test(now.name)) {
        expect(now.visible, now.name).toBe(true);
        expect(now.outline, `focus outline on "${now.name}"`).not.toBe('none');
        return;
      }
    }
    throw new Error(`Tab never reached ${name}; focus is on "${(await focused()).name}"`);
  }

  it('from the username to a new password: channel, phone, code, reset', async () => {
    context = await env.browser.newContext({ viewport: { width: 320, height: 640 } });
    page = await context.newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(`${env.server.origin}/#/username`);

    await tabTo(/^Username/);
    await page.keyboard.type('otponly01');
    await page.keyboard.press('Enter');
    await heading('Extra Security Step Required').waitFor();
    await tabTo('Choose another way to get the code');
    await page.keyboard.press('Enter');

    // Step 0: the channels, a radio group: Tab enters it, the arrows choose.
    await heading('Choose how to confirm your identity').waitFor();
    await expectNoSidewaysScroll('channel step');
    await expectNoAxeViolations(page, 'recovery: channel step (320 px, forced colours)');
    await tabTo(/^(E-mail to|Text message to|Voice call to|A representative)/);
    for (let i = 0; i < 4 && !(await focused()).name.startsWith('Voice call to'); i++) {
      await page.keyboard.press('ArrowDown');
    }
    expect((await focused()).name).toMatch(/^Voice call to/);
    await expect(page.getByRole('radio', { name: /^Voice call to/ }).isChecked()).resolves.toBe(true);
    await tabTo('Continue');
    await page.keyboard.press('Enter');

    // Step 1: the phone.
    await heading('Choose the phone number').waitFor();
    await expectNoSidewaysScroll('phone step');
    await tabTo('Continue');
    await page.keyboard.press('Enter');

    // Step 3: the code by voice.
    await heading('Confirm Identity').waitFor();
    const sentLine = page.getByText(/^We're calling/);
    await expect
      .poll(() => spokenText(sentLine))
      .toBe("We're calling number ending in 0 1 4 3 with the code. It will expire after 30 minutes.");
    await expectNoSidewaysScroll('call code step');
    await expectNoAxeViolations(page, 'recovery: call code step (320 px, forced colours)');
    await tabTo(/OTP Confirmation Code/);
    await page.keyboard.type((await latestMail(env.server, '+12025550143')).code);
    await page.keyboard.press('Enter');

    await heading('Reset Password').waitFor();
    await expectNoSidewaysScroll('reset step');
    await tabTo('New password');
    await page.keyboard.type('Copper5Meadow');
    await tabTo('Confirm your password');
    await page.keyboard.type('Copper5Meadow');
    await page.keyboard.press('Enter');
    await page.getByText('Password changed successfully').first().waitFor();
    await heading('Log in to your account').waitFor();
  }, 90_000);
});
