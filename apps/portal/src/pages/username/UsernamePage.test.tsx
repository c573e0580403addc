import { findErrorSummary, getErrorSummary } from '@gatehouse/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute } from '../../../test/support.tsx';
import { serviceData } from '../../api.ts';
import { UsernamePage } from './UsernamePage.tsx';

const identify = 'POST /api/user/identity/username';
const attributes = 'GET /api/user/identity/attributes';
const otp = '/api/user/factor/otp/email/authentication';

/** After a failed submit the error is heard: in a live region, or described on the focused element. */
function announced(text: string): boolean {
  const active = document.activeElement as HTMLElement | null;
  const live = [...document.querySelectorAll('[role="alert"], [role="status"], [aria-live]')];
  if (live.some((el) => el.textContent?.includes(text))) return true;
  const described = (active?.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
  return described.includes(text);
}

describe('username / one-time code screen (portal spec §2, §4, §8)', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('Enter from the empty field: the error summary takes focus each time and the title says Error', async () => {
    fakeServer({});
    renderRoute('/username', <UsernamePage />);
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: /Username/ });
    await user.click(field);
    await user.keyboard('{Enter}');
    const summary = await findErrorSummary('There is a problem');
    expect(summary.textContent).toContain('Enter your username.');
    expect(document.activeElement).toBe(summary);
    await waitFor(() => expect(document.title).toBe('Error: Confirm Identity – Prime Portal'));
    // The field is described by its error too.
    expect(field.getAttribute('aria-describedby')).toContain('recovery-username-error');

    // The same failure again, from the field: announced again.
    await user.click(field);
    expect(document.activeElement).toBe(field);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(getErrorSummary('There is a problem')));
  });

  it('an unknown username: the message in the summary, the field cleared, announced after Enter', async () => {
    fakeServer({
      [identify]: { body: envelope(1403, 'The information provided is invalid. Please try again.') },
    });
    renderRoute('/username', <UsernamePage />);
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: /Username/ });
    await user.type(field, 'nobody4242{Enter}');
    const summary = await findErrorSummary('There is a problem');
    expect(summary.textContent).toContain('The information provided is invalid. Please try again.');
    expect((field as HTMLInputElement).value).toBe('');
    expect(announced('The information provided is invalid. Please try again.')).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(summary));
  });

  it('HTTP 429 on the username step says to wait and keeps the username', async () => {
    fakeServer({
      [identify]: {
        status: 429,
        body: envelope(4429, 'Too many attempts. Please wait 60 seconds and try again.'),
      },
    });
    renderRoute('/username', <UsernamePage />);
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: /Username/ });
    await user.type(field, 'alexdemo1{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Too many attempts. Please wait 60 seconds and try again.');
    expect(alert.textContent).not.toContain('invalid');
    expect((field as HTMLInputElement).value).toBe('alexdemo1');
    await waitFor(() => expect(document.title).toBe('Error: Confirm Identity – Prime Portal'));
  });

  it("recovery's channel and phone choices read a masked number as the digits it ends in, not 'X X X'", async () => {
    fakeServer({
      [identify]: { body: envelope(1200, 'User Identified') },
      [attributes]: {
        body: envelope(1200, 'Success', {
          successData: {
            phone: [
              { type: 'TEXT', value: '******0143' },
              { type: 'VOICE', value: '******0143' },
            ],
            deliveries: ['TEXT', 'CALL', 'REP'],
          },
        }),
      },
    });
    renderRoute('/username', <UsernamePage />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Username/ }), 'otponly01{Enter}');
    await screen.findByRole('heading', { name: 'Choose how to confirm your identity' });
    const text = screen.getByRole('radio', { name: 'Text message to number ending in 0 1 4 3' });
    expect(screen.getByRole('radio', { name: 'Voice call to number ending in 0 1 4 3' })).toBeTruthy();
    expect(document.querySelector(`label[for="${text.id}"]`)?.textContent).toContain(
      'Text message to ******0143',
    );
    await user.click(text);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Choose the phone number' });
    expect(screen.getByRole('radio', { name: 'number ending in 0 1 4 3' })).toBeTruthy();
  });

  /** From a stored login result (temporary password) to the code step. */
  async function toCodeStep(answers: Record<string, unknown> = {}) {
    serviceData.saveLoginResult({ username: 'temppass01', sessionStatusCode: 1202, pwdAuthStatusCode: 1200 });
    const requests = fakeServer({
      [identify]: { body: envelope(1200, 'User Identified') },
      [attributes]: {
        body: envelope(1200, 'Success', { successData: { email: [{ value: 't***@example.com' }] } }),
      },
      [`POST ${otp}`]: { body: envelope(1200, 'Success') },
      ...(answers as object),
    });
    renderRoute('/username', <UsernamePage />);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Extra Security Step Required' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const code = await screen.findByRole('textbox', { name: /OTP Confirmation Code/ });
    return { requests, user, code };
  }

  it('a correct code stores the new session status (step 4) and goes to resetPassword', async () => {
    const { user, code } = await toCodeStep({ [`PUT ${otp}`]: { body: envelope(1200, 'Success') } });
    await user.type(code, '123456{Enter}');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/resetPassword'));
    expect(serviceData.loginResult()).toEqual({
      username: 'temppass01',
      sessionStatusCode: 1200,
      pwdAuthStatusCode: 1200,
    });
    expect(serviceData.otpConfirmedFor()).toBe('temppass01');
  });

  it('a short code and a wrong code, each submitted with Enter from the field, are announced', async () => {
    const { user, code } = await toCodeStep({
      [`PUT ${otp}`]: { body: envelope(1428, 'Incorrect code') },
    });
    await user.type(code, '123{Enter}');
    let summary = await findErrorSummary('There is a problem');
    expect(summary.textContent).toContain('Enter the 6-digit one-time code.');
    expect(document.activeElement).toBe(summary);
    await waitFor(() => expect(document.title).toBe('Error: Confirm Identity – Prime Portal'));

    await user.click(code);
    await user.type(code, '456{Enter}');
    await waitFor(() =>
      expect(getErrorSummary('There is a problem').textContent).toContain(
        'Your one-time code is invalid. Please try again or request a new code.',
      ),
    );
    summary = getErrorSummary('There is a problem');
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect((code as HTMLInputElement).value).toBe('');
  });
});
