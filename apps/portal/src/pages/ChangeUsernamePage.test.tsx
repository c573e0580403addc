import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, envelope, fakeServer, renderRoute } from '../../test/support.tsx';
import { GuardedChangeUsernamePage } from './ChangeUsernamePage.tsx';
import { GuardedHomePage } from './HomePage.tsx';

// The widget's screens load on demand: slow on a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const signedIn: Answer = {
  body: envelope(1200, 'User authenticated', {
    successData: {
      authenticated: true,
      username: 'alexdemo1',
      displayName: 'alexdemo1',
      signedInAt: '2026-11-23T20:00:00.000Z',
      idleExpiresAt: '2026-11-24T00:00:00.000Z',
      absoluteExpiresAt: '2026-11-24T08:00:00.000Z',
    },
  }),
};

describe('a signed-in customer changes their username (widget spec §1; issue 26)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('the signed-in page offers it', async () => {
    fakeServer({ 'GET /env.json': { body: { name: 'uat' } }, 'GET /api/user/session/login': signedIn });
    renderRoute('/home', <GuardedHomePage />);
    const link = await screen.findByRole('link', { name: 'Change your username' });
    expect(link.getAttribute('href')).toBe('#/changeUsername');
  });

  it('the page hosts the change-username screen; the change goes back to the signed-in page, which says the new name', async () => {
    const requests = fakeServer({
      'GET /env.json': { body: { name: 'uat' } },
      'GET /api/user/session/login': signedIn,
      'PUT /api/user/identity/username': { body: envelope(1200, 'Your username was changed.') },
    });
    renderRoute('/changeUsername', <GuardedChangeUsernamePage />);
    await screen.findByRole('heading', { level: 1, name: 'Change your username' });
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /New username/ }), 'riverside42');
    await user.type(screen.getByLabelText(/Current password/), 'Harbor7Lights{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Continue' }, { timeout: 5000 }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/home'));
    const put = requests.find((r) => r.method === 'PUT' && r.path === '/api/user/identity/username');
    expect(put?.body).toMatchObject({ username: 'riverside42', password: 'Harbor7Lights' });
    expect(window.history.state).toEqual({
      notice: 'Your username is now riverside42. Use it the next time you sign in.',
    });
  });

  it('the signed-in page shows the notice it is given, once, focused', async () => {
    fakeServer({ 'GET /env.json': { body: { name: 'uat' } }, 'GET /api/user/session/login': signedIn });
    renderRoute('/home', <GuardedHomePage />, '/home', {
      notice: 'Your username is now riverside42. Use it the next time you sign in.',
    });
    const notice = await screen.findByText(
      'Your username is now riverside42. Use it the next time you sign in.',
    );
    await waitFor(() => expect(notice.closest('[tabindex="-1"]')).toBe(document.activeElement));
  });

  it('Cancel goes back to the signed-in page', async () => {
    fakeServer({ 'GET /env.json': { body: { name: 'uat' } }, 'GET /api/user/session/login': signedIn });
    renderRoute('/changeUsername', <GuardedChangeUsernamePage />);
    await screen.findByRole('textbox', { name: /New username/ });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/home'));
  });
});
