import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

const options = 'POST /api/user/factor/passkey/options';
const authentication = 'POST /api/user/factor/passkey/authentication';
const loginOptions = 'POST /api/user/factor/passkey/login-options';
const loginAssertion = 'POST /api/user/factor/passkey/login-assertion';
const authenticators = 'GET /api/user/factor/authenticators';

const challenge = 'Y2hhbGxlbmdlLW9mLXRoaXMtam91cm5leQ';
const requestOptions: Answer = {
  body: envelope(1200, 'Success', {
    successData: {
      options: {
        challenge,
        rpId: 'localhost',
        allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key' }],
        userVerification: 'required',
        timeout: 60000,
      },
    },
  }),
};
const verified: Answer = {
  body: envelope(1200, 'Identity verified', { successData: { authenticated: true, factor: 'PASSKEY' } }),
};
const failure = (code: number, message: string): Answer => ({
  body: envelope(code, message, { errorType: 'APPLICATION_ERROR', error: { code, message } }),
});
const notRecognized =
  "This passkey isn't registered for your account. Choose another passkey or another way to verify.";

const bytes = (text: string) => new TextEncoder().encode(text).buffer;
/** What navigator.credentials.get gives for a passkey (a PublicKeyCredential with an assertion). */
const assertion = () => ({
  id: 'Y3JlZC0x',
  rawId: bytes('cred-1'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: {
    authenticatorData: bytes('auth-data'),
    clientDataJSON: bytes('{"type":"webauthn.get"}'),
    signature: bytes('signature'),
    userHandle: bytes('handle-1'),
  },
  getClientExtensionResults: () => ({}),
});

/** The browser edge: WebAuthn (and its autofill when `autofill`), navigator.credentials.get. */
function browser({ autofill = false } = {}) {
  const get = vi.fn<(options: CredentialRequestOptions) => Promise<unknown>>(async () => assertion());
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    ...(autofill ? { isConditionalMediationAvailable: async () => true } : {}),
  });
  vi.stubGlobal('PublicKeyCredential', PublicKeyCredential);
  Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
  return { get };
}

/**
 * A step-up widget whose authenticator list starts with the passkey: the server's list (the widget
 * reads it in step-up; decision 039), which the host's narrows to the same.
 */
function stepUp(
  answers: Record<string, Answer | Answer[]>,
  types: Array<'PASSKEY' | 'TOTPAUTHN'> = ['PASSKEY'],
) {
  const list: Answer = {
    body: envelope(1200, 'Success', { successData: { authenticators: types.map((type) => ({ type })) } }),
  };
  const server = fakeServer(stepUpAnswers({ phone: [], email: [] }, { [authenticators]: list, ...answers }));
  const view = renderWidget({ journey: 'STEPUP', authenticators: types.map((type) => ({ type })) });
  return { ...server, ...view };
}

/** The login journey: password, session login asking for the passkey, then (second answer) done. */
function login(answers: Record<string, Answer | Answer[]>) {
  const server = fakeServer({
    [api.password]: { body: envelope(1200, 'Success') },
    [api.session]: [
      {
        body: envelope(1201, 'Authentication not completed', {
          successData: { authenticated: false, authenticators: [{ type: 'PASSKEY' }, { type: 'OTP-REP' }] },
        }),
      },
      { body: envelope(1200, 'User authenticated', { successData: { username: 'passkeyuser1' } }) },
    ],
    [api.trusted]: { body: envelope(1200, 'Success') },
    ...answers,
  });
  const view = renderWidget();
  return { ...server, ...view };
}

const bodyOf = (requests: Array<{ method: string; path: string; body: unknown }>, call: string) =>
  requests.filter((r) => `${r.method} ${r.path}` === call).map((r) => r.body as Record<string, unknown>);

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
  document.cookie = 'XSRF-TOKEN=abc.def';
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'credentials');
  sessionStorage.clear();
});

describe('passkey screen (decision 041b)', () => {
  it('step-up: the heading takes focus, no trust box; the ceremony answers the challenge and the journey finishes', async () => {
    const { get } = browser();
    const { requests, onFinish } = stepUp({ [options]: requestOptions, [authentication]: verified });
    const h = await heading("Verify it's you with a passkey");
    expect(screen.queryByRole('checkbox')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(h));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Use my passkey' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'STEPUP' });
    // The browser got the server's challenge and allow list; the service got the assertion.
    const asked = get.mock.calls[0]![0].publicKey!;
    expect(new TextDecoder().decode(asked.challenge as ArrayBuffer)).toBe('challenge-of-this-journey');
    expect(asked.allowCredentials).toHaveLength(1);
    const [sent] = bodyOf(requests, authentication);
    expect(sent).toMatchObject({ response: { id: 'Y3JlZC0x', type: 'public-key' }, bindDevice: false });
    // Step-up names the factor in the token type header (widget spec §4).
    const headersOf = requests.find((r) => `${r.method} ${r.path}` === options)!.headers;
    expect(headersOf['Accept-Token-Type'] ?? headersOf['accept-token-type']).toBe('PASSKEY');
  });

  it('login: the trust box binds the device, then session login completes the journey', async () => {
    browser();
    const u = userEvent.setup();
    const { requests, calls, onFinish } = login({ [options]: requestOptions, [authentication]: verified });
    await u.type(screen.getByLabelText(/Username/), 'passkeyuser1');
    await u.type(screen.getByLabelText(/^Password/), 'Comet3Prairie{Enter}');
    await heading("Verify it's you with a passkey");
    await u.click(screen.getByRole('checkbox', { name: "Don't ask me again on this device" }));
    await u.click(screen.getByRole('button', { name: 'Use my passkey' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(bodyOf(requests, authentication)[0]).toMatchObject({ bindDevice: true });
    expect(calls()).toContain(api.trusted);
  });

  it('a refused passkey is said in an announced alert, the title says Error, focus stays on the button that retries', async () => {
    browser();
    const u = userEvent.setup();
    const { calls, onFinish } = stepUp({
      [options]: requestOptions,
      [authentication]: [failure(1403, notRecognized), verified],
    });
    await heading("Verify it's you with a passkey");
    const button = screen.getByRole('button', { name: 'Use my passkey' });
    await u.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain(notRecognized);
    await waitFor(() => expect(document.title).toMatch(/^Error: /));
    expect(document.activeElement).toBe(button);
    expect(onFinish).not.toHaveBeenCalled();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(calls().filter((c) => c === options)).toHaveLength(2);
  });

  it('a cancelled prompt (NotAllowedError) is told plainly, and Try again asks again', async () => {
    const { get } = browser();
    get.mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    const u = userEvent.setup();
    const { calls, onFinish } = stepUp({ [options]: requestOptions, [authentication]: verified });
    await heading("Verify it's you with a passkey");
    await u.click(screen.getByRole('button', { name: 'Use my passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The passkey request was cancelled or timed out. Select Try again to use your passkey, or try another way.',
    );
    expect(calls()).not.toContain(authentication);
    await u.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('too many wrong tries (the factor blocked): the representative page, as the contract table says', async () => {
    browser();
    stepUp({ [options]: requestOptions, [authentication]: failure(1491, 'Too many attempts') });
    await heading("Verify it's you with a passkey");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Use my passkey' }));
    const rep = await heading('Verify your identity');
    expect(rep.id).toMatch(/-rep-heading$/);
  });

  it("'Try another way' goes to the next factor of the list, without the passkey", async () => {
    browser();
    const { calls } = stepUp(
      {
        [authenticators]: {
          body: envelope(1200, 'Success', {
            successData: { authenticators: [{ type: 'PASSKEY' }, { type: 'TOTPAUTHN' }] },
          }),
        },
      },
      ['PASSKEY', 'TOTPAUTHN'],
    );
    await heading("Verify it's you with a passkey");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try another way' }));
    await heading('Enter the code from your authenticator app');
    expect(calls()).not.toContain(options);
  });
});

describe('passkey autofill on the login screen (conditional mediation, decision 041b)', () => {
  const assertionAnswer: Answer = {
    body: envelope(1200, 'Success', { successData: { username: 'passkeyuser1', proof: 'proof-1' } }),
  };

  it('the username field offers passkeys; the chosen one fills it, and its proof completes the passkey step without a second prompt', async () => {
    const { get } = browser({ autofill: true });
    const u = userEvent.setup();
    const { requests, onFinish } = login({
      [loginOptions]: requestOptions,
      [loginAssertion]: assertionAnswer,
      [authentication]: verified,
    });
    const username = screen.getByLabelText(/Username/) as HTMLInputElement;
    expect(username.getAttribute('autocomplete')).toBe('username webauthn');
    await waitFor(() => expect(username.value).toBe('passkeyuser1'));
    expect(get.mock.calls[0]![0]).toMatchObject({ mediation: 'conditional' });
    expect(bodyOf(requests, loginAssertion)[0]).toMatchObject({ response: { id: 'Y3JlZC0x' } });
    // Nothing of the proof is in web storage.
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain('proof-1');
    await u.type(screen.getByLabelText(/^Password/), 'Comet3Prairie{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(bodyOf(requests, authentication)).toEqual([{ proof: 'proof-1', bindDevice: false }]);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('a refused proof falls back to the prompt, silently', async () => {
    const { get } = browser({ autofill: true });
    const u = userEvent.setup();
    const { requests, onFinish } = login({
      [loginOptions]: requestOptions,
      [loginAssertion]: assertionAnswer,
      [options]: requestOptions,
      [authentication]: [failure(1428, 'That request expired. Try your passkey again.'), verified],
    });
    const username = screen.getByLabelText(/Username/) as HTMLInputElement;
    await waitFor(() => expect(username.value).toBe('passkeyuser1'));
    await u.type(screen.getByLabelText(/^Password/), 'Comet3Prairie{Enter}');
    await heading("Verify it's you with a passkey");
    const button = await screen.findByRole('button', { name: 'Use my passkey' });
    await waitFor(() => expect(button.getAttribute('aria-disabled')).not.toBe('true'));
    expect(screen.queryByRole('alert')).toBeNull();
    await u.click(button);
    await waitFor(() => expect(onFinish).toHaveBeenCalledOnce());
    expect(bodyOf(requests, authentication)[1]).toMatchObject({ response: { id: 'Y3JlZC0x' } });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('a browser without passkey autofill asks nothing', async () => {
    browser();
    const { calls } = login({});
    await heading('Log in to your account');
    // wait: an absence: the login screen's conditional check runs after its first render and signals nothing when it asks nothing
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls()).not.toContain(loginOptions);
  });
});
