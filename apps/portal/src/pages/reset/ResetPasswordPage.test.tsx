import { findErrorSummary } from '@gatehouse/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute } from '../../../test/support.tsx';
import { journeyMemory, serviceData } from '../../api.ts';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';

const status = 'POST /api/user/factor/password/status';
const enrollment = '/api/user/factor/password/enrollment';

describe('reset password (portal spec §2, §4, §5, §8)', () => {
  beforeEach(() => {
    sessionStorage.clear();
    serviceData.markOtpConfirmed('temppass01');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    journeyMemory.forget();
  });

  it('sends the third enrollment form (POST username, old and new password) with the initial password kept in memory', async () => {
    journeyMemory.rememberInitialPassword('Winter6Cloud');
    const requests = fakeServer({
      [status]: { body: envelope(1202, 'Callbacks required') },
      [`POST ${enrollment}`]: { body: envelope(1200, 'Password changed successfully') },
    });
    renderRoute('/resetPassword', <ResetPasswordPage />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'Harvest4Meadow');
    await user.type(screen.getByLabelText('Confirm your password'), 'Harvest4Meadow{Enter}');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    const sent = requests.find((r) => r.path === enrollment);
    expect(sent?.method).toBe('POST');
    expect(sent?.body).toEqual({
      requestBaseInfo: { sessionTokens: {} },
      username: 'temppass01',
      oldPassword: 'Winter6Cloud',
      newPassword: 'Harvest4Meadow',
    });
    // The journey is over: the password is forgotten, and it was never stored.
    expect(journeyMemory.initialPassword()).toBeUndefined();
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('Winter6Cloud');
  });

  it('Enter from a field in error: the summary takes focus on every attempt and the title says Error', async () => {
    fakeServer({});
    renderRoute('/resetPassword', <ResetPasswordPage />);
    const user = userEvent.setup();
    const field = screen.getByLabelText('New password');
    await user.type(field, 'short{Enter}');
    const summary = await findErrorSummary('There is a problem');
    expect(summary.textContent).toContain('Password must be between 8 and 20 characters');
    expect(document.activeElement).toBe(summary);
    await waitFor(() => expect(document.title).toBe('Error: Reset Password – Prime Portal'));

    await user.click(field);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(summary));
  });

  it('leaving a field checks it: the message at the field and said with its name, not when Submit takes focus', async () => {
    fakeServer({});
    renderRoute('/resetPassword', <ResetPasswordPage />);
    const user = userEvent.setup();
    const announcer = screen.getByTestId('announcer');
    const first = screen.getByLabelText('New password');
    await user.type(first, 'short');
    expect(first.getAttribute('aria-invalid')).not.toBe('true');
    expect(announcer.textContent).toBe('');
    await user.tab();
    expect(document.activeElement).not.toBe(first);
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('reset-new-error')?.textContent).toBe(
      'Error: Password must be between 8 and 20 characters',
    );
    expect(announcer.textContent).toBe('Error in New password: Password must be between 8 and 20 characters');

    await user.clear(first);
    await user.type(first, 'Harvest4Meadow');
    const second = screen.getByLabelText('Confirm your password');
    await user.type(second, 'Harvest4Meadox');
    await user.tab();
    expect(announcer.textContent).toBe('Error in Confirm your password: Passwords do not match');
    expect(document.getElementById('reset-confirm-error')?.textContent).toBe('Error: Passwords do not match');

    // Typing is not said; pressing Submit from a field in error: the summary says every error,
    // the field's blur says nothing more.
    await user.clear(first);
    await user.type(first, 'short');
    expect(document.getElementById('reset-new-error')?.textContent).toBe(
      'Error: Password must be between 8 and 20 characters',
    );
    expect(announcer.textContent).toBe('Error in Confirm your password: Passwords do not match');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const summary = await findErrorSummary('There is a problem');
    expect(summary.textContent).toContain('Password must be between 8 and 20 characters');
    expect(announcer.textContent).toBe('Error in Confirm your password: Passwords do not match');
  });

  it('a refused update is announced again on a second identical attempt', async () => {
    fakeServer({
      [status]: { body: envelope(1200, 'Success') },
      [`PUT ${enrollment}`]: {
        status: 400,
        body: envelope(1486, 'Password is too common.'),
      },
    });
    renderRoute('/resetPassword', <ResetPasswordPage />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'Password1');
    await user.type(screen.getByLabelText('Confirm your password'), 'Password1{Enter}');
    const first = await screen.findByText('Password is too common.');
    const alert = first.closest('[role="alert"]');
    expect(alert).not.toBeNull();
    await waitFor(() => expect(document.title).toBe('Error: Reset Password – Prime Portal'));
    await user.keyboard('{Enter}');
    // A new alert element: inserted again, so read again.
    await waitFor(() =>
      expect(screen.getByText('Password is too common.').closest('[role="alert"]')).not.toBe(alert),
    );
  });
});
