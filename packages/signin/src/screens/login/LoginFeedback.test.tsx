import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, envelope, fakeServer, renderWidget } from '../../test/fake-server.tsx';

// These journeys type and wait on several screens: slow on a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const saved = {
  'GET /api/user/identity/remember/username': {
    body: envelope(1200, 'User Identified', {
      successData: { usernames: [{ friendlyName: 'first01', value: 'first01', index: 0, id: 'a' }] },
    }),
  },
};

describe('login: announcements, titles, saved usernames, finish (issue 9)', () => {
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
    document.title = 'Sign in – Host';
  });
  afterEach(() => vi.unstubAllGlobals());

  it('announces an empty field submitted with Enter from that field, each time, and titles the window', async () => {
    fakeServer({});
    renderWidget();
    const user = userEvent.setup();
    await waitFor(() => expect(document.title).toBe('Log in to your account – Sign in – Host'));
    const username = screen.getByRole('textbox', { name: /Username/ });
    username.focus();
    await user.keyboard('{Enter}');
    const first = await screen.findAllByRole('alert');
    expect(first.map((a) => a.textContent)).toEqual(['Enter your username.', 'Enter your password.']);
    expect(document.activeElement).toBe(username);
    await waitFor(() => expect(document.title).toBe('Error: Log in to your account – Sign in – Host'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByRole('alert')[0]).not.toBe(first[0]));
    expect(screen.getAllByRole('alert')[0]!.textContent).toBe('Enter your username.');
  });

  it('a server error is announced again on every failed submit', async () => {
    fakeServer({
      [api.password]: {
        body: envelope(1403, 'x', { errorType: 'APPLICATION_ERROR', error: { code: 1403, message: 'x' } }),
      },
    });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Wrong1Password{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      "You've entered an incorrect username or password. Please try again.",
    );
    await user.type(screen.getByLabelText(/^Password/), 'Wrong2Password{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).not.toBe(alert));
  });

  it("arrow keys on the saved-username list never swap the form: 'Use a different username' needs an explicit choice", async () => {
    fakeServer(saved);
    renderWidget();
    const user = userEvent.setup();
    const select = (await screen.findByRole('combobox', { name: /Username/ })) as HTMLSelectElement;
    await user.type(screen.getByLabelText(/^Password/), 'typed');
    select.focus();
    // ArrowDown on a closed select changes its value at once (Chromium on Windows and Linux).
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: '__other__' } });
    expect(screen.getByRole('combobox', { name: /Username/ })).toBe(select);
    expect(screen.queryByRole('textbox', { name: /Username/ })).toBeNull();
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('typed');
    expect((screen.getByRole('checkbox', { name: 'Remember my username' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(document.activeElement).toBe(select);
    // The explicit choice: its own button.
    await user.click(screen.getByRole('button', { name: 'Type a different username' }));
    const field = screen.getByRole('textbox', { name: /Username/ }) as HTMLInputElement;
    expect(field.value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  it("Log in with 'Use a different username' chosen keeps the password and says the username is missing", async () => {
    fakeServer(saved);
    renderWidget();
    const user = userEvent.setup();
    const select = (await screen.findByRole('combobox', { name: /Username/ })) as HTMLSelectElement;
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights');
    // Reached with the arrow keys (only highlighted), then Log in.
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: '__other__' } });
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const field = (await screen.findByRole('textbox', { name: /Username/ })) as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(field));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toContain('Enter your username.');
    expect(alerts.map((a) => a.textContent)).not.toContain('Enter your password.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('Harbor7Lights');
    await waitFor(() => expect(document.title).toBe('Error: Log in to your account – Sign in – Host'));
  });

  it('a new username to remember is saved with PUT ADD', async () => {
    const { requests } = fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [`PUT ${api.remember}`]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1200, 'User authenticated', { successData: { username: 'newuser1' } }),
      },
    });
    const { onFinish } = renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'newuser1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights');
    await user.click(screen.getByRole('checkbox', { name: 'Remember my username' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    const put = requests.find((r) => r.method === 'PUT' && r.path === api.remember);
    expect(put?.body).toEqual({ username: 'newuser1', operation: 'ADD' });
  });

  it('after onFinish the widget takes no more input and says it is done', async () => {
    fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: { body: envelope(1200, 'User authenticated', { successData: { username: 'a' } }) },
    });
    const { onFinish } = renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    const done = screen.getByRole('status');
    expect(done.textContent).toBe("You're signed in.");
    expect(document.activeElement).toBe(done);
    // The finished state names the window too.
    await waitFor(() => expect(document.title).toBe("You're signed in. – Sign in – Host"));
  });

  it("a blocked account sees the spec's security-blocked text on the blocked page", async () => {
    fakeServer({
      [api.password]: {
        body: envelope(
          1401,
          'For security reasons, your access has been blocked. To restore your account, please call a representative',
          { redirectPath: '/blocked', errorType: 'APPLICATION_ERROR' },
        ),
      },
    });
    renderWidget({ repPhone: '1-800-555-0199' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'blocked01');
    await user.type(screen.getByLabelText(/^Password/), 'Orchid2Vale{Enter}');
    await screen.findByRole('heading', { name: 'Your account has been blocked' }, { timeout: 3000 });
    expect(
      screen.getByText(
        'For security reasons, your access has been blocked. To restore your account, please call a representative',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Call 1-800-555-0199' })).toBeTruthy();
  });

  it('an account locked by a fraud report says so and offers the reset that unlocks it', async () => {
    fakeServer({
      [api.password]: {
        body: envelope(1206, 'Locked by fraud report', { errorType: 'APPLICATION_ERROR' }),
      },
    });
    renderWidget({ resetUrl: 'https://bank.example/reset' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'pushuser01');
    await user.type(screen.getByLabelText(/^Password/), 'Orchid2Vale{Enter}');
    await screen.findByRole('heading', { name: 'Your account has been locked' }, { timeout: 3000 });
    expect(
      screen.getByText(
        'Your account was locked because a sign-in request was reported as fraud from your mobile device. To unlock it, reset your password: you will confirm it is you, then choose a new password.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/too many login attempts/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Reset password' })).toBeTruthy();
  });

  it('the lockout after too many attempts keeps the spec text', async () => {
    fakeServer({
      [api.password]: {
        body: envelope(1203, 'x', { errorType: 'APPLICATION_ERROR' }),
      },
    });
    renderWidget({ resetUrl: 'https://bank.example/reset' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'locked001');
    await user.type(screen.getByLabelText(/^Password/), 'Orchid2Vale{Enter}');
    await screen.findByRole('heading', { name: 'Your account has been locked' }, { timeout: 3000 });
    expect(
      screen.getByText(
        "You've made too many login attempts. For security reasons, you'll need to reset your password.",
      ),
    ).toBeTruthy();
  });

  it('an ended session (HTTP 401) says so and offers to sign in again, which logs out and returns to login', async () => {
    const { calls } = fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: { status: 401, body: envelope(1401, 'Please try logging in again.') },
      [api.logout]: { body: null },
    });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await screen.findByRole('heading', { name: '401 Unauthorized' }, { timeout: 3000 });
    expect(screen.getByText('Your session has ended. Please sign in again.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('401 Unauthorized – Sign in – Host'));
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await screen.findByRole('heading', { name: 'Log in to your account' });
    expect(calls()).toContain(api.logout);
  });

  it('an uncaught failure is sent to the client log collector', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { requests } = fakeServer({
      [api.password]: { body: envelope(1777, 'odd') },
      [api.logs]: { body: null },
    });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await screen.findByRole('heading', { name: 'Something went wrong' });
    await waitFor(() => expect(requests.some((r) => `${r.method} ${r.path}` === api.logs)).toBe(true));
    const log = requests.find((r) => `${r.method} ${r.path}` === api.logs)!.body as {
      logs: Array<{ level: string; message: string }>;
    };
    expect(log.logs[0]!.level).toBe('error');
    expect(log.logs[0]!.message).toContain('code 1777');
  });

  it('puts the host title back when it unmounts', async () => {
    fakeServer({});
    const { unmount } = renderWidget();
    await waitFor(() => expect(document.title).toBe('Log in to your account – Sign in – Host'));
    act(() => unmount());
    expect(document.title).toBe('Sign in – Host');
  });
});
