import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
const allFactors = account('allfactors1');
const tokenUser = account('tokenuser1');

/** The codes an authenticator shows now or showed in the step before (the page read it a moment ago). */
function currentCodes(secret: string, digits = 6, period = 30, algorithm = 'SHA1'): string[] {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm, digits, period });
  const now = Date.now();
  return [totp.generate({ timestamp: now }), totp.generate({ timestamp: now - period * 1000 })];
}

/**
 * The device app's Codes page in Chromium (docs/decisions/026-device-app-codes.md): codes added by
 * pasting an otpauth:// address, by a picture of a QR code made here, and from the demo token
 * (GET /api/dev/demo-tokens), each equal to the code `otpauth` computes here; the token's code signs
 * tokenuser1 in at the portal; IndexedDB holds ciphertext only; keyboard only, axe on every
 * screen, forced colours and 320 px.
 */
describe('the device app: codes', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    context = await env.browser.newContext();
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  const open = async () => {
    await page.goto(`${env.server.origin}/device/#/codes`);
    await page.getByRole('heading', { level: 1, name: 'Codes' }).waitFor();
    await page.getByText('No codes on this device yet. Add one below.').waitFor();
  };
  const item = (name: string): Locator =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
  /** The code as the page shows it: the grouped digits, without the space. */
  const codeOf = async (name: string) => {
    const shown = item(name).locator('.codes__digits');
    await shown.waitFor();
    const text = (await shown.textContent()) ?? '';
    expect(text).toMatch(/^\d{3} \d{3}$/);
    return text.replace(' ', '');
  };
  const uriField = () => page.getByRole('textbox', { name: /Address \(otpauth:\/\/\)/ });

  it("pastes allfactors1's authenticator and a QR picture: their codes are otpauth's; a picture without a code is refused", async () => {
    await open();
    await expectNoAxeViolations(page, 'codes: empty');
    const authUri = `otpauth://totp/Gatehouse:allfactors1?issuer=Gatehouse&secret=${allFactors.totp!.secret}`;
    await uriField().fill(authUri);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const shown = await codeOf('Gatehouse: allfactors1');
    expect(currentCodes(allFactors.totp!.secret)).toContain(shown);
    // Screen readers get the digits one by one; the countdown is a progress bar and a text.
    await item('Gatehouse: allfactors1')
      .getByText(`Code: ${shown.split('').join(' ')}`)
      .waitFor({ state: 'attached' });
    const left = Number(await item('Gatehouse: allfactors1').getByRole('progressbar').getAttribute('value'));
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(30);
    await expectNoAxeViolations(page, 'codes: one entry');

    // A QR code made here, as a PNG picture: decoded in the page (jsQR) and added.
    const secret = new Secret({ size: 20 });
    const qrUri = new TOTP({
      issuer: 'Example Bank',
      label: 'qr-user',
      secret,
      algorithm: 'SHA256',
      digits: 8,
    }).toString();
    await page.locator('#code-picture').setInputFiles({
      name: 'qr.png',
      mimeType: 'image/png',
      buffer: await QRCode.toBuffer(qrUri, { type: 'png', width: 400, margin: 4 }),
    });
    const qrShown = item('Example Bank: qr-user').locator('.codes__digits');
    await qrShown.waitFor();
    expect((await qrShown.textContent()) ?? '').toMatch(/^\d{4} \d{4}$/);
    expect(currentCodes(secret.base32, 8, 30, 'SHA256')).toContain(
      (await qrShown.textContent())!.replace(' ', ''),
    );

    // A QR code that is not an authenticator's: the field's error, the summary, the title.
    await page.locator('#code-picture').setInputFiles({
      name: 'link.png',
      mimeType: 'image/png',
      buffer: await QRCode.toBuffer('https://bank.example/', { type: 'png', width: 300 }),
    });
    const summary = errorSummary(page, 'There is a problem');
    await summary.getByRole('link', { name: 'Enter an address that starts with otpauth://totp/' }).waitFor();
    await expect.poll(() => page.title()).toBe('Error: Codes – Gatehouse Device');
    await expectNoAxeViolations(page, 'codes: a refused picture');
  }, 120_000);

  it("adds tokenuser1's demo token and signs tokenuser1 in at the portal with the code read off the page; IndexedDB holds no secret in clear", async () => {
    await open();
    await page.getByRole('heading', { name: 'Demo tokens' }).waitFor();
    await page.getByRole('button', { name: "Add tokenuser1's token" }).click();
    const name = `VIP: ${tokenUser.token!.credentialId}`;
    const code = await codeOf(name);
    expect(currentCodes(tokenUser.token!.secret)).toContain(code);
    await expectNoAxeViolations(page, 'codes: demo token added');

    // IndexedDB: the records read in the page, every string and every byte array.
    const stored = await page.evaluate(
      () =>
        new Promise<{ strings: string[]; bytes: number[][] }>((resolve, reject) => {
          const req = indexedDB.open('gatehouse-device-codes');
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const db = req.result;
            const out = { strings: [] as string[], bytes: [] as number[][] };
            const visit = (value: unknown) => {
              if (typeof value === 'string') out.strings.push(value);
              else if (value instanceof ArrayBuffer) out.bytes.push([...new Uint8Array(value)]);
              else if (ArrayBuffer.isView(value))
                out.bytes.push([...new Uint8Array(value.buffer, value.byteOffset, value.byteLength)]);
              else if (value instanceof CryptoKey) out.strings.push(`key:${value.extractable}:${value.type}`);
              else if (value && typeof value === 'object') Object.values(value).forEach(visit);
            };
            const tx = db.transaction([...db.objectStoreNames]);
            for (const name of db.objectStoreNames) {
              tx.objectStore(name).getAll().onsuccess = (event) =>
                ((event.target as IDBRequest).result as unknown[]).forEach(visit);
            }
            tx.oncomplete = () => resolve(out);
          };
        }),
    );
    expect(stored.strings).toContain('key:false:secret');
    expect(stored.bytes.length).toBeGreaterThan(0);
    const secretText = tokenUser.token!.secret;
    const secretBytes = [...Secret.fromBase32(secretText).bytes];
    const textBytes = [...new TextEncoder().encode(secretText)];
    const contains = (hay: number[], needle: number[]) =>
      hay.some((_, i) => needle.every((b, j) => hay[i + j] === b));
    expect(
      stored.strings.some((s) => s.includes(secretText) || s.includes(tokenUser.token!.credentialId)),
    ).toBe(false);
    expect(stored.bytes.some((b) => contains(b, secretBytes) || contains(b, textBytes))).toBe(false);
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    expect(page.url()).not.toContain(secretText);

    // The portal, in another browser: tokenuser1 signs in with the code the device app shows now.
    const portal = await env.browser.newContext();
    try {
      const web = await portal.newPage();
      await web.goto(`${env.server.origin}/#/login`);
      await web.getByRole('textbox', { name: /Username/ }).fill(tokenUser.username);
      await web.getByLabel('Password', { exact: true }).fill(tokenUser.password);
      await web.getByRole('button', { name: 'Log in' }).click();
      await web.getByRole('heading', { name: 'VIP access code', exact: true }).waitFor();
      await web.getByRole('textbox', { name: /Security code/ }).fill(await codeOf(name));
      await web.getByRole('button', { name: 'Submit' }).click();
      await web
        .getByRole('heading', { name: `Welcome, ${tokenUser.username}`, exact: true })
        .waitFor({ timeout: 15_000 });
    } finally {
      await portal.close();
    }
    expect(env.server.logs.some((l) => l.includes(secretText))).toBe(false);
  }, 120_000);

  // Five axe runs in forced colours: more than the default minute on a busy machine.
  it('by keyboard alone, in forced colours at 320 px: add by pasting, copy, remove after confirming; axe on every screen', async () => {
    await context.close();
    context = await env.browser.newContext({ viewport: { width: 320, height: 640 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    page = await context.newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await open();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page, 'codes: forced colours, 320 px');

    // From the navigation link, Tab reaches the address field.
    await page.getByRole('link', { name: 'Codes' }).focus();
    const field = uriField();
    for (let i = 0; i < 12 && !(await field.evaluate((e) => e === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await field.evaluate((e) => e === document.activeElement)).toBe(true);
    // An empty address first: the summary takes focus.
    await page.keyboard.press('Enter');
    await errorSummary(page, 'There is a problem').waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('gh-error-summary') === true);
    await expectNoAxeViolations(page, 'codes: empty address, forced colours, 320 px');
    await field.focus();
    await page.keyboard.type(
      `otpauth://totp/Gatehouse:allfactors1?issuer=Gatehouse&secret=${allFactors.totp!.secret}`,
    );
    await page.keyboard.press('Enter');
    const name = 'Gatehouse: allfactors1';
    expect(currentCodes(allFactors.totp!.secret)).toContain(await codeOf(name));
    await errorSummary(page, 'There is a problem').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page, 'codes: an entry, forced colours, 320 px');

    // Focus stays in the address field; Shift+Tab back up reaches Copy.
    const copy = item(name).getByRole('button', { name: `Copy the code of ${name}` });
    for (let i = 0; i < 12 && !(await copy.evaluate((e) => e === document.activeElement)); i++) {
      await page.keyboard.press('Shift+Tab');
    }
    expect(await copy.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page
      .getByTestId('announcer')
      .filter({ hasText: `Code of ${name} copied.` })
      .waitFor();
    expect(currentCodes(allFactors.totp!.secret)).toContain(
      await page.evaluate(() => navigator.clipboard.readText()),
    );

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Remove ${name}`,
    );
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Remove ${name}?` });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'codes: remove confirmation');
    // Tab from where the dialog put focus to its confirm button.
    const confirm = dialog.getByRole('button', { name: 'Yes, remove' });
    for (let i = 0; i < 5 && !(await confirm.evaluate((e) => e === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await confirm.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByText('No codes on this device yet. Add one below.').waitFor();
    await page
      .getByTestId('announcer')
      .filter({ hasText: `${name} was removed from this device.` })
      .waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Your codes');
    await expectNoAxeViolations(page, 'codes: removed');
    // Gone from IndexedDB too: a reload shows none.
    await page.reload();
    await page.getByText('No codes on this device yet. Add one below.').waitFor();
  }, 150_000);
});
