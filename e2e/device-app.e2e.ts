import { webcrypto } from 'node:crypto';
import {
  deviceProofMessage,
  fromBase64url,
  jwkThumbprint,
  type P256PublicKey,
  pushAnswerMessage,
} from '@gatehouse/contract/client';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  let calls: Array<{ path: string; body: Record<string, unknown>; language?: string }>;
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
    calls.push({ path, body, language: route.request().headers()['accept-language'] });
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

  it('answers a push with number matching by keyboard alone, the number typed; the answer verifies; axe, forced colours, 320 px', async () => {
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
        numberMatching: true,
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

    // No choices: the customer types the number the sign-in screen shows (decision 032).
    expect(await request.getByRole('radio').count()).toBe(0);
    const field = request.getByRole('textbox', { name: /Number shown on the sign-in screen/ });
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.focus();
    await page.keyboard.type('4x2');
    expect(await field.inputValue()).toBe('42');
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

  it('in a Spanish browser: the pages, <html lang>, the calls and the hosted widget in Spanish; axe clean', async () => {
    const spanish = await env.browser.newContext({ locale: 'es-ES' });
    await spanish.route(/\/api\/(device\/|dev\/demo-devices)/, device);
    const es = await spanish.newPage();
    try {
      await es.goto(`${env.server.origin}/device/#/`);
      await es.getByRole('heading', { level: 1, name: 'Su dispositivo' }).waitFor();
      expect(await es.evaluate(() => document.documentElement.lang)).toBe('es');
      await expect.poll(() => es.title()).toBe('Su dispositivo – Gatehouse Device');
      await es.getByRole('navigation', { name: 'Aplicación del dispositivo' }).waitFor();
      await es.getByRole('button', { name: 'Usar el dispositivo de pushuser1' }).click();
      await es
        .locator('#main')
        .getByText('Este dispositivo ahora aprueba los inicios de sesión de pushuser1.')
        .waitFor();
      await es.getByRole('heading', { name: 'pushuser1', exact: true }).waitFor();
      await es.getByRole('button', { name: 'Cambiar nombre del dispositivo de pushuser1' }).waitFor();
      await expectNoAxeViolations(es, 'device (es)');
      // The app's own calls ask the service for Spanish (not the browser's whole list).
      const device = calls.filter((c) => c.path.startsWith('/device/') || c.path.startsWith('/dev/'));
      expect(device.length).toBeGreaterThan(2);
      expect(device.filter((c) => c.language !== 'es')).toEqual([]);

      await es.getByRole('link', { name: 'Agregar una cuenta' }).first().click();
      await es.getByRole('heading', { level: 1, name: 'Agregar una cuenta' }).waitFor();
      await es.getByRole('textbox', { name: 'Nombre para este dispositivo' }).waitFor();
      const widget = es.getByRole('region', { name: 'Iniciar sesión' });
      await widget.getByRole('heading', { name: 'Inicie sesión en su cuenta' }).waitFor();
      expect(await es.locator('.gh-signin').getAttribute('lang')).toBe('es');
      await widget.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
      await expectNoAxeViolations(es, 'device: add an account (es)');

      await es.getByRole('link', { name: 'Códigos' }).click();
      await es.getByRole('heading', { level: 1, name: 'Códigos' }).waitFor();
      await es.getByText('Todavía no hay códigos en este dispositivo. Agregue uno a continuación.').waitFor();
      await expectNoAxeViolations(es, 'device: codes (es)');
    } finally {
      await spanish.close();
    }
  });
});
