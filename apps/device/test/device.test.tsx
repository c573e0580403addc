import { deviceProofMessage, pushAnswerMessage } from '@gatehouse/contract/client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type DeviceKey, loadDeviceKey } from '../src/device/deviceKey.ts';
import { memoryKeyStore } from '../src/device/keyStore.ts';
import { formatTime } from '../src/pages/device/format.ts';
import { fakeDeviceServer, push, renderApp, verifies } from './fakeDevice.tsx';

let store: ReturnType<typeof memoryKeyStore>;
let key: DeviceKey;

beforeEach(async () => {
  store = memoryKeyStore();
  key = await loadDeviceKey(store);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const registration = {
  id: 'cred-1',
  username: 'pushuser1',
  name: 'Chromium on Linux',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
};

describe('device key', () => {
  test('is made once, non-extractable, and the stored pair is reused on the next start', async () => {
    const pair = store.stored()!;
    expect(pair.privateKey.extractable).toBe(false);
    expect(pair.privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
    const again = await loadDeviceKey(store);
    expect(again.thumbprint).toBe(key.thumbprint);
    expect(store.stored()).toBe(pair);
    expect(key.publicKey).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) });
    expect(Object.keys(key.publicKey).sort()).toEqual(['crv', 'kty', 'x', 'y']);
  });

  test('a proof is a signature over the contract message, checked with the public key', async () => {
    const proof = await key.proof('pushes');
    expect(proof.key).toBe(key.thumbprint);
    expect(proof.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(
      await verifies(key.publicKey, proof.signature, deviceProofMessage('pushes', proof.time, proof.key)),
    ).toBe(true);
    expect(
      await verifies(key.publicKey, proof.signature, deviceProofMessage('stream', proof.time, proof.key)),
    ).toBe(false);
  });

  test('two app starts with the same store use the same key', async () => {
    const server = fakeDeviceServer({ registrations: [registration] });
    await server.know(key.publicKey);
    // Each start reads the key from IndexedDB and signs with it (WebCrypto): seconds on a loaded machine.
    const first = renderApp(store);
    await screen.findByRole('heading', { name: 'pushuser1' }, { timeout: 5000 });
    first.unmount();
    renderApp(store);
    await screen.findByRole('heading', { name: 'pushuser1' }, { timeout: 5000 });
    const keys = server
      .calls('/device/registrations')
      .map((r) => (r.body as { proof: { key: string } }).proof.key);
    expect(keys).toEqual([key.thumbprint, key.thumbprint]);
    expect(server.proofs.every((p) => p.ok)).toBe(true);
  });
});

describe('requests', () => {
  test('lists a pending push with its details, counts it in the title, and keeps past ones in History', async () => {
    const server = fakeDeviceServer({
      pushes: [
        push(),
        push({ id: 'old', status: 'DECLINED', answeredAt: '2026-11-23T16:00:00.000Z' }),
        push({ id: 'older', status: 'EXPIRED_PENDING' }),
      ],
    });
    await server.know(key.publicKey);
    renderApp(store);
    const request = await screen.findByRole('article', { name: 'Sign-in request for pushuser1' });
    expect(within(request).getByText('Firefox on Windows')).toBeTruthy();
    expect(within(request).getByText('portal.example')).toBeTruthy();
    expect(within(request).getByText('Sign-in')).toBeTruthy();
    expect(within(request).getByText(/^1:5\d$/)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('(1) Your device – Gatehouse Device'));
    const history = screen.getByRole('region', { name: 'History' });
    expect(within(history).getByText(/Sign-in: declined for pushuser1/)).toBeTruthy();
    expect(within(history).getByText(/Sign-in: expired for pushuser1/)).toBeTruthy();
    // Proofs are in bodies only: no request address carries one.
    expect(server.requests.every((r) => !/proof|signature/i.test(r.path))).toBe(true);
  });

  test('a push arriving on the live channel is listed and announced', async () => {
    const server = fakeDeviceServer();
    await server.know(key.publicKey);
    renderApp(store);
    await screen.findByText('No requests are waiting.');
    await waitFor(() => expect(server.openStreams()).toBe(1));
    const stream = server.calls('/device/stream')[0]!;
    expect(stream.method).toBe('POST');
    expect(stream.headers['X-XSRF-TOKEN']).toBe('abc.def');
    server.send(push({ id: 'push-2', username: 'pushuser2' }));
    await screen.findByRole('article', { name: 'Sign-in request for pushuser2' });
    expect(screen.getByTestId('announcer').textContent).toBe('New request for pushuser2. It is in Requests.');
    expect(document.title).toBe('(1) Your device – Gatehouse Device');
  });

  test("'Yes, it's me' sends APPROVE signed over the answer message; the outcome is shown and focused", async () => {
    const server = fakeDeviceServer({ pushes: [push()] });
    await server.know(key.publicKey);
    renderApp(store);
    const request = await screen.findByRole('article', { name: 'Sign-in request for pushuser1' });
    await userEvent.click(within(request).getByRole('button', { name: "Yes, it's me" }));
    const outcome = await screen.findByText(/You approved the request for pushuser1/);
    const [answer] = server.calls('/device/pushes/answer');
    const body = answer!.body as Record<string, string>;
    expect(body).toMatchObject({ id: 'push-1', decision: 'APPROVE', key: key.thumbprint });
    expect(body.number).toBeUndefined();
    expect(answer!.headers['X-XSRF-TOKEN']).toBe('abc.def');
    expect(await verifies(key.publicKey, body.signature!, pushAnswerMessage('push-1', 'APPROVE', ''))).toBe(
      true,
    );
    expect(await verifies(key.publicKey, body.signature!, pushAnswerMessage('push-1', 'DECLINE', ''))).toBe(
      false,
    );
    await waitFor(() => expect(document.activeElement).toBe(outcome.closest('[tabindex="-1"]')));
    await waitFor(() => expect(screen.getByText('No requests are waiting.')).toBeTruthy());
    expect(
      within(screen.getByRole('region', { name: 'History' })).getByText(/approved for pushuser1/),
    ).toBeTruthy();
  });

  test('with number matching, the number is typed, never offered; an approval without it is refused on the device and the answer signs the typed number', async () => {
    const server = fakeDeviceServer({
      pushes: [push({ numberMatching: true })],
      matching: { 'push-1': '42' },
    });
    await server.know(key.publicKey);
    renderApp(store);
    const request = await screen.findByRole('article', { name: 'Sign-in request for pushuser1' });
    // No choices: nothing on the card a blind approver could pick from.
    expect(within(request).queryAllByRole('radio')).toHaveLength(0);
    const field = within(request).getByRole('textbox', { name: /Number shown on the sign-in screen/ });
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(field.getAttribute('maxlength')).toBe('2');
    expect(field.getAttribute('autocomplete')).toBe('off');
    const yes = within(request).getByRole('button', { name: "Yes, it's me" });
    await userEvent.click(yes);
    const error = await within(request).findByText(
      /Enter the 2-digit number shown where you are signing in\./,
    );
    expect(field.getAttribute('aria-describedby')).toContain(error.closest('[id]')!.id);
    expect(document.activeElement).toBe(field);
    expect(server.calls('/device/pushes/answer')).toHaveLength(0);
    // One digit is not yet a number; letters are not typed at all.
    await userEvent.type(field, '4x');
    expect((field as HTMLInputElement).value).toBe('4');
    await userEvent.type(field, '2');
    await userEvent.click(yes);
    await screen.findByText(/You approved the request for pushuser1/);
    const body = server.calls('/device/pushes/answer')[0]!.body as Record<string, string>;
    expect(body).toMatchObject({ decision: 'APPROVE', number: '42' });
    expect(await verifies(key.publicKey, body.signature!, pushAnswerMessage('push-1', 'APPROVE', '42'))).toBe(
      true,
    );
  });

  test("'Yes, it's me' without the number is pressable, and its error is in place when focus reaches the field, said, and in the title", async () => {
    const server = fakeDeviceServer({ pushes: [push({ numberMatching: true })] });
    await server.know(key.publicKey);
    renderApp(store);
    const request = await screen.findByRole('article', { name: 'Sign-in request for pushuser1' });
    const field = within(request).getByRole('textbox', { name: /Number shown on the sign-in screen/ });
    const yes = within(request).getByRole('button', { name: "Yes, it's me" });
    // Not 'unavailable': pressing it is how the customer learns what is missing.
    expect(yes.getAttribute('aria-disabled')).toBeNull();
    expect(yes.hasAttribute('disabled')).toBe(false);
    let describedAtFocus: string | null = null;
    field.addEventListener('focus', () => {
      describedAtFocus = document.getElementById(`${field.id}-error`)?.textContent ?? null;
    });
    await userEvent.click(yes);
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(describedAtFocus).toMatch(/Enter the 2-digit number shown where you are signing in\./);
    expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-error`);
    expect(screen.getByTestId('announcer').textContent).toBe(
      'Enter the 2-digit number shown where you are signing in.',
    );
    await waitFor(() => expect(document.title).toBe('Error: (1) Your device – Gatehouse Device'));
    // Enter in the focused field, still empty: focus does not move, the error is said again.
    await userEvent.type(field, '4');
    await waitFor(() => expect(document.title).toBe('(1) Your device – Gatehouse Device'));
    await userEvent.type(field, '{Backspace}{Enter}');
    await waitFor(() => expect(document.title).toBe('Error: (1) Your device – Gatehouse Device'));
    expect(screen.getByTestId('announcer').textContent).toBe(
      'Enter the 2-digit number shown where you are signing in.',
    );
    expect(server.calls('/device/pushes/answer')).toHaveLength(0);
  });

  test('a request that expires while it holds focus is replaced by a focused notice that says so', async () => {
    const server = fakeDeviceServer({
      pushes: [push({ numberMatching: true, expiresAt: new Date(Date.now() + 2_500).toISOString() })],
    });
    await server.know(key.publicKey);
    renderApp(store);
    const field = await screen.findByRole(
      'textbox',
      { name: /Number shown on the sign-in screen/ },
      { timeout: 5000 },
    );
    await userEvent.type(field, '4');
    expect(document.activeElement).toBe(field);
    const notice = await screen.findByText(
      'The request for pushuser1 expired before it was answered. Start the sign-in again to get a new one.',
      {},
      { timeout: 5000 },
    );
    await waitFor(() => expect(document.activeElement).toBe(notice.closest('[tabindex="-1"]')));
    expect(document.activeElement).not.toBe(document.body);
  });

  test('a wrong number is reported as such', async () => {
    const server = fakeDeviceServer({
      pushes: [push({ numberMatching: true })],
      matching: { 'push-1': '42' },
    });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.type(
      await screen.findByRole('textbox', { name: /Number shown on the sign-in screen/ }),
      '88',
    );
    await userEvent.click(screen.getByRole('button', { name: "Yes, it's me" }));
    expect(
      await screen.findByText('The number did not match, so the request for pushuser1 was stopped.'),
    ).toBeTruthy();
  });

  test('a browser or system the server could not name is shown as unknown', async () => {
    const server = fakeDeviceServer({
      pushes: [push({ content: { ...push().content, browserName: '', osName: '' } })],
    });
    await server.know(key.publicKey);
    renderApp(store);
    const request = await screen.findByRole('article', { name: 'Sign-in request for pushuser1' });
    expect(within(request).getByText('Unknown browser on an unknown system')).toBeTruthy();
  });

  test("'No, it's not me' declines", async () => {
    const server = fakeDeviceServer({ pushes: [push()] });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: "No, it's not me" }));
    expect(await screen.findByText(/You declined the request for pushuser1/)).toBeTruthy();
    const body = server.calls('/device/pushes/answer')[0]!.body as Record<string, string>;
    expect(await verifies(key.publicKey, body.signature!, pushAnswerMessage('push-1', 'DECLINE', ''))).toBe(
      true,
    );
  });

  test('Report fraud asks to confirm; Cancel sends nothing, confirming sends FRAUD', async () => {
    const server = fakeDeviceServer({ pushes: [push()] });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: 'Report fraud' }));
    let dialog = await screen.findByRole('dialog', { name: 'Report fraud?' });
    expect(dialog.textContent).toContain('the account may be locked');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls('/device/pushes/answer')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Report fraud' }));
    dialog = await screen.findByRole('dialog', { name: 'Report fraud?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, report fraud' }));
    expect(await screen.findByText(/You reported the request for pushuser1 as fraud/)).toBeTruthy();
    const body = server.calls('/device/pushes/answer')[0]!.body as Record<string, string>;
    expect(body.decision).toBe('FRAUD');
    expect(await verifies(key.publicKey, body.signature!, pushAnswerMessage('push-1', 'FRAUD', ''))).toBe(
      true,
    );
  });

  test('an expired push answers with the text of its outcome-table code', async () => {
    const server = fakeDeviceServer({
      pushes: [push()],
      refuse: {
        '/device/pushes/answer': { code: 1410, message: 'This notification has expired.', http: 410 },
      },
    });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: "Yes, it's me" }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'This request has expired. Start the sign-in again to get a new one.',
    );
  });
});

describe('a device without accounts, and accounts removed elsewhere (issue 26)', () => {
  test('a new device, before any account is chosen: no read failure, it says no account uses it yet', async () => {
    // The service refuses the proofs of a key with no registration (1403).
    const server = fakeDeviceServer();
    renderApp(store);
    expect(
      await screen.findByText(
        'No account uses this device yet, so no requests can come here. Add an account below.',
        undefined,
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    await waitFor(() => expect(server.calls('/device/pushes').length).toBeGreaterThan(0));
    expect(screen.queryByText('Requests could not be read just now. We will try again shortly.')).toBeNull();
    expect(screen.queryByText('The accounts could not be read just now.')).toBeNull();
    expect(
      screen.getByText('No account uses this device yet. Add an account to approve its sign-ins here.'),
    ).toBeTruthy();
  });

  test('an account removed on the security page is gone from the device, which says why', async () => {
    const other = { ...registration, id: 'cred-2', username: 'tokenuser1', name: 'Work phone' };
    const server = fakeDeviceServer({ registrations: [registration, other] });
    await server.know(key.publicKey);
    const first = renderApp(store);
    await screen.findByRole('heading', { name: 'pushuser1' }, { timeout: 5000 });
    first.unmount();
    server.drop('cred-1');
    renderApp(store);
    await screen.findByRole('heading', { name: 'tokenuser1' }, { timeout: 5000 });
    expect(screen.queryByRole('heading', { name: 'pushuser1' })).toBeNull();
    expect(
      screen.getByText(
        "pushuser1 no longer uses this device: it was removed on the account's security page or by support, so this device no longer approves its sign-ins. If you did not remove it, sign in and check your security settings.",
      ),
    ).toBeTruthy();
  });

  test('the last account removed elsewhere: said, and no read failure', async () => {
    const server = fakeDeviceServer({ registrations: [registration] });
    await server.know(key.publicKey);
    const first = renderApp(store);
    await screen.findByRole('heading', { name: 'pushuser1' }, { timeout: 5000 });
    first.unmount();
    server.drop('cred-1');
    // With no registration left, the key proves nothing any more (the service's 1403).
    vi.unstubAllGlobals();
    fakeDeviceServer();
    renderApp(store);
    expect(
      await screen.findByText(/^pushuser1 no longer uses this device/, undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.queryByText('The accounts could not be read just now.')).toBeNull();
    expect(screen.queryByText('Requests could not be read just now. We will try again shortly.')).toBeNull();
  });

  test('removing an account on the device itself is not told again as a removal made elsewhere', async () => {
    const server = fakeDeviceServer({ registrations: [registration] });
    await server.know(key.publicKey);
    renderApp(store);
    await screen.findByRole('heading', { name: 'pushuser1' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Remove pushuser1 from this device' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove pushuser1 from this device?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));
    await screen.findByText('No account uses this device yet. Add an account to approve its sign-ins here.');
    expect(screen.queryByText(/no longer uses this device/)).toBeNull();
  });
});

describe('a withdrawn push', () => {
  test("an approval the server refuses as withdrawn (the account locked) says so, never 'You approved'", async () => {
    const server = fakeDeviceServer({
      pushes: [push()],
      refuse: {
        '/device/pushes/answer': { code: 1411, message: 'withdrawn', http: 200 },
      },
    });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: "Yes, it's me" }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'This request was withdrawn: the sign-in it belonged to has ended, for example because the account was locked. Nothing was approved.',
    );
    expect(screen.queryByText(/You approved/)).toBeNull();
  });
});

describe('accounts', () => {
  test("'Last used' of the account shows the time of an answer given on this device, read again from the server", async () => {
    const server = fakeDeviceServer({ pushes: [push()], registrations: [registration] });
    await server.know(key.publicKey);
    renderApp(store);
    await screen.findByRole('heading', { name: 'pushuser1' });
    const lastUsed = () => screen.getByText('Last used').nextElementSibling?.textContent;
    expect(lastUsed()).toBe('Not yet');
    const reads = server.calls('/device/registrations').length;
    const before = new Date().toISOString();
    await userEvent.click(await screen.findByRole('button', { name: "Yes, it's me" }));
    await screen.findByText(/You approved the request for pushuser1/);
    const after = new Date().toISOString();
    await waitFor(() => expect(lastUsed()).not.toBe('Not yet'));
    expect([formatTime(before), formatTime(after)]).toContain(lastUsed());
    expect(server.calls('/device/registrations').length).toBeGreaterThan(reads);
  });

  test('rename: an empty name is refused at the field; a valid one is sent with a rename proof', async () => {
    const server = fakeDeviceServer({ registrations: [registration] });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename the device for pushuser1' }));
    const field = await screen.findByRole('textbox', { name: 'New name for this device' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    await userEvent.clear(field);
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await within(field.closest('form')!).findByText('Enter a name for this device.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(server.calls('/device/registrations/rename')).toHaveLength(0);
    await userEvent.type(field, 'My phone');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await screen.findByText('My phone');
    const [rename] = server.calls('/device/registrations/rename');
    expect(rename!.body).toMatchObject({ id: 'cred-1', name: 'My phone' });
    expect(server.proofs).toContainEqual({ purpose: 'rename:cred-1', ok: true });
    expect(screen.getByTestId('announcer').textContent).toBe(
      'The device for pushuser1 is now called My phone.',
    );
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Rename the device for pushuser1' }),
      ),
    );
  });

  test('rename: an empty name is said whether saved by Enter or by the button, and the field is described by it when focused', async () => {
    const server = fakeDeviceServer({ registrations: [registration] });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename the device for pushuser1' }));
    const field = await screen.findByRole('textbox', { name: 'New name for this device' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    await userEvent.clear(field);
    await userEvent.type(field, '{Enter}');
    await waitFor(() =>
      expect(screen.getByTestId('announcer').textContent).toBe('Enter a name for this device.'),
    );
    expect(document.title).toBe('Error: Your device – Gatehouse Device');
    await userEvent.type(field, 'x{Backspace}');
    let describedAtFocus: string | null = null;
    field.addEventListener('focus', () => {
      const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
      describedAtFocus = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(describedAtFocus).toContain('Enter a name for this device.');
    expect(server.calls('/device/registrations/rename')).toHaveLength(0);
  });

  test('remove asks to confirm, then sends a remove proof and the account leaves the list', async () => {
    const server = fakeDeviceServer({ registrations: [registration] });
    await server.know(key.publicKey);
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove pushuser1 from this device' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove pushuser1 from this device?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));
    await screen.findByText(/No account uses this device yet/);
    expect(server.proofs).toContainEqual({ purpose: 'remove:cred-1', ok: true });
    expect(screen.getByTestId('announcer').textContent).toBe('pushuser1 was removed from this device.');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Accounts on this device' }));
  });
});

describe('demo devices', () => {
  test("in development, 'Use pushuser1's device' claims it with this key; the account then shows", async () => {
    const server = fakeDeviceServer({ dev: true });
    renderApp(store);
    await userEvent.click(await screen.findByRole('button', { name: "Use pushuser1's device" }));
    expect(await screen.findByRole('heading', { name: 'pushuser1' })).toBeTruthy();
    const [claim] = server.calls('/dev/demo-devices/claim');
    expect(claim!.body).toMatchObject({ username: 'pushuser1', publicKey: key.publicKey });
    expect(server.proofs).toContainEqual({ purpose: 'claim:pushuser1', ok: true });
  });

  test('in production (404) there is no demo section', async () => {
    const server = fakeDeviceServer({ dev: false });
    await server.know(key.publicKey);
    renderApp(store);
    await screen.findByText(/No account uses this device yet/);
    await waitFor(() => expect(server.calls('/dev/demo-devices')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Demo devices' })).toBeNull();
  });
});

test('without a key store the app says it cannot work', async () => {
  fakeDeviceServer();
  window.history.replaceState(null, '', '#/');
  const { render } = await import('@testing-library/react');
  const { App } = await import('../src/App.tsx');
  render(<App store={null} />);
  expect((await screen.findByRole('alert')).textContent).toContain('cannot keep a device key');
});
