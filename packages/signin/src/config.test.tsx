import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from './mount.tsx';
import { api, email, envelope, fakeServer, renderWidget } from './test/fake-server.tsx';

// These journeys type and wait on several screens: slow on a shared machine.
vi.setConfig({ testTimeout: 15_000 });

/** Password, then session login asking for a code by e-mail, then the code accepted. */
const toEmailCode = {
  [api.password]: { body: envelope(1200, 'Success') },
  [api.session]: [
    {
      body: envelope(1201, 'Authentication not completed', {
        successData: { authenticated: false, authenticators: [{ type: 'OTP-EMAIL' }] },
      }),
    },
    { body: envelope(1200, 'User authenticated', { successData: { username: 'alexdemo1' } }) },
  ],
  [api.otpState]: { body: envelope(1200, 'Success', { successData: { phone: [], email: [email('1')] } }) },
  [`POST ${api.email}`]: { body: envelope(1200, 'Success') },
  [`PUT ${api.email}`]: { body: envelope(1200, 'Success') },
  [api.trusted]: { body: envelope(1200, 'Success') },
};

async function signInWithCode() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
  await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
  await user.click(await screen.findByRole('button', { name: 'Email me the code' }, { timeout: 3000 }));
  await screen.findByRole('textbox', { name: /Security code/ });
  return user;
}

describe('config fields of widget spec §3 (issue 9 point 4)', () => {
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
    document.body.innerHTML = '';
  });

  it('accepts the spec’s apiKey, prerequisite list and auth-session object', () => {
    fakeServer({});
    const element = document.body.appendChild(document.createElement('div'));
    const unmount = mount(element, {
      appId: 'APP',
      appName: 'App',
      apiKey: 'k-123',
      prerequisites: ['device-risk'],
      authSession: { id: 'abc' },
      onFinish: () => {},
    });
    unmount();
    expect(() =>
      mount(element, { appId: 'A', appName: 'B', prerequisites: 'x', onFinish: () => {} } as never),
    ).toThrow('prerequisites: must be an array of strings');
  });

  it('pushAppName, when given, is a non-empty string', () => {
    const element = document.body.appendChild(document.createElement('div'));
    expect(() => mount(element, { appId: 'A', appName: 'B', pushAppName: ' ', onFinish: () => {} })).toThrow(
      'pushAppName: must be a non-empty string',
    );
    expect(() =>
      mount(element, { appId: 'A', appName: 'B', pushAppName: 7, onFinish: () => {} } as never),
    ).toThrow('pushAppName: must be a non-empty string');
  });

  it('appScreenSize marks the layout the widget keeps', () => {
    fakeServer({});
    const { container } = renderWidget({ appScreenSize: 'small' });
    expect(container.querySelector('.gh-signin')?.getAttribute('data-screen-size')).toBe('small');
  });

  it('bindDevice true: no trust-device box, and every code check asks to bind, then the binding call', async () => {
    const { requests } = fakeServer(toEmailCode);
    const { onFinish } = renderWidget({ bindDevice: true });
    const user = await signInWithCode();
    expect(screen.queryByRole('checkbox', { name: "Don't ask me again on this device" })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: /Security code/ }), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    const check = requests.find((r) => r.method === 'PUT' && r.path === api.email);
    expect(check?.body).toEqual({ securityCode: '123456', bindDevice: true });
    expect(requests.some((r) => `${r.method} ${r.path}` === api.trusted)).toBe(true);
  });

  it('bindDevice unset: the customer decides with the box (unticked: no binding)', async () => {
    const { requests } = fakeServer(toEmailCode);
    const { onFinish } = renderWidget();
    const user = await signInWithCode();
    expect(screen.getByRole('checkbox', { name: "Don't ask me again on this device" })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Security code/ }), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    const check = requests.find((r) => r.method === 'PUT' && r.path === api.email);
    expect(check?.body).toEqual({ securityCode: '123456', bindDevice: false });
    expect(requests.some((r) => `${r.method} ${r.path}` === api.trusted)).toBe(false);
  });
});
