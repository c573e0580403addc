import { findErrorSummary, getErrorSummary } from '@gatehouse/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SignInConfig } from '../../config.ts';
import {
  type Answer,
  api,
  envelope,
  fakeServer,
  renderWidget,
  stepUpAnswers,
} from '../../test/fake-server.tsx';
import { heading } from '../../test/heading.ts';

// These journeys type and wait on several screens: slow on a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const svipStatus = 'GET /api/user/factor/totp/svip/status';
const svipCheck = 'POST /api/user/factor/totp/svip/authentication';
const svipSync = 'POST /api/user/factor/totp/svip/synchronization';
const totpCheck = 'POST /api/user/factor/totp/authentication';

const notRecognized = 'Security code not recognized. Try again.';
const wrong: Answer = {
  body: envelope(1428, notRecognized, {
    errorType: 'APPLICATION_ERROR',
    error: { code: 1428, message: notRecognized },
  }),
};
const failure = (code: number, message: string, extra: Record<string, unknown> = {}): Answer => ({
  body: envelope(code, message, { errorType: 'APPLICATION_ERROR', error: { code, message }, ...extra }),
});
const verified: Answer = { body: envelope(1200, 'Verified', { successData: { factor: 'TOTPSVIP' } }) };
const credentials: Answer = {
  body: envelope(1200, 'Success', {
    successData: { credentials: [{ credentialId: 'VSST12345678', name: 'VIP Access' }] },
  }),
};

const field = (name: RegExp | string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

/** A step-up widget whose authenticator list starts with the given type. */
function stepUp(
  type: 'TOTPSVIP' | 'TOTPAUTHN',
  answers: Record<string, Answer | Answer[]>,
  config: Partial<SignInConfig> = {},
) {
  const server = fakeServer(stepUpAnswers({ phone: [], email: [] }, answers));
  const view = renderWidget({ journey: 'STEPUP', authenticators: [{ type }], ...config });
  return { ...server, ...view };
}

/** The login journey: password, session login asking for the factor, then (second answer) done. */
function login(type: 'TOTPSVIP' | 'TOTPAUTHN', answers: Record<string, Answer | Answer[]>) {
  const server = fakeServer({
    [api.password]: { body: envelope(1200, 'Success') },
    [api.session]: [
      {
        body: envelope(1201, 'Authentication not completed', {
          successData: { authenticated: false, authenticators: [{ type }, { type: 'OTP-REP' }] },
        }),
      },
      { body: envelope(1200, 'User authenticated', { successData: { username: 'tokenuser1' } }) },
    ],
    [api.trusted]: { body: envelope(1200, 'Success') },
    ...answers,
  });
  const view = renderWidget({ businessSMSText: 'Gatehouse' });
  return { ...server, ...view };
}

async function signIn(u: ReturnType<typeof userEvent.setup>) {
  await u.type(screen.getByLabelText(/Username/), 'tokenuser1');
  await u.type(screen.getByLabelText(/^Password/), 'Comet3Prairie{Enter}');
}

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
  document.cookie = 'XSRF-TOKEN=abc.def';
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('token app code screen (widget spec §2, §4 token flow)', () => {
  it('fetches the credential, shows the spec texts with the app, the provider and the phone, and no trust box in step-up', async () => {
    const { calls } = stepUp(
      'TOTPSVIP',
      { [svipStatus]: credentials },
      {
        businessSMSText: 'Gatehouse',
        repPhone: '1-800-555-0100',
      },
    );
    const h = await heading('VIP access code');
    expect(
      await screen.findByText('Enter the 6-digit security code from the VIP Access mobile app.'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'If you are having difficulties with your VIP Access security code, please call Gatehouse at 1-800-555-0100.',
      ),
    ).toBeTruthy();
    expect(calls()).toContain(svipStatus);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // Widget spec §4: the heading takes focus after 400 ms.
    await waitFor(() => expect(document.activeElement).toBe(h));
  });

  it("names 'your institution' without a provider name, no phone without repPhone, and the configured token app", async () => {
    stepUp('TOTPSVIP', { [svipStatus]: credentials }, { tokenAppName: 'Norton' });
    await heading('Norton access code');
    expect(
      await screen.findByText(
        'If you are having difficulties with your Norton Access security code, please call your institution.',
      ),
    ).toBeTruthy();
  });

  it('validates the code (empty, short), then sends the credential id and the code with the factor header, and finishes the step-up', async () => {
    const { requests, onFinish, onEvent } = stepUp('TOTPSVIP', {
      [svipStatus]: credentials,
      [svipCheck]: verified,
    });
    const u = userEvent.setup();
    await heading('VIP access code');
    await u.click(await screen.findByRole('button', { name: 'Submit' }));
    const code = field(/Security code/);
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your security code.');
    expect(document.activeElement).toBe(code);
    await u.type(code, '12a3{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Enter your 6-digit security code.'),
    );
    await u.type(code, '456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    const sent = requests.find((r) => `${r.method} ${r.path}` === svipCheck)!;
    expect(sent.body).toEqual({ credentialId: 'VSST12345678', securityCode1: '123456', bindDevice: false });
    expect(Object.entries(sent.headers)).toContainEqual(['Accept-Token-Type', 'TOTPSVIP']);
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'STEPUP', code: 1200 });
    expect(onEvent).toHaveBeenCalledWith({ type: 'factorVerified', detail: { factor: 'token' } });
  });

  it("shows the server's text on a wrong code (field cleared and focused), and the second wrong code goes to resync; each is an invalidCode event", async () => {
    const { onEvent, calls } = stepUp('TOTPSVIP', { [svipStatus]: credentials, [svipCheck]: wrong });
    const u = userEvent.setup();
    await heading('VIP access code');
    const code = await screen.findByRole('textbox', { name: /Security code/ });
    await u.type(code, '111111{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(notRecognized);
    expect((code as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(code);
    await u.type(code, '222222{Enter}');
    await heading('We need to re-sync');
    expect(calls().filter((c) => c === svipCheck)).toHaveLength(2);
    const invalid = onEvent.mock.calls.filter(([e]) => e.type === 'invalidCode');
    expect(invalid).toEqual([
      [{ type: 'invalidCode', detail: { factor: 'token' } }],
      [{ type: 'invalidCode', detail: { factor: 'token' } }],
    ]);
  });

  it("follows the server's 1491 to resync at once", async () => {
    stepUp('TOTPSVIP', {
      [svipStatus]: credentials,
      [svipCheck]: failure(1491, 'We need to re-sync'),
    });
    const u = userEvent.setup();
    await heading('VIP access code');
    await u.type(await screen.findByRole('textbox', { name: /Security code/ }), '111111{Enter}');
    await heading('We need to re-sync');
  });

  it('goes to the representative page when the account has no token credential', async () => {
    stepUp('TOTPSVIP', {
      [svipStatus]: { body: envelope(1200, 'Success', { successData: { credentials: [] } }) },
    });
    await heading('Verify your identity');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });

  it('login: the trust-device box, bindDevice on the check, the binding call, then session login finishes', async () => {
    const { requests, calls, onFinish } = login('TOTPSVIP', {
      [svipStatus]: credentials,
      [svipCheck]: verified,
    });
    const u = userEvent.setup();
    await signIn(u);
    await heading('VIP access code');
    await u.click(await screen.findByRole('checkbox', { name: "Don't ask me again on this device" }));
    await u.type(field(/Security code/), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(requests.find((r) => `${r.method} ${r.path}` === svipCheck)!.body).toMatchObject({
      bindDevice: true,
    });
    const order = calls();
    expect(order.lastIndexOf(api.session)).toBeGreaterThan(order.indexOf(api.trusted));
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'LOGIN', code: 1200 });
  });

  it('cancel in the login journey goes back to the login screen', async () => {
    login('TOTPSVIP', { [svipStatus]: credentials });
    const u = userEvent.setup();
    await signIn(u);
    await heading('VIP access code');
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByLabelText(/Username/)).toBeTruthy();
  });
});

describe('the top-level paths of widget spec §2 (/totp, /totp-sync) open their screens', () => {
  it.each([['/totp-sync', 'We need to re-sync']])(
    "a token check's redirect to %s opens the token resync screen",
    async (redirectPath, title) => {
      stepUp('TOTPSVIP', {
        [svipStatus]: credentials,
        [svipCheck]: { body: envelope(1200, 'Success', { redirectPath }) },
      });
      const u = userEvent.setup();
      await heading('VIP access code');
      await u.type(await screen.findByRole('textbox', { name: /Security code/ }), '111111{Enter}');
      await heading(title);
      expect(screen.getByRole('textbox', { name: /Second security code/ })).toBeTruthy();
      expect(screen.queryByText('Something went wrong')).toBeNull();
    },
  );

  it("a resync's redirect to /totp opens the authenticator-app screen, whose code check works there", async () => {
    const { onFinish } = stepUp('TOTPSVIP', {
      [svipStatus]: credentials,
      [svipCheck]: failure(1491, 'We need to re-sync'),
      [svipSync]: { body: envelope(1200, 'In sync', { redirectPath: '/totp' }) },
      [totpCheck]: verified,
    });
    const u = userEvent.setup();
    await heading('VIP access code');
    await u.type(await screen.findByRole('textbox', { name: /Security code/ }), '111111{Enter}');
    await heading('We need to re-sync');
    await u.type(field(/First security code/), '123456');
    await u.type(field(/Second security code/), '654321{Enter}');
    await heading('Enter the code from your authenticator app');
    await u.type(await screen.findByRole('textbox', { name: /code/i }), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
  });
});

describe('token resync screen (widget spec §2, §5)', () => {
  async function atSync(answers: Record<string, Answer | Answer[]>) {
    const view = stepUp('TOTPSVIP', {
      [svipStatus]: credentials,
      [svipCheck]: failure(1491, 'We need to re-sync'),
      ...answers,
    });
    const u = userEvent.setup();
    await heading('VIP access code');
    await u.type(await screen.findByRole('textbox', { name: /Security code/ }), '111111{Enter}');
    await heading('We need to re-sync');
    return { ...view, u };
  }

  it('needs both codes, 6 digits each: an error summary that takes focus and links to each field, and each field its message', async () => {
    const { u, calls } = await atSync({});
    expect(screen.getByRole('textbox', { name: /First security code/ })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Second security code/ })).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Submit' }));
    const summary = await findErrorSummary(/There is a problem/);
    await waitFor(() => expect(document.activeElement).toBe(summary));
    const links = within(summary).getAllByRole('link');
    // Two links to two fields never share a text (WCAG 2.4.4); the fields keep the spec's own message.
    expect(links.map((l) => l.textContent)).toEqual([
      'First security code: Enter your security code.',
      'Second security code: Enter your security code.',
    ]);
    expect(document.getElementById(`${field(/Second security code/).id}-error`)?.textContent).toBe(
      'Error: Enter your security code.',
    );
    // Said once, by the focused summary: the fields' messages are not alerts of their own.
    expect(screen.getAllByRole('alert')).toEqual([within(summary).getByRole('alert')]);
    const first = field(/First security code/);
    const second = field(/Second security code/);
    expect(first.getAttribute('aria-invalid')).toBe('true');
    await u.click(links[1]!);
    expect(document.activeElement).toBe(second);
    await u.type(first, '123456');
    await u.type(second, '12{Enter}');
    await waitFor(() =>
      expect(
        within(getErrorSummary(/There is a problem/))
          .getAllByRole('link')
          .map((l) => l.textContent),
      ).toEqual(['Enter your 6-digit security code.']),
    );
    expect(first.getAttribute('aria-invalid')).not.toBe('true');
    expect(calls()).not.toContain(svipSync);
  });

  it("sends both codes and follows the server's redirect back to the token screen, whose failure count starts afresh", async () => {
    const { u, requests, calls } = await atSync({
      [svipSync]: {
        body: envelope(1200, 'Your security code app is in sync again.', {
          redirectPath: '/authenticator/svip',
          successData: { drift: 37 },
        }),
      },
    });
    await u.type(field(/First security code/), '123456');
    await u.type(field(/Second security code/), '654321{Enter}');
    await heading('VIP access code');
    // The token screen says the token is in sync (the server's text) and asks for the next code.
    const told = await screen.findByText('Your security code app is in sync again.', undefined, {
      timeout: 3000,
    });
    const status = told.closest('[role="status"]')!;
    expect(status).not.toBeNull();
    expect(status.textContent).toContain(
      'Enter the next security code that your VIP Access mobile app shows.',
    );
    expect(requests.find((r) => `${r.method} ${r.path}` === svipSync)!.body).toEqual({
      securityCode1: '123456',
      securityCode2: '654321',
    });
    expect(calls().filter((c) => c === svipStatus)).toHaveLength(2);
  });

  it("shows the server's text when the codes are not recognized, as an announced error", async () => {
    const { u, onEvent } = await atSync({ [svipSync]: wrong });
    await u.type(field(/First security code/), '123456');
    await u.type(field(/Second security code/), '654321{Enter}');
    const summary = await findErrorSummary(/There is a problem/);
    await waitFor(() => expect(within(summary).getByRole('link').textContent).toBe(notRecognized));
    expect(onEvent).toHaveBeenCalledWith({ type: 'invalidCode', detail: { factor: 'token' } });
  });
});

describe('authenticator-app (TOTP) screen (widget spec §2, §4 status mapping)', () => {
  it('shows the spec texts, Continue and Cancel, no trust box in step-up, and finishes on 1200', async () => {
    const { requests, onFinish, onEvent } = stepUp(
      'TOTPAUTHN',
      { [totpCheck]: verified },
      { businessSMSText: 'Gatehouse' },
    );
    const u = userEvent.setup();
    await heading('Enter the code from your authenticator app');
    expect(
      screen.getByText(
        'This 6-digit will confirm the connection between your authenticator app and Gatehouse.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your security code.');
    await u.type(field(/Security code/), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    const sent = requests.find((r) => `${r.method} ${r.path}` === totpCheck)!;
    expect(sent.body).toEqual({ securityCode: '123456', bindDevice: false });
    expect(Object.entries(sent.headers)).toContainEqual(['Accept-Token-Type', 'TOTPAUTHN']);
    expect(onEvent).toHaveBeenCalledWith({ type: 'factorVerified', detail: { factor: 'totp' } });
  });

  it("1428: the server's text, field cleared and focused, an invalidCode event", async () => {
    const { onEvent } = stepUp('TOTPAUTHN', { [totpCheck]: wrong });
    const u = userEvent.setup();
    await heading('Enter the code from your authenticator app');
    const code = field(/Security code/);
    await u.type(code, '123456{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(notRecognized);
    expect(code.value).toBe('');
    expect(document.activeElement).toBe(code);
    expect(onEvent).toHaveBeenCalledWith({ type: 'invalidCode', detail: { factor: 'totp' } });
  });

  it.each([1202, 1204, 1493])('%i goes to the representative page', async (status) => {
    stepUp('TOTPAUTHN', { [totpCheck]: failure(status, 'Call us') });
    const u = userEvent.setup();
    await heading('Enter the code from your authenticator app');
    await u.type(field(/Security code/), '123456{Enter}');
    await heading('Verify your identity');
  });

  it('1491 shows the TOTP block page; Back in step-up is the host cancel handling', async () => {
    const { onCancel } = stepUp('TOTPAUTHN', { [totpCheck]: failure(1491, 'blocked') });
    const u = userEvent.setup();
    await heading('Enter the code from your authenticator app');
    await u.type(field(/Security code/), '123456{Enter}');
    await heading('We were unable to log you in');
    expect(
      screen.getByText(
        'Sorry, your account has been temporarily blocked due to too many attempts. Please try again 5 minutes from the time you first saw this message.',
      ),
    ).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Back' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('login: the trust-device box, then session login finishes; the block page Back returns to login', async () => {
    const { requests, onFinish } = login('TOTPAUTHN', { [totpCheck]: [wrong, verified] });
    const u = userEvent.setup();
    await signIn(u);
    await heading('Enter the code from your authenticator app');
    expect(
      screen.getByText(
        'This 6-digit will confirm the connection between your authenticator app and Gatehouse.',
      ),
    ).toBeTruthy();
    await u.click(screen.getByRole('checkbox', { name: "Don't ask me again on this device" }));
    await u.type(field(/Security code/), '111111{Enter}');
    await screen.findByRole('alert');
    await u.type(field(/Security code/), '123456{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(requests.filter((r) => `${r.method} ${r.path}` === totpCheck).map((r) => r.body)).toEqual([
      { securityCode: '111111', bindDevice: true },
      { securityCode: '123456', bindDevice: true },
    ]);
  });

  it('login: Back on the TOTP block page returns to the login screen', async () => {
    login('TOTPAUTHN', { [totpCheck]: failure(1491, 'blocked') });
    const u = userEvent.setup();
    await signIn(u);
    await heading('Enter the code from your authenticator app');
    await u.type(field(/Security code/), '123456{Enter}');
    await heading('We were unable to log you in');
    await u.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText(/Username/)).toBeTruthy();
  });
});
