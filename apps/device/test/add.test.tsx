import type { SignInConfig } from '@gatehouse/signin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { type DeviceKey, loadDeviceKey } from '../src/device/deviceKey.ts';
import { memoryKeyStore } from '../src/device/keyStore.ts';
import { defaultDeviceName } from '../src/pages/add/deviceName.ts';
import { fakeDeviceServer, renderApp } from './fakeDevice.tsx';

/** The widget is tested on its own; here it is a stand-in that finishes the sign-in when asked. */
const given: { config?: SignInConfig } = {};
vi.mock('@gatehouse/signin', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@gatehouse/signin')>();
  return {
    ...actual,
    SignIn: ({ config }: { config: SignInConfig }) => {
      given.config = config;
      return (
        <button
          type="button"
          onClick={() =>
            config.onFinish({
              journey: 'LOGIN',
              code: 1200,
              message: '',
              data: {},
              context: config.sessionContext,
            })
          }
        >
          Finish signing in
        </button>
      );
    },
  };
});

let store: ReturnType<typeof memoryKeyStore>;
let key: DeviceKey;
beforeEach(async () => {
  store = memoryKeyStore();
  key = await loadDeviceKey(store);
  given.config = undefined;
});
afterEach(() => vi.unstubAllGlobals());

test('after the sign-in and then the step-up finish, the device registers with a register proof, signs out and lists the account', async () => {
  const server = fakeDeviceServer();
  renderApp(store, '/add');
  expect(await screen.findByRole('heading', { level: 1, name: 'Add an account' })).toBeTruthy();
  await waitFor(() => expect(document.title).toBe('Add an account – Gatehouse Device'));
  expect(screen.getByText(/then verify your identity once more/)).toBeTruthy();
  const name = screen.getByRole('textbox', { name: 'Name for this device' });
  expect((name as HTMLInputElement).value).toBe(defaultDeviceName());
  await userEvent.clear(name);
  await userEvent.type(name, 'Work phone');
  expect(given.config).toMatchObject({ journey: 'LOGIN', headingLevel: 2 });
  // The server's list, less push (this device cannot answer one before it is added): no hand list.
  expect(given.config).toMatchObject({ excludeAuthenticators: ['PUSH'] });
  expect(given.config?.authenticators).toBeUndefined();
  await userEvent.click(await screen.findByRole('button', { name: 'Finish signing in' }));
  // Signed in: nothing is registered until the step-up (the STEPUP journey) is done too.
  const stepUp = await screen.findByRole('region', { name: 'Verify your identity again' });
  expect(within(stepUp).getByText(/a method you've had for at least 2–3 days/)).toBeTruthy();
  expect(given.config).toMatchObject({ journey: 'STEPUP', headingLevel: 2 });
  expect(given.config).toMatchObject({ excludeAuthenticators: ['PUSH'] });
  expect(given.config?.authenticators).toBeUndefined();
  expect(server.calls('/device/register')).toEqual([]);
  await userEvent.click(within(stepUp).getByRole('button', { name: 'Finish signing in' }));

  const notice = await screen.findByText('This device now approves sign-ins for otpuser1.');
  expect(await screen.findByRole('heading', { level: 1, name: 'Your device' })).toBeTruthy();
  await waitFor(() => expect(document.activeElement).toBe(notice.closest('[tabindex="-1"]')));
  const [register] = server.calls('/device/register');
  expect(register!.body).toMatchObject({ publicKey: key.publicKey, name: 'Work phone' });
  expect(register!.headers['X-XSRF-TOKEN']).toBe('abc.def');
  expect(server.proofs).toContainEqual({ purpose: 'register', ok: true });
  expect(server.calls('/user/session/login/').map((r) => r.method)).toEqual(['DELETE']);
  // The logout came after the registration, which needed the session.
  const order = server.requests.map((r) => r.path);
  expect(order.indexOf('/api/user/session/login/')).toBeGreaterThan(order.indexOf('/api/device/register'));
  expect(await screen.findByRole('heading', { name: 'otpuser1' })).toBeTruthy();
});

test("a registration the server refuses (1403, deviceNeedsFactor or deviceProofRefused): the server's text, which says which, is shown and focused", async () => {
  const refusal =
    "To add this device, verify your identity again with a method you've had for at least 2 days, then try again.";
  const server = fakeDeviceServer({
    refuse: { '/device/register': { code: 1403, message: refusal } },
  });
  renderApp(store, '/add');
  await userEvent.click(await screen.findByRole('button', { name: 'Finish signing in' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Finish signing in' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain(refusal);
  await waitFor(() => expect(document.activeElement).toBe(alert));
  expect(document.title).toBe('Error: Add an account – Gatehouse Device');
  expect(server.calls('/user/session/login/')).toHaveLength(1);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
  expect(await screen.findByRole('button', { name: 'Finish signing in' })).toBeTruthy();
});

test('the default device name reads the browser and the system', () => {
  const chromium = {
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
    userAgentData: { brands: [{ brand: 'Not)A;Brand' }, { brand: 'Chromium' }], platform: 'Linux' },
  } as unknown as Navigator;
  expect(defaultDeviceName(chromium)).toBe('Chromium on Linux');
  const firefox = {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
  } as Navigator;
  expect(defaultDeviceName(firefox)).toBe('Firefox on Windows');
});

test('a route change names the window and moves focus to the new page heading', async () => {
  const server = fakeDeviceServer();
  await server.know(key.publicKey);
  renderApp(store, '/');
  await screen.findByRole('heading', { level: 1, name: 'Your device' });
  const nav = screen.getByRole('navigation', { name: 'Device app' });
  expect(within(nav).getByRole('link', { name: 'Your device' }).getAttribute('aria-current')).toBe('page');
  await userEvent.click(within(nav).getByRole('link', { name: 'Add an account' }));
  const heading = await screen.findByRole('heading', { level: 1, name: 'Add an account' });
  await waitFor(() => expect(document.activeElement).toBe(heading));
  expect(document.title).toBe('Add an account – Gatehouse Device');
  await userEvent.click(screen.getByRole('link', { name: 'Back to your device' }));
  await waitFor(() =>
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Your device' })),
  );
});
