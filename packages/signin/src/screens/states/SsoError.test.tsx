import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWidget } from '../../test/fake-server.tsx';

describe("config start 'ssoError' (a host's failed single sign-on, issue 27)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opens on the /ssoerror screen, its heading focused, and its action goes to the login screen', async () => {
    const server = fakeServer({});
    renderWidget({ start: 'ssoError' });
    const heading = await screen.findByRole('heading', { name: "We couldn't complete this action" });
    expect(screen.getByText('Please try logging in again.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(server.requests).toEqual([]);
    await userEvent.click(screen.getByRole('button'));
    expect(await screen.findByRole('textbox', { name: /Username/ })).toBeTruthy();
  });
});
