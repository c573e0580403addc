import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute } from '../../test/support.tsx';
import { journeyMemory } from '../api.ts';
import { loadEnvironment } from '../environment.ts';
import { leaveTo } from '../navigation.ts';
import { t } from '../texts.ts';
import { LoginPage } from './LoginPage.tsx';

vi.mock('../navigation.ts', () => ({ leaveTo: vi.fn() }));

const authPath = '/api/user/factor/password/authentication';
const sessionPath = '/api/user/session/login';

/** The server side of a sign-in with no second factor; the session reports `context`. */
function signInAnswers(context: string) {
  return {
    'GET /env.json': { body: { name: 'uat' } },
    'GET /api/user/identity/remember/username': { body: envelope(1200, 'User Not Identified') },
    [`POST ${authPath}`]: { body: envelope(1200, 'Success') },
    [`POST ${sessionPath}`]: {
      body: envelope(1200, 'User authenticated', { successData: { context, authenticated: true } }),
    },
    'DELETE /api/user/session/login/': { status: 204 },
  };
}

async function logIn(password = 'Harbor7Lights') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/Username/), 'alexdemo1');
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.keyboard('{Enter}');
}

describe('login screen (portal spec §2, §3, §7)', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(leaveTo).mockReset();
    journeyMemory.forget();
  });

  it("sends requestBaseInfo with an empty sessionTokens, Token-Location and SESSION_CTX on the widget's calls", async () => {
    const requests = fakeServer(signInAnswers('PRIMESRVPORTAL'));
    renderRoute('/login', <LoginPage />);
    await logIn();
    await waitFor(() => expect(leaveTo).toHaveBeenCalled());
    const auth = requests.find((r) => r.method === 'POST' && r.path === authPath);
    expect(auth?.body).toEqual({
      requestBaseInfo: { sessionTokens: {} },
      username: 'alexdemo1',
      password: 'Harbor7Lights',
    });
    expect(auth?.headers['Token-Location']).toBe('cookie');
    expect(auth?.headers.SESSION_CTX).toBe('PRIMESRVPORTAL');
    const session = requests.find((r) => r.method === 'POST' && r.path === sessionPath);
    expect(session?.body).toEqual({ requestBaseInfo: { sessionTokens: {} } });
    for (const r of requests.filter((r) => r.path.startsWith('/api/'))) {
      expect(r.headers['Token-Location'], `${r.method} ${r.path}`).toBe('cookie');
    }
  });

  it("a finish in the portal's context sends the browser to the environment's portal address", async () => {
    fakeServer(signInAnswers('PRIMESRVPORTAL'));
    await loadEnvironment();
    renderRoute('/login', <LoginPage />);
    await logIn();
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://portal.uat.primeservices.example/'));
    expect(screen.queryByTestId('where')).toBeNull(); // not a route of this app (#/home)
  });

  it('a finish in another context ends that session and says so, focused, instead of an empty form', async () => {
    const requests = fakeServer(signInAnswers('OTHERAPP'));
    renderRoute('/login', <LoginPage />);
    await logIn();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(t('shell.otherContext'));
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(leaveTo).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/user/session/login/')).toBe(true),
    );
  });

  it('keeps the initial password in memory for the journey, never in storage', async () => {
    fakeServer({
      ...signInAnswers('PRIMESRVPORTAL'),
      [`POST ${authPath}`]: {
        body: envelope(1205, 'Your current password is not strong enough, or has expired.'),
      },
      [`POST ${sessionPath}`]: {
        body: envelope(1202, 'Callbacks required', { callbacks: [{ name: 'PASSWORD', type: 'EXPIRED' }] }),
      },
    });
    renderRoute('/login', <LoginPage />);
    await logIn('Autumn3Field');
    await waitFor(() => expect(journeyMemory.initialPassword()).toBe('Autumn3Field'));
    const stored =
      JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie;
    expect(stored).not.toContain('Autumn3Field');
  });

  describe('the device-risk step the service names in env.json (decision 045)', () => {
    const risk = {
      scriptUrl: 'https://risk.provider.example/profile.js',
      beaconUrl: 'https://rtc.provider.example/beacon',
    };
    const providerScript = () =>
      document.head.querySelector<HTMLScriptElement>('script[data-gh-device-risk]');
    afterEach(() => providerScript()?.remove());

    it("the widget adds the provider's script and reads its beacon", async () => {
      const requests = fakeServer({
        ...signInAnswers('PRIMESRVPORTAL'),
        'GET /env.json': { body: { name: 'local', deviceRisk: risk } },
        'GET /beacon': { body: { provider: 'acme', score: 10 } },
      });
      await loadEnvironment();
      renderRoute('/login', <LoginPage />);
      await waitFor(() => expect(providerScript()?.src).toBe(risk.scriptUrl));
      await waitFor(() => expect(requests.some((r) => r.path === '/beacon')).toBe(true));
    });

    it('none when env.json names none, or names an address that is not http(s)', async () => {
      for (const deviceRisk of [undefined, { ...risk, scriptUrl: 'javascript:alert(1)' }]) {
        const requests = fakeServer({
          ...signInAnswers('PRIMESRVPORTAL'),
          'GET /env.json': { body: { name: 'local', deviceRisk } },
        });
        await loadEnvironment();
        const { unmount } = renderRoute('/login', <LoginPage />);
        await screen.findByLabelText(/Username/);
        expect(providerScript()).toBeNull();
        expect(requests.some((r) => r.path === '/beacon')).toBe(false);
        unmount();
      }
    });
  });
});
