import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, envelope, fakeServer, renderRoute } from '../../../../../test/support.tsx';
import { GuardedSecurityPage } from '../../SecurityPage.tsx';

// The page and the widget load on demand: slow on a shared machine.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5000 });

const api = {
  session: 'GET /api/user/session/login',
  overview: 'GET /api/user/security/overview',
  options: 'POST /api/user/security/passkeys/options',
  add: 'POST /api/user/security/passkeys',
  removeCredential: 'POST /api/user/security/credentials/remove',
};

const signedIn: Answer = {
  body: envelope(1200, 'User authenticated', {
    successData: {
      authenticated: true,
      username: 'passkeyuser1',
      displayName: 'passkeyuser1',
      signedInAt: '2026-11-23T20:00:00.000Z',
      idleExpiresAt: '2026-11-24T00:00:00.000Z',
      absoluteExpiresAt: '2026-11-24T08:00:00.000Z',
    },
  }),
};
const done = (message: string, successData: unknown = {}): Answer => ({
  body: envelope(1200, message, { successData }),
});
const failure = (code: number, message: string, http = 200): Answer => ({
  status: http,
  body: envelope(code, message, { errorType: 'APPLICATION_ERROR', error: { code, message } }),
});

const laptop = {
  id: '0b6f2f4e-4a3c-4c55-9d43-6f1f1d2a0001',
  name: 'Work laptop',
  createdAt: '2026-10-01T10:00:00.000Z',
  lastUsedAt: '2026-11-20T08:00:00.000Z',
};
const phone = {
  id: '0b6f2f4e-4a3c-4c55-9d43-6f1f1d2a0002',
  name: 'My phone',
  createdAt: '2026-11-23T19:00:00.000Z',
  lastUsedAt: null,
  recentlyAdded: true,
  usableFrom: '2026-11-25T19:00:00.000Z',
};
const overviewWith = (passkeys: unknown[]) =>
  done('success', {
    stepUpExpiresAt: '2026-11-23T20:10:00.000Z',
    stepUpEndsInSeconds: 600,
    warningSeconds: 120,
    authenticators: [],
    pushDevices: [],
    tokens: [],
    phones: [],
    emails: [],
    trustedBrowsers: [],
    sessions: [],
    activity: [],
    credentials: { passkey: passkeys },
  });

const creationOptions = done('success', {
  options: {
    challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',
    rp: { id: 'localhost', name: 'Gatehouse' },
    user: { id: 'b3BhcXVlLWhhbmRsZQ', name: 'passkeyuser1', displayName: 'passkeyuser1' },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    attestation: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    excludeCredentials: [],
  },
});

const bytes = (text: string) => new TextEncoder().encode(text).buffer;
/** The browser edge: navigator.credentials.create answering with a new passkey. */
function browser() {
  const create = vi.fn<(options: CredentialCreationOptions) => Promise<unknown>>(async () => ({
    id: 'bmV3LWNyZWQ',
    rawId: bytes('new-cred'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: bytes('{"type":"webauthn.create"}'),
      attestationObject: bytes('attestation'),
      getTransports: () => ['internal'],
    },
    getClientExtensionResults: () => ({}),
  }));
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(navigator, 'credentials', { value: { create }, configurable: true });
  return { create };
}

const liveRegion = () => document.querySelector('div[aria-live="polite"]:not([role])')!;
const passkeys = () => screen.getByRole('region', { name: 'Passkeys' });
const at = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(iso));

function renderPage(answers: Record<string, Answer | Answer[]>) {
  const requests = fakeServer({
    [api.session]: signedIn,
    [api.overview]: overviewWith([laptop]),
    ...answers,
  });
  renderRoute('/security', <GuardedSecurityPage />);
  return requests;
}
const calls = (requests: Array<{ method: string; path: string }>, call: string) =>
  requests.filter((r) => `${r.method} ${r.path}` === call);

async function pageShown() {
  const title = await screen.findByRole('heading', { name: 'Security settings', level: 1 });
  await waitFor(() => expect(document.activeElement).toBe(title));
}

describe('the Passkeys section of the security page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'credentials');
  });

  it('lists each passkey with its name, added and last-used times, the recent marker and a named Remove', async () => {
    renderPage({ [api.overview]: overviewWith([laptop, phone]) });
    await pageShown();
    const section = passkeys();
    expect(within(section).getByRole('heading', { name: 'Passkeys', level: 2 })).toBeTruthy();
    expect(within(section).getByRole('heading', { name: 'Work laptop', level: 3 })).toBeTruthy();
    expect(within(section).getByText(at('2026-11-20T08:00:00.000Z'))).toBeTruthy();
    const recent = within(section).getByRole('heading', { name: 'My phone' }).closest('li')!;
    expect(within(recent).getByText('Recently added')).toBeTruthy();
    expect(within(recent).getByText('Not used yet')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Remove Work laptop' })).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Remove My phone' })).toBeTruthy();
  });

  it('says when there is none', async () => {
    renderPage({ [api.overview]: overviewWith([]) });
    await pageShown();
    expect(within(passkeys()).getByText('No passkey is saved for your account.')).toBeTruthy();
  });

  it('adds a passkey: a name is required, then the browser creates it, the service keeps it, and the page says so', async () => {
    const { create } = browser();
    const added = { ...phone, id: '0b6f2f4e-4a3c-4c55-9d43-6f1f1d2a0003', name: 'Desk key' };
    const requests = renderPage({
      [api.overview]: [overviewWith([laptop]), overviewWith([laptop, added])],
      [api.options]: creationOptions,
      [api.add]: done('Passkey added', { passkey: added }),
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(within(passkeys()).getByRole('button', { name: 'Add a passkey' }));
    const formHeading = await screen.findByRole('heading', { name: 'Add a passkey', level: 3 });
    await waitFor(() => expect(document.activeElement).toBe(formHeading));
    await u.click(screen.getByRole('button', { name: 'Create passkey' }));
    // The error summary (GOV.UK pattern) takes focus and links to the field.
    const summary = await screen.findByRole('alert');
    expect(summary.textContent).toContain('Enter a name for your passkey.');
    await waitFor(() => expect(document.title).toMatch(/^Error: /));
    expect(calls(requests, api.options)).toHaveLength(0);
    await u.type(screen.getByRole('textbox', { name: /Name/ }), 'Desk key{Enter}');
    await waitFor(() =>
      expect(liveRegion().textContent).toBe('Desk key was added. You can use it to verify your identity.'),
    );
    // The browser got the service's options; the service got the name and the browser's answer.
    const asked = create.mock.calls[0]![0].publicKey!;
    expect(new TextDecoder().decode(asked.challenge as ArrayBuffer)).toBe('registration-challenge');
    expect(asked.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(calls(requests, api.add)[0]).toMatchObject({
      body: { name: 'Desk key', response: { id: 'bmV3LWNyZWQ', type: 'public-key' } },
    });
    await within(passkeys()).findByRole('heading', { name: 'Desk key', level: 3 });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Passkeys', level: 2 })),
    );
  });

  it('a cancelled browser prompt is told in an alert, the form stays for another try; Cancel returns to Add', async () => {
    const { create } = browser();
    create.mockRejectedValueOnce(
      new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'),
    );
    const requests = renderPage({ [api.options]: creationOptions });
    const u = userEvent.setup();
    await pageShown();
    await u.click(within(passkeys()).getByRole('button', { name: 'Add a passkey' }));
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await u.type(name, 'Desk key{Enter}');
    const alert = await within(passkeys()).findByRole('alert');
    expect(alert.textContent).toContain('No passkey was created: the request was cancelled or timed out.');
    expect(document.activeElement).toBe(name);
    expect(calls(requests, api.add)).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a passkey' })),
    );
  });

  it('a refusal of the service is shown in its words; a step-up run out brings the step-up back', async () => {
    browser();
    renderPage({
      [api.overview]: [
        overviewWith([laptop]),
        failure(1412, 'Please verify your identity to continue.', 403),
      ],
      [api.options]: [
        failure(1491, 'You have 5 passkeys. Remove one before you add another.'),
        failure(1412, 'Please verify your identity to continue.', 403),
      ],
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(within(passkeys()).getByRole('button', { name: 'Add a passkey' }));
    await u.type(await screen.findByRole('textbox', { name: /Name/ }), 'Desk key{Enter}');
    expect((await within(passkeys()).findByRole('alert')).textContent).toContain(
      'You have 5 passkeys. Remove one before you add another.',
    );
    await u.click(screen.getByRole('button', { name: 'Create passkey' }));
    await screen.findByRole('heading', { name: 'Verify your identity to continue', level: 1 });
  });

  it('removes a passkey after its confirmation dialog and says so', async () => {
    const requests = renderPage({
      [api.overview]: [overviewWith([laptop]), overviewWith([])],
      [api.removeCredential]: done('The verification method was removed.'),
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Work laptop?' });
    await u.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(liveRegion().textContent).toBe('Work laptop was removed.'));
    expect(calls(requests, api.removeCredential)[0]).toMatchObject({ body: { id: laptop.id } });
    await within(passkeys()).findByText('No passkey is saved for your account.');
  });
});
