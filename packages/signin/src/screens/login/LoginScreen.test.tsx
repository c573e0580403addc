import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FinishResult } from '../../config.ts';
import { SignIn } from '../../SignIn.tsx';

type Answer = { status?: number; body: unknown };
const envelope = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  responseBaseInfo: { requestId: 'REQtest', status: { code, message } },
  ...extra,
});

/** The network edge: answers by path, records every request. */
function fakeServer(answers: Record<string, Answer>) {
  const requests: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    requests.push({ url, init });
    const path = new URL(url, 'http://localhost').pathname;
    const answer = answers[`${init.method ?? 'GET'} ${path}`];
    if (!answer) return new Response(null, { status: 404 });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return requests;
}

function renderWidget(onFinish = vi.fn<(r: FinishResult) => void>()) {
  render(
    <SignIn
      config={{ appId: 'APP', appName: 'App', sessionContext: 'CTX', subEvent: 'prime_login', onFinish }}
    />,
  );
  return onFinish;
}

describe('login screen', () => {
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says which field is empty and focuses it, without calling the server', async () => {
    const requests = fakeServer({});
    renderWidget();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Enter your username.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/Username/));
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Password/));
    expect(requests.filter((r) => r.init.method !== 'GET')).toHaveLength(0);
  });

  it('limits the username to 50 characters', () => {
    fakeServer({});
    renderWidget();
    expect(screen.getByLabelText(/Username/).getAttribute('maxlength')).toBe('50');
  });

  it('shows the incorrect-credentials message in an alert for 1403 and clears the password', async () => {
    fakeServer({
      'POST /api/user/factor/password/authentication': {
        body: envelope(1403, 'server text', {
          errorType: 'APPLICATION_ERROR',
          error: { code: 1403, message: 'x' },
        }),
      },
    });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Wrong1Password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      "You've entered an incorrect username or password. Please try again.",
    );
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText(/Username/));
  });

  it('forwards 1200 to session login with the session headers and finishes with the context', async () => {
    const requests = fakeServer({
      'POST /api/user/factor/password/authentication': { body: envelope(1200, 'Success') },
      'POST /api/user/session/login': {
        body: envelope(1200, 'User authenticated', {
          successData: { username: 'alexdemo1', authenticated: true, context: 'CTX' },
        }),
      },
    });
    const onFinish = renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), ' alexdemo1 ');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'LOGIN', code: 1200, context: 'CTX' });

    const [auth, login] = requests.filter((r) => r.init.method !== 'GET');
    // Portal spec §3, §7: the sign-in body carries requestBaseInfo with an empty sessionTokens.
    expect(JSON.parse(String(auth!.init.body))).toEqual({
      requestBaseInfo: { sessionTokens: {} },
      username: 'alexdemo1',
      password: 'Harbor7Lights',
    });
    const h = auth!.init.headers as Record<string, string>;
    expect(h['X-Request-Id']).toMatch(/^REQ[A-Za-z0-9]{32}$/);
    expect(h).toMatchObject({
      AppId: 'APP',
      AppName: 'App',
      'Accept-Token-Type': 'ET',
      'Token-Location': 'cookie',
      SESSION_CTX: 'CTX',
      'X-XSRF-TOKEN': 'abc.def',
    });
    expect(auth!.init.credentials).toBe('include');
    expect(login!.init.headers).toMatchObject({
      SESSION_CTX: 'CTX',
      eventtype: 'LOGIN',
      sub_eventtype: 'prime_login',
    });
  });

  it('ends on the error card for a status its table does not list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeServer({ 'POST /api/user/factor/password/authentication': { body: envelope(1777, 'odd') } });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(String(vi.mocked(console.error).mock.calls[0]?.[1])).toContain('code 1777');
  });

  it('offers saved usernames when the device is identified, first preselected; other user clears the form', async () => {
    const requests = fakeServer({
      'GET /api/user/identity/remember/username': {
        body: envelope(1200, 'User Identified', {
          successData: {
            usernames: [
              { friendlyName: 'second1', value: 'second1', index: 1, id: 'b' },
              { friendlyName: 'first01', value: 'first01', index: 0, id: 'a' },
            ],
          },
        }),
      },
      'POST /api/user/factor/password/authentication': { body: envelope(1200, 'Success') },
      'PUT /api/user/identity/remember/username': { body: envelope(1200, 'Success') },
      'POST /api/user/identity/remember/username': { body: envelope(1200, 'Success') },
      'POST /api/user/session/login': {
        body: envelope(1200, 'User authenticated', {
          successData: { username: 'first01', authenticated: true },
        }),
      },
    });
    const onFinish = renderWidget();
    const user = userEvent.setup();
    const select = (await screen.findByRole('combobox', { name: /Username/ })) as HTMLSelectElement;
    expect(select.value).toBe('first01');
    expect([...select.options].map((o) => o.text)).toEqual([
      'first01',
      'second1',
      'Use a different username',
    ]);
    expect((screen.getByRole('checkbox', { name: 'Remember my username' }) as HTMLInputElement).checked).toBe(
      true,
    );

    await user.type(screen.getByLabelText(/^Password/), 'typed');
    await user.selectOptions(select, 'Use a different username');
    const field = screen.getByRole('textbox', { name: /Username/ }) as HTMLInputElement;
    expect(field.value).toBe('');
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('checkbox', { name: 'Remember my username' }) as HTMLInputElement).checked).toBe(
      false,
    );

    await user.click(screen.getByRole('button', { name: 'Use a saved username' }));
    // Focus returns to the saved-username dropdown on the next frame.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('combobox', { name: /Username/ })),
    );
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalled(), { timeout: 5000 });
    const order = requests.map((r) => `${r.init.method} ${new URL(r.url, 'http://x').pathname}`);
    // A username already saved and still remembered is marked as the latest used: the spec's
    // POST (issue 9 point 5); a new one is saved with PUT ADD (below).
    expect(order.slice(1)).toEqual([
      'POST /api/user/factor/password/authentication',
      'POST /api/user/identity/remember/username',
      'POST /api/user/session/login',
    ]);
    expect(JSON.parse(String(requests[2]!.init.body))).toEqual({ username: 'first01' });
  });

  it('emits the logout event on entry when the page carries a logout marker', async () => {
    fakeServer({});
    window.history.replaceState(null, '', '/?logout=1');
    const onLogout = vi.fn();
    const onEvent = vi.fn();
    render(<SignIn config={{ appId: 'APP', appName: 'App', onFinish: vi.fn(), onLogout, onEvent }} />);
    await waitFor(() => expect(onLogout).toHaveBeenCalledTimes(1));
    expect(onEvent).toHaveBeenCalledWith({ type: 'logout' });
    window.history.replaceState(null, '', '/');
  });
});
