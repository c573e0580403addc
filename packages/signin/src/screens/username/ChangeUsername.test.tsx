import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, envelope, fakeServer, renderWidget } from '../../test/fake-server.tsx';

describe('change username: failed submits are announced (issue 9 point 15)', () => {
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
  });
  afterEach(() => vi.unstubAllGlobals());

  it('Enter from the field in error announces the error each time; the title says Error', async () => {
    fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1202, 'Callbacks required', { callbacks: [{ name: 'PASSWORD', type: 'SETUP' }] }),
      },
      'PUT /api/user/identity/username': { body: envelope(1474, 'taken') },
    });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'forceupd01');
    await user.type(screen.getByLabelText(/^Password/), 'Quartz5Lake{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Update username' }, { timeout: 3000 }));
    const field = await screen.findByRole('textbox', { name: /New username/ });
    field.focus();
    await user.keyboard('{Enter}');
    const first = await screen.findAllByRole('alert');
    expect(first.map((a) => a.textContent)).toEqual([
      'Enter a new username.',
      'Enter your current password.',
    ]);
    expect(document.activeElement).toBe(field);
    await waitFor(() => expect(document.title.startsWith('Error: Create a new username')).toBe(true));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByRole('alert')[0]).not.toBe(first[0]));

    // Rules not met, then a server error: each one a new alert.
    await user.type(field, 'abc');
    await user.type(screen.getByLabelText(/Current password/), 'Quartz5Lake');
    field.focus();
    await user.keyboard('{Enter}');
    const notMet = await screen.findByRole('alert');
    expect(notMet.textContent).toContain('Username requirements are not met.');
    // On the field it is about: marked invalid and described by the message.
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(notMet.closest('[id]')?.id ?? 'missing');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).not.toBe(notMet));
    await user.clear(field);
    await user.type(field, 'newname42{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'The username you entered is already taken. Please try another one.',
      ),
    );
    expect(field.getAttribute('aria-invalid')).toBe('true');
  }, 20_000);

  it("start 'changeUsername': a signed-in customer opens on the change-username screen; Continue hands the new name to the host, Cancel goes back to it", async () => {
    const { calls } = fakeServer({
      'PUT /api/user/identity/username': { body: envelope(1200, 'Your username was changed.') },
    });
    const { onFinish, onCancel } = renderWidget({ journey: 'STEPUP', start: 'changeUsername' });
    const user = userEvent.setup();
    const field = await screen.findByRole('textbox', { name: /New username/ });
    expect(screen.getByRole('heading', { name: 'Create a new username' })).toBeTruthy();
    await user.type(field, 'riverside42');
    await user.type(screen.getByLabelText(/Current password/), 'Quartz5Lake{Enter}');
    await screen.findByRole('heading', { name: "You've changed your username" }, { timeout: 3000 });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(onFinish.mock.calls[0]![0]).toMatchObject({
      journey: 'STEPUP',
      code: 1200,
      data: { username: 'riverside42' },
    });
    // No login transaction to go on with: no session login, no extend.
    expect(calls()).not.toContain(api.session);
    expect(calls()).not.toContain(api.extend);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it("start 'changeUsername': Cancel tells the host", async () => {
    fakeServer({});
    const { onCancel } = renderWidget({ journey: 'STEPUP', start: 'changeUsername' });
    await screen.findByRole('textbox', { name: /New username/ });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('the live progress says when the last requirement is met, not only the ones before it', async () => {
    fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1202, 'Callbacks required', { callbacks: [{ name: 'PASSWORD', type: 'SETUP' }] }),
      },
    });
    renderWidget();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'forceupd01');
    await user.type(screen.getByLabelText(/^Password/), 'Quartz5Lake{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Update username' }, { timeout: 3000 }));
    const field = await screen.findByRole('textbox', { name: /New username/ });
    const progress = () => document.querySelector('[aria-live="polite"].gh-username-rules__progress');
    await user.type(field, 'ab');
    await waitFor(() => expect(progress()?.textContent).toMatch(/of \d+ username requirements met\./));
    await user.clear(field);
    await user.type(field, 'harbourlights27');
    await waitFor(() => expect(progress()?.textContent).toBe('All username requirements met.'));
  });
});
