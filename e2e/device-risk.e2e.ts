import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * The device-risk step on the portal the service serves (widget spec §7, decision 045): the service's
 * RISK_SCRIPT_URL and RISK_BEACON_URL alone turn it on. The provider is outside the bank, so here it
 * is a local HTTP server (the test double at the edge): its script, and its beacon's signals.
 */
describe("the portal runs the device-risk step the service's settings name", () => {
  let provider: Server;
  let server: RunningServer;
  let browser: Browser;
  const asked: string[] = [];

  beforeAll(async () => {
    provider = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.setHeader('Access-Control-Allow-Origin', '*');
      if (request.url === '/profile.js') {
        response.setHeader('Content-Type', 'text/javascript');
        response.end('window.riskProfiled = true;');
      } else {
        response.setHeader('Content-Type', 'application/json');
        response.end(
          JSON.stringify({ provider: 'acme', score: 91, reasons: ['new_device'], reference: 'r-1' }),
        );
      }
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    server = await startServer({ RISK_SCRIPT_URL: `${at}/profile.js`, RISK_BEACON_URL: `${at}/beacon` });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => provider?.close(resolve));
  });

  it("loads the provider's script under the page's CSP and records its signals on the sign-in", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    await page.goto(`${server.origin}/#/login`);
    await expect
      .poll(() => page.evaluate(() => (window as { riskProfiled?: boolean }).riskProfiled))
      .toBe(true);
    await page.getByLabel('Username', { exact: true }).fill('otponly01');
    await page.getByLabel('Password', { exact: true }).fill('River8Stone');
    const forwarded = page.waitForResponse((r) => r.url().endsWith('/api/user/risk/beacon'));
    await page.getByRole('button', { name: 'Log in' }).click();
    expect((await forwarded).status()).toBe(204);
    const journey = await server.ctx.db
      .selectFrom('journeys')
      .select('data')
      .where('kind', '=', 'login')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect((journey.data as { risk?: { score: number } }).risk?.score).toBe(91);
    expect(asked).toEqual(expect.arrayContaining(['/profile.js', '/beacon']));
    expect(refused).toEqual([]);
    await context.close();
  });
});
