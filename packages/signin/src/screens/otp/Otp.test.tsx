import { getBySpokenText, spokenText } from '@gatehouse/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignIn } from '../../SignIn.tsx';
import {
  type Answer,
  api,
  email,
  envelope,
  fakeServer,
  phone,
  renderWidget,
  stepUpAnswers,
} from '../../test/fake-server.tsx';
import { heading } from '../../test/heading.ts';

// These journeys type and wait on several screens: slow on a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const both = { phone: [phone('0143')], email: [email('1')] };
const allOtp = [{ type: 'OTP-SMS' }, { type: 'OTP-VOICE' }, { type: 'OTP-EMAIL' }] as const;
const sent = { body: envelope(1200, 'Success') };

describe('one-time code screens (issue 9)', () => {
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it("offers both 'Get the code another way' and 'Can't receive the code?' to a customer with a phone and an e-mail", async () => {
    fakeServer(stepUpAnswers(both));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    await heading('Verify your identity');
    expect(screen.getByRole('button', { name: 'Get the code another way' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: "Can't receive the code?" }));
    // The step-up representative page keeps a heading (to land focus on and name the screen).
    await heading('Verify your identity');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(screen.queryByText('Call us to verify your identity')).toBeNull();
  });

  it('step-up: the methods the server left out as recently added are named on the screen it opens, and only in step-up', async () => {
    fakeServer(
      stepUpAnswers(both, {
        'GET /api/user/factor/authenticators': {
          body: envelope(1200, 'Success', {
            successData: { authenticators: [{ type: 'OTP-SMS' }], recent: ['TOTPAUTHN', 'PUSH'] },
          }),
        },
      }),
    );
    renderWidget({ journey: 'STEPUP' });
    await heading('Verify your identity');
    expect(
      screen.getByText(
        "Methods you added recently aren't offered for this check: a new authenticator app, token app or mobile device can confirm changes to your security settings only after 2–3 days. You can still use them to sign in.",
      ),
    ).toBeTruthy();
  });

  it('step-up: no notice when nothing was left out as recent', async () => {
    fakeServer(
      stepUpAnswers(both, {
        'GET /api/user/factor/authenticators': {
          body: envelope(1200, 'Success', { successData: { authenticators: [{ type: 'OTP-SMS' }] } }),
        },
      }),
    );
    renderWidget({ journey: 'STEPUP' });
    await heading('Verify your identity');
    expect(screen.queryByText(/Methods you added recently/)).toBeNull();
  });

  it('a language switch on the code screen keeps the journey: the same screen, the typed digits, no new code sent', async () => {
    const { calls } = fakeServer(stepUpAnswers(both, { [`POST ${api.email}`]: sent }));
    const config = { journey: 'STEPUP' as const, authenticators: [{ type: 'OTP-EMAIL' as const }] };
    const { rerender, onFinish, onCancel, onEvent } = renderWidget(config);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Email me the code' }));
    const field = (await screen.findByRole('textbox', { name: /Security code/ })) as HTMLInputElement;
    await user.type(field, '123');
    const sends = calls().filter((c) => c === `POST ${api.email}`).length;
    rerender(
      <SignIn
        config={{ appId: 'APP', appName: 'App', onFinish, onCancel, onEvent, ...config, language: 'es' }}
      />,
    );
    await screen.findByRole('heading', { name: 'Ingrese el código que le enviamos por correo electrónico' });
    const same = screen.getByRole('textbox', { name: /Código de seguridad/ }) as HTMLInputElement;
    expect(same.value).toBe('123');
    expect(calls().filter((c) => c === `POST ${api.email}`)).toHaveLength(sends);
  });

  it('a host page named after the screen is not named twice in the window title', async () => {
    fakeServer(
      stepUpAnswers(both, {
        'GET /api/user/factor/authenticators': {
          body: envelope(1200, 'Success', { successData: { authenticators: [{ type: 'OTP-SMS' }] } }),
        },
      }),
    );
    document.title = 'Verify your identity – Prime Portal';
    renderWidget({ journey: 'STEPUP' });
    await heading('Verify your identity');
    // wait: the widget names the window in a microtask after the screen; one macrotask lets it run
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe('Verify your identity – Prime Portal');
  });

  it('shows a loading status while the contacts load, never an empty card', async () => {
    let release = () => {};
    const wait = new Promise<void>((r) => {
      release = r;
    });
    fakeServer(
      stepUpAnswers(both, {
        [api.otpState]: { body: envelope(1200, 'Success', { successData: both }), wait },
      }),
    );
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Loading…');
    release();
    await heading('Verify your identity');
  });

  it("shows the server's text when a code check fails, clears and focuses the field, and the error is a live alert", async () => {
    fakeServer(
      stepUpAnswers(both, {
        [`POST ${api.email}`]: sent,
        [`PUT ${api.email}`]: {
          body: envelope(1428, 'Security code not recognized. Try again. 3 tries left.', {
            errorType: 'APPLICATION_ERROR',
            error: { code: 1428, message: 'Security code not recognized. Try again. 3 tries left.' },
          }),
        },
      }),
    );
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-EMAIL' }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Email me the code' }));
    const field = (await screen.findByRole('textbox', { name: /Security code/ })) as HTMLInputElement;
    await user.type(field, '123456{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Security code not recognized. Try again. 3 tries left.');
    expect(field.value).toBe('');
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('aria-describedby')).toContain(alert.closest('p')!.id);
    expect(document.title.startsWith('Error: Enter the code we emailed you')).toBe(true);

    // The same failure again is a new alert, so it is announced again.
    await user.type(field, '654321{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).not.toBe(alert));
    expect(screen.getByRole('alert').textContent).toContain('3 tries left.');
  });

  it('announces an empty or short code submitted with Enter from the field', async () => {
    fakeServer(stepUpAnswers(both, { [`POST ${api.sms}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    const field = await screen.findByRole('textbox', { name: /Security code/ });
    field.focus();
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your security code.');
    expect(document.activeElement).toBe(field);
    await user.type(field, '12{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Enter your 6-digit security code.'),
    );
  });

  it('follows the redirect path of a successful check, and goes to the error route when the path is not a screen', async () => {
    for (const [redirectPath, expected] of [
      ['/forcedaci', 'Update your username'],
      ['/no-such-screen', 'Something went wrong'],
      ['/authenticator/totp', 'Enter the code from your authenticator app'],
    ] as const) {
      const { calls } = fakeServer(
        stepUpAnswers(both, {
          [`POST ${api.email}`]: sent,
          [`PUT ${api.email}`]: { body: envelope(1200, 'Success', { redirectPath }) },
        }),
      );
      const { onFinish, unmount } = renderWidget({
        journey: 'STEPUP',
        authenticators: [{ type: 'OTP-EMAIL' }],
      });
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Email me the code' }));
      await user.type(await screen.findByRole('textbox', { name: /Security code/ }), '123456{Enter}');
      await heading(expected);
      expect(onFinish).not.toHaveBeenCalled();
      expect(calls()).not.toContain(api.update);
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('a channel switch clears the last channel’s code error; voice is offered only when allowed', async () => {
    fakeServer(
      stepUpAnswers(both, {
        [`POST ${api.sms}`]: sent,
        [`POST ${api.voice}`]: sent,
        [`PUT ${api.sms}`]: { body: envelope(1428, 'Security code not recognized. Try again.') },
      }),
    );
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    await user.type(await screen.findByRole('textbox', { name: /Security code/ }), '123456{Enter}');
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'call me with the code' }));
    await heading('Enter the code from our call');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Security code not recognized. Try again.')).toBeNull();
    expect(document.title.startsWith('Error:')).toBe(false);
  });

  it('the voice code screen names the masked number it calls, from the contact screen and from the text screen', async () => {
    // Shown masked, read as the digits it ends in (not 'X X X').
    const calling = () => {
      const line = getBySpokenText(
        'We are calling number ending in 0 1 4 3 with the code. It will expire after 30 minutes.',
      );
      expect(line.textContent).toContain('We are calling (XXX) XXX-0143');
    };
    fakeServer(stepUpAnswers(both, { [`POST ${api.sms}`]: sent, [`POST ${api.voice}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Call me with the code' }));
    await heading('Enter the code from our call');
    calling();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    await heading('Enter the code we texted you');
    await user.click(screen.getByRole('button', { name: 'call me with the code' }));
    await heading('Enter the code from our call');
    calling();
  });

  it('does not offer a voice call on the text screen when the host excluded voice', async () => {
    fakeServer(stepUpAnswers(both, { [`POST ${api.sms}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-SMS' }, { type: 'OTP-EMAIL' }] });
    const user = userEvent.setup();
    await heading('Verify your identity');
    expect(screen.queryByRole('button', { name: 'Call me with the code' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Text me the code' }));
    await heading('Enter the code we texted you');
    expect(screen.queryByRole('button', { name: 'call me with the code' })).toBeNull();
  });

  it('says why on the representative page after a 1491', async () => {
    fakeServer(
      stepUpAnswers(both, {
        [`POST ${api.email}`]: {
          body: envelope(1491, 'Please try another method to verify your identity.'),
        },
      }),
    );
    renderWidget({ authenticators: [{ type: 'OTP-EMAIL' }], journey: 'STEPUP' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Email me the code' }));
    await screen.findByRole('button', { name: 'Continue' });
    expect(screen.getByRole('alert').textContent).toContain(
      'Please try another method to verify your identity.',
    );
  });

  it('uses autocomplete one-time-code for texted and e-mailed codes, off for a code read out', async () => {
    fakeServer(stepUpAnswers(both, { [`POST ${api.sms}`]: sent, [`POST ${api.voice}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    const field = await screen.findByRole('textbox', { name: /Security code/ });
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    await user.click(screen.getByRole('button', { name: 'call me with the code' }));
    await heading('Enter the code from our call');
    expect(screen.getByRole('textbox', { name: /Security code/ }).getAttribute('autocomplete')).toBe('off');
  });

  it("switching to e-mail on the contact screen moves focus to the heading (the link's view is gone)", async () => {
    fakeServer(stepUpAnswers(both));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await heading('Verify your identity');
    // The arrival focus (400 ms) has happened, so it cannot be what puts focus on the heading below.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Verify your identity' })),
    );
    await user.click(screen.getByRole('button', { name: 'Get the code another way' }));
    await screen.findByText('This is the email address we have on file for you.');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Verify your identity' })),
    );
  });

  it('a resent code clears the last code and its error', async () => {
    fakeServer(
      stepUpAnswers(both, {
        [`POST ${api.sms}`]: sent,
        [`PUT ${api.sms}`]: {
          body: envelope(1428, 'Security code not recognized. Try again.', {
            errorType: 'APPLICATION_ERROR',
          }),
        },
      }),
    );
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    const field = (await screen.findByRole('textbox', { name: /Security code/ })) as HTMLInputElement;
    await user.type(field, '123456{Enter}');
    await screen.findByText('Security code not recognized. Try again.');
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(screen.queryByText('Security code not recognized. Try again.')).toBeNull());
    expect(field.value).toBe('');
    expect(field.getAttribute('aria-invalid')).not.toBe('true');
  });

  it("'Get the code another way' on the text code screen goes to the e-mail contacts", async () => {
    fakeServer(stepUpAnswers(both, { [`POST ${api.sms}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    await heading('Enter the code we texted you');
    await user.click(screen.getByRole('button', { name: 'Get the code another way' }));
    await screen.findByText('This is the email address we have on file for you.');
    expect(screen.getByRole('button', { name: 'Email me the code' })).toBeTruthy();
  });

  it("without e-mail among the allowed factors, the text code screen offers no 'Get the code another way' (it led back to the same phones); another phone and the representative stay", async () => {
    const twoPhones = { phone: [phone('0143'), phone('0188')], email: [email('1')] };
    fakeServer(stepUpAnswers(twoPhones, { [`POST ${api.sms}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-SMS' }, { type: 'OTP-VOICE' }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Text me the code' }));
    await heading('Enter the code we texted you');
    expect(screen.queryByRole('button', { name: 'Get the code another way' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Try another phone number' })).toBeTruthy();
    expect(screen.getByRole('button', { name: "Can't receive the code?" })).toBeTruthy();
  });

  it("masked numbers are read as the digits they end in, not 'X X X': the contact list, one contact, the text code screen", async () => {
    const twoPhones = { phone: [phone('0143'), phone('0188')], email: [email('1')] };
    fakeServer(stepUpAnswers(twoPhones, { [`POST ${api.sms}`]: sent }));
    const { unmount } = renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-SMS' }] });
    const user = userEvent.setup();
    const first = await screen.findByRole('radio', { name: 'number ending in 0 1 4 3' });
    expect(screen.getByRole('radio', { name: 'number ending in 0 1 8 8' })).toBeTruthy();
    // Still shown as the service masks it.
    expect(document.querySelector(`label[for="${first.id}"]`)?.textContent).toContain('(XXX) XXX-0143');
    await user.click(screen.getByRole('button', { name: 'Text me the code' }));
    await heading('Enter the code we texted you');
    const line = getBySpokenText(
      'We sent the code to number ending in 0 1 4 3. It will expire after 30 minutes.',
    );
    expect(line.textContent).toContain('We sent the code to (XXX) XXX-0143');
    unmount();

    fakeServer(stepUpAnswers(both));
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-SMS' }] });
    await screen.findByText("We'll send it to this number.");
    const contact = screen.getByText("We'll send it to this number.").nextElementSibling!;
    expect(spokenText(contact)).toBe('number ending in 0 1 4 3');
    expect(contact.textContent).toContain('(XXX) XXX-0143');
  });

  it("'Get the code another way' on the e-mail code screen goes to the phones", async () => {
    fakeServer(stepUpAnswers(both, { [`POST ${api.email}`]: sent }));
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-EMAIL' }, { type: 'OTP-SMS' }] });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Get the code another way' }));
    await user.click(await screen.findByRole('button', { name: 'Email me the code' }));
    await heading('Enter the code we emailed you');
    await user.click(screen.getByRole('button', { name: 'Get the code another way' }));
    expect(await screen.findByRole('button', { name: 'Text me the code' })).toBeTruthy();
  });

  it('after Back on the contact screen, focus goes to the heading, not to the page body', async () => {
    fakeServer(stepUpAnswers(both));
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    const user = userEvent.setup();
    await heading('Verify your identity');
    // The arrival focus (400 ms) has happened, so it cannot be what puts focus on the heading below.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Verify your identity' })),
    );
    await user.click(screen.getByRole('button', { name: 'Get the code another way' }));
    await user.click(await screen.findByRole('button', { name: 'Get the code another way' }));
    const back = await screen.findByRole('button', { name: 'Back' });
    await user.click(back);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Verify your identity' })),
    );
  });

  it('step-up: extends the session first, records the host context after the code, finishes once and stops taking input', async () => {
    const { requests, calls } = fakeServer(
      stepUpAnswers(both, {
        [`POST ${api.email}`]: sent,
        [`PUT ${api.email}`]: { body: envelope(1200, 'Identity verified') },
      }),
    );
    const { onFinish } = renderWidget({
      journey: 'STEPUP',
      sessionContext: 'HOSTCTX',
      authenticators: [{ type: 'OTP-EMAIL' }],
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Email me the code' }));
    await user.type(await screen.findByRole('textbox', { name: /Security code/ }), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(calls()[0]).toBe(api.extend);
    expect(requests.find((r) => `${r.method} ${r.path}` === api.update)?.body).toEqual({
      context: 'HOSTCTX',
    });
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'STEPUP', code: 1200, context: 'HOSTCTX' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Identity verified');
  });

  it('step-up with an ended session: 401 Unauthorized, and Sign in again logs out and hands over to the host', async () => {
    const { calls } = fakeServer({
      [api.extend]: {
        status: 401,
        body: envelope(4401, 'Your session has ended. Please sign in again.'),
      } as Answer,
      [api.logout]: { status: 500, body: envelope(5000, 'Unknown error') },
    });
    const { onCancel, onEvent } = renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    await heading('401 Unauthorized');
    expect(screen.getByText('Your session has ended. Please sign in again.')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
    expect(calls()).toContain(api.logout);
    expect(onEvent).toHaveBeenCalledWith({ type: 'sessionEnded', detail: { journey: 'STEPUP' } });
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
  });
});

describe('contact screen answers (issue 9 points 2, 3, 6)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows a loading status while the authenticator list loads', async () => {
    let release = () => {};
    const wait = new Promise<void>((r) => {
      release = r;
    });
    fakeServer(
      stepUpAnswers(both, {
        'GET /api/user/factor/authenticators': {
          body: envelope(1200, 'Success', { successData: { authenticators: [{ type: 'OTP-EMAIL' }] } }),
          wait,
        },
      }),
    );
    renderWidget({ journey: 'STEPUP' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Loading…'));
    expect(screen.queryByRole('heading')).toBeNull();
    release();
    await heading('Verify your identity');
  });

  it('an ended session while the contacts load goes to the 401 page, not to the representative', async () => {
    fakeServer(
      stepUpAnswers(both, {
        [api.otpState]: {
          status: 401,
          body: envelope(4401, 'Your session has ended. Please sign in again.'),
        },
      }),
    );
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    await heading('401 Unauthorized');
  });

  it('a contacts answer that redirects to a screen the widget does not have goes to the error route', async () => {
    fakeServer(
      stepUpAnswers(both, {
        [api.otpState]: { body: envelope(1200, 'Success', { redirectPath: '/authenticator/fido' }) },
      }),
    );
    renderWidget({ journey: 'STEPUP', authenticators: [...allOtp] });
    await heading('Something went wrong');
  });
});

describe('authenticator entry: the server chooses, the host narrows (issue 24 point 6)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });
  const offers = (authenticators: unknown[], recent?: string[]) => ({
    [api.authenticators]: {
      body: envelope(1200, 'Success', { successData: { authenticators, ...(recent ? { recent } : {}) } }),
    },
  });

  it('skips types it has no screen for, for the first it has', async () => {
    fakeServer(stepUpAnswers(both, offers([{ type: 'FIDO2' }, { type: 'OTP-EMAIL' }])));
    renderWidget({ journey: 'STEPUP' });
    await heading('Verify your identity');
    expect(screen.getByRole('button', { name: 'Email me the code' })).toBeTruthy();
  });

  it("goes to the representative page, the spec's default, when nothing usable is left, never to an empty card", async () => {
    fakeServer(stepUpAnswers(both, offers([{ type: 'FIDO2' }, { type: 'SOMETHING' }])));
    renderWidget({ journey: 'STEPUP' });
    // The representative page, under its step-up heading.
    const title = await screen.findByRole('heading', { name: 'Verify your identity' });
    expect(title.id).toMatch(/-rep-heading$/);
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });

  it("a method in the host's list that the server refuses (added recently) is not offered", async () => {
    const { calls } = fakeServer(stepUpAnswers(both, offers([{ type: 'OTP-EMAIL' }], ['TOTPAUTHN'])));
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'TOTPAUTHN' }, { type: 'OTP-EMAIL' }] });
    await heading('Verify your identity');
    expect(calls()).toContain(api.authenticators);
    expect(screen.getByRole('button', { name: 'Email me the code' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /authenticator app/i })).toBeNull();
    expect(screen.getByText(/Methods you added recently/)).toBeTruthy();
  });

  it("the host's list leaves out what the server offers: the first of the server's that the host allows", async () => {
    fakeServer(stepUpAnswers(both, offers([{ type: 'PUSH' }, { type: 'OTP-SMS' }, { type: 'OTP-EMAIL' }])));
    renderWidget({ journey: 'STEPUP', authenticators: [{ type: 'OTP-EMAIL' }] });
    await heading('Verify your identity');
    expect(screen.getByRole('button', { name: 'Email me the code' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Text me the code' })).toBeNull();
  });
});
