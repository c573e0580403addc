import { randomBytes, webcrypto } from 'node:crypto';
import {
  deviceProofMessage,
  jwkThumbprint,
  type P256PublicKey,
  toBase64url,
} from '@gatehouse/contract/client';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

const owner = { username: 'pushuser1', password: 'Comet3Prairie' };

/**
 * The stolen-session chain of issue 22 (finding 1) as a browser sees it (decision 030): the owner
 * signs in by push; a second browser holding only the owner's session cookie, minutes later, cannot
 * register a device, cannot open the security page (its step-up goes to the owner's device, and a
 * recently added app is not offered, the widget says why), and recovery offers only the owner's
 * established address. The owner's password still works. Axe on every new screen state.
 */
describe('a stolen session cookie cannot take the account over', () => {
  const env = useServerAndBrowser();
  const contexts: BrowserContext[] = [];
  let ownerDevice: Page;

  const open = async () => {
    const context = await env.browser.newContext();
    contexts.push(context);
    return { context, page: await context.newPage() };
  };
  const heading = (page: Page, name: string | RegExp) =>
    page.getByRole('heading', { name, exact: typeof name === 'string' });
  const requests = (page: Page) => page.getByRole('region', { name: /Requests/ });

  async function signInByPush(page: Page) {
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).fill(owner.username);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Send notification' }).click();
    // Number matching (on by default, decision 032): the number the sign-in screen shows, typed on the device.
    const shown = page.getByText(/^Type \d{2} in the notification/).first();
    await shown.waitFor();
    const number = /\d{2}/.exec((await shown.textContent()) ?? '')![0]!;
    await requests(ownerDevice)
      .getByRole('textbox', { name: /Number shown on the sign-in screen/ })
      .fill(number);
    await requests(ownerDevice).getByRole('button', { name: "Yes, it's me" }).click();
    await heading(page, `Welcome, ${owner.username}`).waitFor({ timeout: 15_000 });
  }

  beforeAll(async () => {
    // The owner's phone: the demo account's seeded (established) device, claimed by this browser.
    const { page } = await open();
    ownerDevice = page;
    await ownerDevice.goto(`${env.server.origin}/device/`);
    await ownerDevice.getByRole('button', { name: "Use pushuser1's device" }).click();
    await ownerDevice.getByText('pushuser1', { exact: true }).first().waitFor();
    // Something added moments ago (as a thief's earlier step might have): an authenticator app and an
    // e-mail address, both recent.
    const { ctx } = env.server;
    const account = await ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('username_key', '=', owner.username)
      .executeTakeFirstOrThrow();
    await ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'Authenticator app',
      secret: randomBytes(20),
      data: { algorithm: 'SHA1', digits: 6, period: 30 },
    });
    await ctx.credentials.add({
      accountId: account.id,
      kind: 'email',
      name: 'E-mail',
      publicPart: 'thief@evil.example',
    });
  });

  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  it('every step of the chain is refused in the browser, and the owner signs in as before', {
    timeout: 120_000,
  }, async () => {
    const { context: ownerContext, page: ownerPage } = await open();
    await signInByPush(ownerPage);
    const session = (await ownerContext.cookies()).find((c) => c.name === 'ET');
    expect(session?.httpOnly).toBe(true);

    // The thief's browser: the owner's session cookie and nothing else.
    const { context: thiefContext, page: thief } = await open();
    await thiefContext.addCookies([{ ...session! }]);
    await thief.goto(`${env.server.origin}/#/security`);

    // The security page asks for a step-up; the push goes to the owner's established device, and
    // the recently added app is not offered: the widget says why.
    await heading(thief, 'Verify your identity to continue').waitFor({ timeout: 15_000 });
    await heading(thief, /We'll send a notification to the .+ app on your mobile device/).waitFor();
    await thief.getByText(/Methods you added recently aren't offered for this check/).waitFor();
    await expectNoAxeViolations(thief, 'stolen session: security page step-up with a recent app');
    await thief.getByRole('button', { name: 'Send notification' }).click();
    await heading(thief, 'We sent a notification to your mobile device').waitFor();
    // It lands on the owner's phone, which declines it.
    await requests(ownerDevice).getByRole('button', { name: "No, it's not me" }).click();
    await heading(thief, "We couldn't verify your identity").waitFor({ timeout: 15_000 });
    await expectNoAxeViolations(thief, 'stolen session: step-up denied on the owner’s device');

    // Registering its own device with the stolen session: refused, in the envelope's words.
    const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const jwk = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
    const publicKey: P256PublicKey = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
    const key = await jwkThumbprint(publicKey);
    const time = env.server.clock.now().toISOString();
    const signature = toBase64url(
      new Uint8Array(
        await webcrypto.subtle.sign(
          { name: 'ECDSA', hash: 'SHA-256' },
          pair.privateKey,
          new TextEncoder().encode(deviceProofMessage('register', time, key)),
        ),
      ),
    );
    const registered = await thief.evaluate(
      async (body) => {
        const xsrf = document.cookie.match(/XSRF-TOKEN=([^;]+)/)?.[1] ?? '';
        const response = await fetch('/api/device/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
          body: JSON.stringify(body),
        });
        return response.json();
      },
      { publicKey, name: 'Pixel', proof: { key, time, signature } },
    );
    expect(registered.responseBaseInfo.status).toEqual({
      code: 1403,
      message:
        "To add this device, verify your identity again with a method you've had for at least 2 days, then try again.",
    });

    // Recovery from a clean browser: only the owner's established address is on file.
    const { page: stranger } = await open();
    await stranger.goto(`${env.server.origin}/#/login`);
    await stranger.getByRole('link', { name: 'Forgot username?' }).click();
    await heading(stranger, 'Confirm Identity').waitFor();
    await stranger.getByRole('textbox', { name: /Username/ }).fill(owner.username);
    await stranger.getByRole('textbox', { name: /Username/ }).press('Enter');
    await heading(stranger, 'Extra Security Step Required').waitFor();
    await expectNoAxeViolations(stranger, 'stolen session: recovery e-mail step');
    const onFile = await stranger.evaluate(async () => {
      const response = await fetch('/api/user/identity/attributes?attributes=email');
      return ((await response.json()).successData.email as Array<{ value: string }>).map((e) => e.value);
    });
    expect(onFile).toHaveLength(1);
    expect(onFile[0]).toMatch(/@example\.com$/);
    expect(await stranger.getByText(/evil\.example/).count()).toBe(0);

    // Nothing of the account changed; the owner's password still signs in.
    const pushes = await env.server.ctx.db
      .selectFrom('credentials')
      .innerJoin('accounts', 'accounts.id', 'credentials.account_id')
      .select('credentials.name')
      .where('accounts.username_key', '=', owner.username)
      .where('credentials.kind', '=', 'push')
      .execute();
    expect(pushes).toHaveLength(1);
    const { page: again } = await open();
    await signInByPush(again);
  });
});
