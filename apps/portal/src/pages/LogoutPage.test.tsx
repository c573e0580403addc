import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute } from '../../test/support.tsx';
import { GuardedHomePage } from './HomePage.tsx';
import { LogoutPage } from './LogoutPage.tsx';

describe('logout screen (portal spec §2, §4)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('while signing out: a main landmark and an h1, and the title says so', () => {
    fakeServer({});
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    renderRoute('/logout', <LogoutPage />);
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Signing you out' })).toBeTruthy();
    expect(document.title).toBe('Signing you out – Prime Portal');
  });

  it('HTTP 200 with a failure code is a failure, titled "There was a problem", not "Session Ended"', async () => {
    fakeServer({
      'DELETE /api/user/session/login/': { body: envelope(1401, 'Your session could not be ended.') },
    });
    renderRoute('/logout', <LogoutPage />);
    await screen.findByRole('heading', { level: 1, name: 'There was a problem' });
    expect(screen.getByRole('alert').textContent).toBe(
      'Your session could not be ended. please click logout to retry',
    );
    expect(screen.queryByText('Session Ended')).toBeNull();
    await waitFor(() => expect(document.title).toBe('There was a problem – Prime Portal'));
  });

  it('204 is signed out: Session Ended', async () => {
    fakeServer({ 'DELETE /api/user/session/login/': { status: 204 } });
    renderRoute('/logout', <LogoutPage />);
    await screen.findByRole('heading', { level: 1, name: 'Session Ended' });
    await waitFor(() => expect(document.title).toBe('Session Ended – Prime Portal'));
  });
});

describe('signed-in page guard (portal spec §2 "Route guard")', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('while it checks the session: a main landmark and an h1', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    renderRoute('/home', <GuardedHomePage />);
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Checking your session' })).toBeTruthy();
    expect(document.title).toBe('Checking your session – Prime Portal');
  });
});
