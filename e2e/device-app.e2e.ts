import { webcrypto } from 'node:crypto';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deviceProofMessage,
  fromBase64url,
  jwkThumbprint,
  type P256PublicKey,
  pushAnswerMessage,
} from '../packages/contract/src/client.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

/**
 * The device app in Chromium: its key in IndexedDB (non-extractable, kept across reloads), its
 * proofs and answers verified here with Node's WebCrypto, keyboard use, axe, forced colours and
 * reflow at 320 px. The device calls are answered by the test (page.route) until the server's
 * device plugin is merged; the pages, the widget and the rest of the API are the real ones.
 */
describe('the device app', () => {
  const env = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  let keys: Map<string, P256PublicKey>;
  let calls: Array<{ path: string; body: Record<string, unknown> }>;
  let pushes: Array<Record<string, unknown>>;
  /** Each proof checked against a key the fake knows (before a claim or registration it knows none). */
  let verified: Array<{ what: string; ok: boolean }>;

  const verify = async (jwk: P256PublicKey, signature: string, text: string) =>
    webcrypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      await webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']),
      fromBase64url(signature),
      new TextEncoder().encode(text),
    );
  const ok = (successData: unknown) =>
    JSON.stringify({
      responseBaseInfo: { requestId: 'REQe2e', status: { code: 1200, message: 'Success' } },
      successData,
    });

  async function device(route: Route) {
    const path = new URL(route.request().url()).pathname.replace(/^\/api/, '');
    const body = (route.request().postDataJSON() ?? {}) as Record<string, unknown>;
    calls.push({ path, body });
    const proof = body.proof as { key: string; time: string; signature: string } | undefined;
    const purpose = path === '/dev/demo-devices/claim' ? `claim:${body.username}` : path.split('/').pop()!;
    if (body.publicKey) {
      const jwk = body.publicKey as P256PublicKey;
      keys.set(await jwkThumbprint(jwk), jwk);
    }
    const jwk = proof && keys.get(proof.key);
    if (proof && jwk) {
      const good = await verify(
        jwk,
        proof.signature,
        deviceProofMessage(purpose as 'pushes', proof.time, proof.key),
      );
      verified.push({ what: purpose, ok: good });
    }
    const json = (text: string) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: text });
    switch (path) {
      case '/dev/demo-devices':
        return json(JSON.stringify({ accounts: [{ username: 'pushuser1', about: 'Push approval.' }] }));
      case '/dev/demo-devices/claim':
        return json(ok({}));
      case '/device/registrations':
        return json(
          ok({
            registrations: keys.size
              ? [
                  {
                    id: 'cred-1',
                    username: 'pushuser1',
                    name: 'Demo device',
                    createdAt: new Date().toISOString(),
                    lastUsedAt: null,
                  },
                ]
              : [],
          }),
        );
      case '/device/pushes':
        return json(ok({ pushes }));
      case '/device/pushes/answer': {
        const jwk = keys.get(String(body.key))!;
        const text = pushAnswerMessage(
          String(body.id),
          body.decision as 'APPROVE',
          (body.number as string) ?? '',
        );
        verified.push({
          what: `answer:${body.decision}:${body.number ?? ''}`,
          ok: await verify(jwk, String(body.signature), text),
        });
        pushes = pushes.map((p) =>
          p.id === body.id
            ? { ...p, status: 'COMPLETED_SUCCESSFUL', answeredAt: new Date().toISOString() }
            : p,
        );
        return json(ok({ status: 'COMPLETED_SUCCESSFUL' }));
      }
      case '/device/stream':
        return route.fulfill({
          status: 200,
          contentType: 'text/event-stream',
          body: 'event: pushes\ndata: {}\n\n',
        });
      default:
        return route.fulfill({ status: 404, body: '' });
    }
  }

  beforeEach(async () => {
    keys = new Map();
    calls = [];
    pushes = [];
    verified = [];
    context = await env.browser.newContext();
    await context.route(/\/api\/(device\/|dev\/demo-devices)/, device);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  const open = async (hash = '#/') => {
    await page.goto(`${env.server.origin}/device/${hash}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };

  it('keeps one non-extractable key in IndexedDB across reloads; claims a demo device with it', async () => {
    await open();
    await page.getByRole('button', { name: "Use pushuser1's device" }).click();
    await page.getByRole('heading', { name: 'pushuser1', exact: true }).waitFor();
    const stored = await page.evaluate(
      () =>
        new Promise<{ extractable: boolean; type: string; usages: string[] }>((resolve, reject) => {
          const req = indexedDB.open('gatehouse-device');
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const get = req.result.transaction('keys').objectStore('keys').get('device');
            get.onsuccess = () => {
              const pair = get.result as CryptoKeyPair;
              resolve({
                extractable: pair.privateKey.extractable,
                type: pair.privateKey.type,
                usages: pair.privateKey.usages,
              });
            };
          };
        }),
    );
    expect(stored).toEqual({ extractable: false, type: 'private', usages: ['sign'] });
    const first = (calls.find((c) => c.path === '/dev/demo-devices/claim')!.body.proof as { key: string })
      .key;
    await page.reload();
    await page.getByRole('heading', { name: 'pushuser1', exact: true }).waitFor();
    const after = calls
      .filter((c) => c.path === '/device/registrations')
      .map((c) => (c.body.proof as { key: string }).key);
    expect(new Set(after)).toEqual(new Set([first]));
    expect(verified.length).toBeGreaterThan(2);
    expect(verified.filter((v) => !v.ok)).toEqual([]);
    // Nothing about the device is left in web storage.
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  });

  it('answers a push with number matching by keyboard alone; the answer verifies; axe, forced colours, 320 px', async () => {
    await open();
    await page.getByRole('button', { name: "Use pushuser1's device" }).click();
    await page.getByRole('heading', { name: 'pushuser1', exact: true }).waitFor();
    pushes = [
      {
        id: 'push-1',
        username: 'pushuser1',
        status: 'PENDING',
        description: 'Sign in',
        content: {
          browserName: 'Firefox',
          osName: 'Windows',
          time: new Date().toISOString(),
          host: 'localhost',
          journey: 'LOGIN',
        },
        createdAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 120_000).toISOString(),
        answeredAt: null,
        numbers: ['17', '42', '88'],
      },
    ];
    const request = page.getByRole('article', { name: 'Sign-in request for pushuser1' });
    await request.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.title()).toBe('(1) Your device – Gatehouse Device');
    await expectNoAxeViolations(page, 'device: a pending push');
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.emulateMedia({ forcedColors: 'active' });
    await expectNoAxeViolations(page, 'device: forced colours');
    await page.emulateMedia({ forcedColors: 'none' });
    await page.setViewportSize({ width: 1280, height: 720 });

    await request.getByRole('button', { name: 'Report fraud' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Report fraud?' }).waitFor();
    await expectNoAxeViolations(page, 'device: fraud confirmation');
    await page.keyboard.press('Escape');

    await request.getByRole('radio', { name: '42' }).focus();
    await page.keyboard.press('Space');
    await request.getByRole('button', { name: "Yes, it's me" }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('You approved the request for pushuser1.', { exact: false }).waitFor();
    expect(verified).toContainEqual({ what: 'answer:APPROVE:42', ok: true });
  });

  it('the add-an-account page hosts the widget; axe clean', async () => {
    await open('#/add');
    await page.getByRole('heading', { level: 1, name: 'Add an account' }).waitFor();
    await page.getByRole('textbox', { name: 'Name for this device' }).waitFor();
    await page.getByRole('region', { name: 'Sign in' }).getByRole('button').first().waitFor();
    await expectNoAxeViolations(page, 'device: add an account');
    const manifest = await page.evaluate(async () => (await fetch('/device/manifest.webmanifest')).json());
    expect(manifest).toMatchObject({
      name: 'Gatehouse Device',
      start_url: '/device/',
      scope: '/device/',
      display: 'standalone',
    });
  });
});
