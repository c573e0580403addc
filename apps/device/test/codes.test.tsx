import 'fake-indexeddb/auto';
import { findErrorSummary, queryErrorSummary } from '@gatehouse/ui/testing';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IDBFactory } from 'fake-indexeddb';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { indexedDbCodeStore } from '../src/codes/codeStore.ts';
import { codeAt, entryName, groupCode, parseOtpUri } from '../src/codes/otpUri.ts';
import { memoryKeyStore } from '../src/device/keyStore.ts';
import { fakeDeviceServer, renderApp } from './fakeDevice.tsx';

/** allfactors1's authenticator and tokenuser1's token (demo/accounts.json). */
const AUTH_SECRET = 'DMRLMW2PLWRIJQZQ6NPIVNJ2W6SGTHFJ';
const TOKEN_SECRET = '6LRANRYFIMHIHSYUHUT6J3ICH36GI7FV';
const authUri = `otpauth://totp/Gatehouse:allfactors1?issuer=Gatehouse&secret=${AUTH_SECRET}&algorithm=SHA1&digits=6&period=30`;
const tokenUri = `otpauth://totp/VIP:VSST71004412?issuer=VIP&secret=${TOKEN_SECRET}&algorithm=SHA1&digits=6&period=30`;

const expected = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at,
  });

beforeEach(() => {
  // A fresh, empty IndexedDB for every test.
  vi.stubGlobal('indexedDB', new IDBFactory());
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('otpauth:// addresses', () => {
  test('a TOTP address gives its name and RFC 6238 parameters', () => {
    const parsed = parseOtpUri(`  ${authUri}  `);
    expect(parsed).toEqual({
      ok: true,
      value: {
        issuer: 'Gatehouse',
        label: 'allfactors1',
        secret: AUTH_SECRET,
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
      },
    });
    expect(parseOtpUri(`otpauth://totp/bob?secret=${AUTH_SECRET}`)).toMatchObject({
      ok: true,
      value: { issuer: '', label: 'bob', algorithm: 'SHA1', digits: 6, period: 30 },
    });
    expect(
      parseOtpUri(`otpauth://totp/x?secret=${AUTH_SECRET}&algorithm=sha512&digits=8&period=60`),
    ).toMatchObject({
      ok: true,
      value: { algorithm: 'SHA512', digits: 8, period: 60 },
    });
  });

  test.each([
    ['', 'uriRequired'],
    ['https://bank.example/?secret=ABC', 'uriNotOtpauth'],
    [`otpauth://hotp/x?secret=${AUTH_SECRET}&counter=1`, 'uriNotTotp'],
    [`otpauth://totp/?secret=${AUTH_SECRET}`, 'uriNoLabel'],
    ['otpauth://totp/x?issuer=y', 'uriSecret'],
    ['otpauth://totp/x?secret=AB1C', 'uriSecret'],
    ['otpauth://totp/x?secret=ABCDEFGH', 'uriSecretShort'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&algorithm=SHA224`, 'uriAlgorithm'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&algorithm=MD5`, 'uriAlgorithm'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&digits=5`, 'uriDigits'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&digits=9`, 'uriDigits'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&period=0`, 'uriPeriod'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&period=600`, 'uriPeriod'],
    [`otpauth://totp/x?secret=${AUTH_SECRET}&period=3x`, 'uriPeriod'],
  ])('%s is refused: %s', (uri, problem) => {
    expect(parseOtpUri(uri)).toEqual({ ok: false, problem });
  });

  test('codes are RFC 6238 Appendix B (SHA-1, 8 digits) and the seconds left count down the period', () => {
    const secret = new Secret({
      buffer: new TextEncoder().encode('12345678901234567890').buffer as ArrayBuffer,
    });
    const p = {
      issuer: '',
      label: 'rfc',
      secret: secret.base32,
      algorithm: 'SHA1' as const,
      digits: 8,
      period: 30,
    };
    expect(codeAt(p, 59_000)).toEqual({ code: '94287082', secondsLeft: 1 });
    expect(codeAt(p, 1_111_111_109_000)).toEqual({ code: '07081804', secondsLeft: 1 });
    expect(codeAt(p, 1_111_111_111_000).code).toBe('14050471');
    expect(codeAt(p, 1_111_111_111_000).secondsLeft).toBe(29);
    expect(groupCode('123456')).toBe('123 456');
    expect(groupCode('12345678')).toBe('1234 5678');
    expect(entryName({ issuer: 'VIP', label: 'VSST71004412' })).toBe('VIP: VSST71004412');
    expect(entryName({ issuer: '', label: 'bob' })).toBe('bob');
  });
});

/** Every record of every store of the codes database, as IndexedDB holds it. */
async function rawRecords(): Promise<unknown[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open('gatehouse-device-codes');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const all = await Promise.all(
    [...db.objectStoreNames].map(
      (name) =>
        new Promise<unknown[]>((resolve) => {
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => resolve(req.result);
        }),
    ),
  );
  db.close();
  return all.flat();
}

/** Whether `needle` occurs in the bytes of any binary field, or in any string, of the records. */
function occurs(records: unknown[], needle: Uint8Array): boolean {
  const text = new TextDecoder().decode(needle);
  const inBytes = (bytes: Uint8Array) => bytes.some((_, i) => needle.every((b, j) => bytes[i + j] === b));
  const visit = (value: unknown): boolean => {
    if (typeof value === 'string') return value.includes(text);
    if (value instanceof ArrayBuffer) return inBytes(new Uint8Array(value));
    if (ArrayBuffer.isView(value))
      return inBytes(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    if (value && typeof value === 'object') return Object.values(value).some(visit);
    return false;
  };
  return records.some(visit);
}

describe('the codes store', () => {
  test('keeps entries sealed with AES-GCM under a non-extractable key: no secret in clear in IndexedDB', async () => {
    const store = indexedDbCodeStore();
    const parsed = parseOtpUri(authUri);
    if (!parsed.ok) throw new Error('demo address refused');
    const added = await store.add(parsed.value);
    expect(added).toMatchObject({ label: 'allfactors1', secret: AUTH_SECRET });

    const records = await rawRecords();
    const key = records.find((r) => r instanceof CryptoKey) as CryptoKey;
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    const entry = records.find((r) => !(r instanceof CryptoKey)) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual(['addedAt', 'id', 'iv', 'sealed']);
    // Neither the base32 text nor the secret's bytes, nor the names, are in any record.
    expect(occurs(records, new TextEncoder().encode(AUTH_SECRET))).toBe(false);
    expect(occurs(records, Secret.fromBase32(AUTH_SECRET).bytes)).toBe(false);
    expect(occurs(records, new TextEncoder().encode('allfactors1'))).toBe(false);
    // The check can fail: the secret's bytes are found where they are.
    expect(occurs([{ x: Secret.fromBase32(AUTH_SECRET).bytes }], Secret.fromBase32(AUTH_SECRET).bytes)).toBe(
      true,
    );

    // Another start of the app reads it back with the stored key; removing deletes the record.
    const again = indexedDbCodeStore();
    expect(await again.list()).toEqual([added]);
    await again.remove(added.id);
    expect(await store.list()).toEqual([]);
    expect((await rawRecords()).filter((r) => !(r instanceof CryptoKey))).toEqual([]);
    expect(localStorage.length + sessionStorage.length).toBe(0);
  });

  test('a record altered in IndexedDB is not shown (AES-GCM authenticates it)', async () => {
    const store = indexedDbCodeStore();
    const parsed = parseOtpUri(tokenUri);
    if (!parsed.ok) throw new Error('demo address refused');
    const added = await store.add(parsed.value);
    const db = await new Promise<IDBDatabase>((resolve) => {
      const req = indexedDB.open('gatehouse-device-codes');
      req.onsuccess = () => resolve(req.result);
    });
    await new Promise<void>((resolve) => {
      const tx = db.transaction('entries', 'readwrite');
      const os = tx.objectStore('entries');
      os.get(added.id).onsuccess = (event) => {
        const record = (event.target as IDBRequest).result;
        const bytes = new Uint8Array(record.sealed);
        bytes[0] = (bytes[0] ?? 0) ^ 1;
        os.put({ ...record, sealed: bytes.buffer });
      };
      tx.oncomplete = () => resolve();
    });
    db.close();
    expect(await store.list()).toEqual([]);
  });
});

describe('the Codes page', () => {
  const open = async (options: Parameters<typeof fakeDeviceServer>[0] = {}) => {
    const server = fakeDeviceServer(options);
    const user = userEvent.setup();
    renderApp(memoryKeyStore(), '/codes');
    await screen.findByRole('heading', { level: 1, name: 'Codes' });
    await screen.findByText('No codes on this device yet. Add one below.');
    return { server, user };
  };
  const uriField = () => screen.getByRole('textbox', { name: /Address \(otpauth:\/\/\)/ });

  test('is in the navigation; a refused address shows its error at the field, in the summary and the title', async () => {
    const { user } = await open();
    const nav = screen.getByRole('navigation', { name: 'Device app' });
    expect(within(nav).getByRole('link', { name: 'Codes' }).getAttribute('aria-current')).toBe('page');
    expect(document.title).toBe('Codes – Gatehouse Device');

    await user.click(screen.getByRole('button', { name: 'Add' }));
    const summary = await findErrorSummary('There is a problem');
    expect(document.activeElement).toBe(summary);
    expect(
      within(summary).getByRole('link', { name: 'Enter the otpauth:// address.' }).getAttribute('href'),
    ).toBe('#code-uri');
    expect(uriField().getAttribute('aria-invalid')).toBe('true');
    expect(uriField().getAttribute('aria-describedby')).toContain('code-uri-error');
    expect(document.getElementById('code-uri-error')?.textContent).toContain('Enter the otpauth:// address.');
    expect(document.title).toBe('Error: Codes – Gatehouse Device');

    await user.click(uriField());
    await user.paste(`otpauth://hotp/x?secret=${AUTH_SECRET}&counter=3`);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(document.getElementById('code-uri-error')?.textContent).toContain(
        'This is a counter-based (HOTP) code. Only time-based (TOTP) codes can be added.',
      ),
    );
    expect(screen.queryByRole('heading', { level: 3 })).toBeNull();
  });

  test('a pasted address shows the live code, digit by digit to screen readers, with its countdown; Copy; Remove after confirming', async () => {
    const { user } = await open();
    await user.click(uriField());
    await user.paste(authUri);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const heading = await screen.findByRole('heading', { level: 3, name: 'Gatehouse: allfactors1' });
    const item = heading.closest('li')!;
    expect(uriField()).toHaveProperty('value', '');
    expect(screen.getByTestId('announcer').textContent).toBe(
      'Gatehouse: allfactors1 was added. Its code is in Your codes.',
    );
    expect(queryErrorSummary('There is a problem')).toBeNull();
    expect(document.title).toBe('Codes – Gatehouse Device');

    const shown = item.querySelector('[data-code]')!;
    const code = shown.getAttribute('data-code')!;
    expect([expected(AUTH_SECRET), expected(AUTH_SECRET, Date.now() - 30_000)]).toContain(code);
    expect(shown.textContent).toBe(`${code.slice(0, 3)} ${code.slice(3)}`);
    expect(shown.getAttribute('aria-hidden')).toBe('true');
    expect(within(item).getByText(`Code: ${code.split('').join(' ')}`)).toBeTruthy();
    const progress = within(item).getByRole('progressbar', {
      name: 'Seconds left for the code of Gatehouse: allfactors1',
    });
    const left = Number(progress.getAttribute('value'));
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(30);
    expect(progress.getAttribute('max')).toBe('30');
    expect(within(item).getByText(/^\d{1,2} s left$/)).toBeTruthy();
    // The countdown is not in a live region: it is not read out every second.
    expect(progress.closest('[aria-live]')).toBeNull();
    expect(
      within(item)
        .getByText(/^\d{1,2} s left$/)
        .closest('[aria-live]'),
    ).toBeNull();

    await user.click(within(item).getByRole('button', { name: 'Copy the code of Gatehouse: allfactors1' }));
    expect([expected(AUTH_SECRET), expected(AUTH_SECRET, Date.now() - 30_000)]).toContain(
      await navigator.clipboard.readText(),
    );
    expect(screen.getByTestId('announcer').textContent).toBe('Code of Gatehouse: allfactors1 copied.');

    // The same secret again: refused.
    await user.click(uriField());
    await user.paste(authUri);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(document.getElementById('code-uri-error')?.textContent).toContain(
        'Gatehouse: allfactors1 is already on this device.',
      ),
    );

    await user.click(within(item).getByRole('button', { name: 'Remove Gatehouse: allfactors1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Gatehouse: allfactors1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { level: 3, name: 'Gatehouse: allfactors1' })).toBeTruthy();
    await user.click(within(item).getByRole('button', { name: 'Remove Gatehouse: allfactors1' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Gatehouse: allfactors1?' })).getByRole(
        'button',
        {
          name: 'Yes, remove',
        },
      ),
    );
    await screen.findByText('No codes on this device yet. Add one below.');
    // Focus goes to the list's heading once the removal is done (it may land after the empty text).
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Your codes' })),
    );
    expect(screen.getByTestId('announcer').textContent).toBe(
      'Gatehouse: allfactors1 was removed from this device.',
    );
    expect(await indexedDbCodeStore().list()).toEqual([]);
  });

  test('entries stay after the app starts again (IndexedDB)', async () => {
    const { user } = await open();
    await user.click(uriField());
    await user.paste(tokenUri);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await screen.findByRole('heading', { level: 3, name: 'VIP: VSST71004412' });
    expect((await indexedDbCodeStore().list()).map((e) => e.label)).toEqual(['VSST71004412']);
    cleanup();
    expect(screen.queryByRole('heading', { level: 3 })).toBeNull();
    renderApp(memoryKeyStore(), '/codes');
    await screen.findByRole('heading', { level: 3, name: 'VIP: VSST71004412' });
  });

  test("development: 'Add tokenuser1's token' adds the demo token from GET devDemoTokens; production shows no demo section", async () => {
    const { user, server } = await open({
      dev: true,
      demoTokens: [{ username: 'tokenuser1', credentialId: 'VSST71004412', uri: tokenUri }],
    });
    await user.click(await screen.findByRole('button', { name: "Add tokenuser1's token" }));
    const heading = await screen.findByRole('heading', { level: 3, name: 'VIP: VSST71004412' });
    const code = heading.closest('li')!.querySelector('[data-code]')!.getAttribute('data-code');
    expect([expected(TOKEN_SECRET), expected(TOKEN_SECRET, Date.now() - 30_000)]).toContain(code);
    expect(server.calls('/dev/demo-tokens')).toHaveLength(1);
    // Never in a URL: the only address the page fetched is the list itself.
    expect(server.requests.some((r) => r.path.includes(TOKEN_SECRET))).toBe(false);
  });

  test('production: no demo tokens section', async () => {
    const { server } = await open({ dev: false });
    await waitFor(() => expect(server.calls('/dev/demo-tokens')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Demo tokens' })).toBeNull();
  });

  // A hundred one-second steps, each rendered: more than the default 5 s on a busy machine.
  test('new codes are announced only when asked, once per change, never the countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      fakeDeviceServer();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp(memoryKeyStore(), '/codes');
      await screen.findByText('No codes on this device yet. Add one below.');
      await user.click(uriField());
      await user.paste(authUri);
      await user.click(screen.getByRole('button', { name: 'Add' }));
      await screen.findByRole('heading', { level: 3, name: 'Gatehouse: allfactors1' });
      const announcer = screen.getByTestId('announcer');
      // Every text the live region is given, as a screen reader would get it.
      const said: string[] = [];
      const observer = new MutationObserver(() => announcer.textContent && said.push(announcer.textContent));
      observer.observe(announcer, { childList: true, characterData: true, subtree: true });
      const shown = () => document.querySelector('[data-code]')?.getAttribute('data-code');
      const step = () =>
        act(async () => {
          vi.advanceTimersByTime(1_000);
        });

      // Not asked: a whole period passes (the code changes) and no code is said.
      const first = shown();
      for (let i = 0; i < 31; i++) await step();
      expect(shown()).not.toBe(first);
      expect(said.filter((text) => text.startsWith('New code'))).toEqual([]);
      said.length = 0;

      const box = screen.getByRole('checkbox', { name: 'Announce each new code' });
      await act(async () => box.click());
      expect(box).toHaveProperty('checked', true);
      // Second by second over two and a half periods: one announcement per new code, no more.
      const changes: string[] = [];
      let last = shown();
      for (let i = 0; i < 75; i++) {
        await step();
        if (shown() !== last) {
          last = shown();
          changes.push(`New code for Gatehouse: allfactors1: ${last!.split('').join(' ')}`);
        }
      }
      expect(changes.length).toBeGreaterThanOrEqual(2);
      expect(said).toEqual(changes);
      observer.disconnect();
    } finally {
      vi.useRealTimers();
    }
  }, 30_000);

  test('where the browser has BarcodeDetector, the camera reads the QR code and is released; a refused camera is an error', async () => {
    const stop = vi.fn();
    const getUserMedia = vi.fn(async () => ({ getTracks: () => [{ stop }] }));
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const seen: unknown[] = [];
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        static getSupportedFormats = async () => ['qr_code', 'ean_13'];
        constructor(options: unknown) {
          seen.push(options);
        }
        detect = async () => [{ format: 'qr_code', rawValue: tokenUri }];
      },
    );
    try {
      const { user } = await open();
      await user.click(await screen.findByRole('button', { name: 'Scan with the camera' }));
      await screen.findByRole('heading', { level: 3, name: 'VIP: VSST71004412' });
      expect(seen).toEqual([{ formats: ['qr_code'] }]);
      expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
      expect(stop).toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Scan with the camera' })).toBeTruthy();

      getUserMedia.mockRejectedValueOnce(new DOMException('denied', 'NotAllowedError'));
      await user.click(screen.getByRole('button', { name: 'Scan with the camera' }));
      const summary = await findErrorSummary('There is a problem');
      const link = within(summary).getByRole('link', {
        name: 'The camera could not be started. Allow this page to use it, or add the code from a picture.',
      });
      expect(link.getAttribute('href')).toBe('#code-camera');
    } finally {
      Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
      vi.restoreAllMocks();
    }
  });
});
