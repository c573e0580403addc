import type { SecurityOverviewData } from '@gatehouse/contract/client';
import { findErrorSummary, getBySpokenText, spokenText } from '@gatehouse/ui/testing';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, envelope, fakeServer, renderRoute } from '../../../test/support.tsx';
import { GuardedSecurityPage } from './SecurityPage.tsx';

// Journeys through the widget (its screens load on demand) and several dialogs: slow on a shared
// machine, so each wait may take up to 5 s.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5000 });

const api = {
  session: 'GET /api/user/session/login',
  overview: 'GET /api/user/security/overview',
  enrollment: 'POST /api/user/security/authenticator/enrollment',
  confirmation: 'POST /api/user/security/authenticator/confirmation',
  removeCredential: 'POST /api/user/security/credentials/remove',
  contacts: 'POST /api/user/security/contacts',
  contactConfirmation: 'POST /api/user/security/contacts/confirmation',
  removeContact: 'POST /api/user/security/contacts/remove',
  revoke: 'POST /api/user/security/trusted-browsers/revoke',
  endSession: 'POST /api/user/security/sessions/end',
  extend: 'POST /api/user/session/extend',
  authenticators: 'GET /api/user/factor/authenticators',
  totp: 'POST /api/user/factor/totp/authentication',
  update: 'POST /api/user/session/update',
};

const signedIn: Answer = {
  body: envelope(1200, 'User authenticated', {
    successData: {
      authenticated: true,
      username: 'authapp01',
      displayName: 'authapp01',
      signedInAt: '2026-11-23T20:00:00.000Z',
      idleExpiresAt: '2026-11-24T00:00:00.000Z',
      absoluteExpiresAt: '2026-11-24T08:00:00.000Z',
    },
  }),
};
const failure = (code: number, message: string, http = 200): Answer => ({
  status: http,
  body: envelope(code, message, { errorType: 'APPLICATION_ERROR', error: { code, message } }),
});
const stepUpRequired = failure(1412, 'Please verify your identity to continue.', 403);
const done = (message: string, successData: unknown = {}): Answer => ({
  body: envelope(1200, message, { successData }),
});

const overview: SecurityOverviewData = {
  stepUpExpiresAt: '2026-11-23T20:10:00.000Z',
  stepUpEndsInSeconds: 600,
  warningSeconds: 120,
  authenticators: [{ id: 'a1', name: 'Pixel 8', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null }],
  pushDevices: [
    {
      id: 'p1',
      name: 'Work iPhone',
      createdAt: '2026-10-01T10:00:00.000Z',
      lastUsedAt: '2026-11-20T08:00:00.000Z',
    },
    {
      id: 'p2',
      name: 'New Pixel',
      createdAt: '2026-11-23T19:00:00.000Z',
      lastUsedAt: null,
      recentlyAdded: true,
      usableFrom: '2026-11-25T19:00:00.000Z',
    },
  ],
  tokens: [
    {
      id: 't1',
      name: 'VIP Access',
      credentialId: 'VSST20250143',
      createdAt: '2026-09-01T10:00:00.000Z',
      lastUsedAt: null,
    },
  ],
  phones: [
    {
      id: 'ph1',
      masked: '(XXX) XXX-0143',
      voice: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      usableFrom: '2026-01-03T00:00:00.000Z',
      recentlyAdded: false,
    },
    {
      id: 'ph2',
      masked: '(XXX) XXX-0178',
      voice: false,
      createdAt: '2026-11-23T19:00:00.000Z',
      usableFrom: '2026-11-25T19:00:00.000Z',
      recentlyAdded: true,
    },
  ],
  emails: [
    {
      id: 'e1',
      masked: 'a****1@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
      usableFrom: '2026-01-03T00:00:00.000Z',
      recentlyAdded: false,
    },
  ],
  // The generic map (by factor key): these factors' sections read their typed lists above.
  credentials: {},
  trustedBrowsers: [
    {
      id: 'tb1',
      browser: 'Firefox',
      os: 'Windows',
      createdAt: '2026-11-10T09:00:00.000Z',
      lastUsedAt: '2026-11-22T09:00:00.000Z',
      expiresAt: '2026-12-10T09:00:00.000Z',
      current: false,
    },
  ],
  sessions: [
    {
      id: 's-other',
      browser: 'Safari',
      os: 'iOS',
      address: '203.0.113.7',
      signedInAt: '2026-11-23T18:00:00.000Z',
      lastActivityAt: '2026-11-23T19:30:00.000Z',
      current: false,
    },
    {
      id: 's-this',
      browser: 'Chrome',
      os: 'Linux',
      address: '198.51.100.2',
      signedInAt: '2026-11-23T20:00:00.000Z',
      lastActivityAt: '2026-11-23T20:01:00.000Z',
      current: true,
    },
  ],
  activity: [
    {
      id: 'ev1',
      event: 'step-up',
      outcome: 'success',
      at: '2026-11-23T20:00:30.000Z',
      browser: 'Chrome',
      os: 'Linux',
      address: '198.51.100.2',
      description: 'Identity verified again',
    },
    {
      id: 'ev2',
      event: 'factor-failed',
      outcome: 'failure',
      at: '2026-11-23T19:59:00.000Z',
      browser: null,
      os: null,
      address: null,
      description: 'Incorrect security code entered',
    },
  ],
};
const ready: Answer = done('success', overview);

const at = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(iso));
/** The portal's announcer (not a button's own busy status). */
const liveRegion = () => document.querySelector('div[aria-live="polite"]:not([role])')!;
const section = (name: string) => screen.getByRole('region', { name });

/** The page, signed in, with these answers (the overview ready unless given). */
function renderPage(answers: Record<string, Answer | Answer[]>) {
  const requests = fakeServer({ [api.session]: signedIn, [api.overview]: ready, ...answers });
  renderRoute('/security', <GuardedSecurityPage />);
  return requests;
}

async function pageShown() {
  const title = await screen.findByRole(
    'heading',
    { name: 'Security settings', level: 1 },
    { timeout: 5000 },
  );
  await waitFor(() => expect(document.activeElement).toBe(title));
  return title;
}

/** Opens an item's confirmation dialog by the button's accessible name and confirms. */
async function confirmIn(u: ReturnType<typeof userEvent.setup>, button: string, yes: string) {
  await u.click(screen.getByRole('button', { name: button }));
  const dialog = await screen.findByRole('dialog');
  await u.click(within(dialog).getByRole('button', { name: yes }));
}

describe('the security page (#/security, issue 12)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hosts the widget in the STEPUP journey when the server asks for a step-up; its finish shows the page, focused', async () => {
    const requests = renderPage({
      [api.overview]: [stepUpRequired, ready],
      [api.extend]: { status: 204 },
      [api.authenticators]: done('success', { authenticators: [{ type: 'TOTPAUTHN' }] }),
      [api.totp]: done('Verified', { factor: 'TOTPAUTHN' }),
      [api.update]: { status: 204 },
    });
    const u = userEvent.setup();
    const why = await screen.findByRole(
      'heading',
      { name: 'Verify your identity to continue', level: 1 },
      { timeout: 5000 },
    );
    expect(
      screen.getByText(
        'Your security settings control how you sign in, so we check it is really you before showing or changing them.',
      ),
    ).toBeTruthy();
    // The first visit: no 'it has been a while'.
    expect(screen.queryByText(/It has been a while/)).toBeNull();
    expect(why).toBeTruthy();
    await screen.findByRole('heading', { name: 'Enter the code from your authenticator app', level: 2 });
    // One region for the widget's screen, named by its heading: none of the host's around it.
    const widgetRegion = screen.getByRole('region', { name: 'Enter the code from your authenticator app' });
    expect(
      widgetRegion.parentElement!.closest('section[aria-label], section[aria-labelledby], [role="region"]'),
    ).toBeNull();
    // The account's own factors: the widget asked the server, with no list of ours.
    expect(requests.some((r) => `${r.method} ${r.path}` === api.authenticators)).toBe(true);
    expect(screen.queryByRole('checkbox')).toBeNull();
    await u.type(screen.getByRole('textbox', { name: /Security code/ }), '123456{Enter}');
    await pageShown();
    expect(liveRegion().textContent).toBe('Identity verified. Your security settings are open.');
    expect(requests.filter((r) => `${r.method} ${r.path}` === api.overview)).toHaveLength(2);
    const totp = requests.find((r) => `${r.method} ${r.path}` === api.totp)!;
    expect(totp.headers['Accept-Token-Type']).toBe('TOTPAUTHN');
    await waitFor(() => expect(document.title).toBe('Security settings – Prime Portal'));
  });

  it('shows the factor sections found in their folders in their order, then the page-level ones', async () => {
    renderPage({});
    await pageShown();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      'Passkeys',
      'Authenticator app',
      'Push devices and tokens',
      'Phones and e-mails',
      'Trusted browsers',
      'Signed-in sessions',
      'Recent security activity',
    ]);
  });

  it("lists every section with its items, dates in the reader's locale, markers (a recent device's reason) and named buttons", async () => {
    renderPage({});
    await pageShown();
    for (const name of [
      'Authenticator app',
      'Push devices and tokens',
      'Phones and e-mails',
      'Trusted browsers',
      'Signed-in sessions',
      'Recent security activity',
    ]) {
      expect(screen.getByRole('heading', { name, level: 2 })).toBeTruthy();
    }
    const apps = section('Authenticator app');
    expect(within(apps).getByText(at('2026-11-01T10:00:00.000Z'))).toBeTruthy();
    expect(within(apps).getByText('Not used yet')).toBeTruthy();
    expect(within(apps).getByRole('button', { name: 'Remove Pixel 8' })).toBeTruthy();
    const devices = section('Push devices and tokens');
    expect(within(devices).getByRole('button', { name: 'Remove Work iPhone' })).toBeTruthy();
    expect(within(devices).getByRole('button', { name: 'Remove VIP Access (VSST20250143)' })).toBeTruthy();
    expect(within(devices).getByText(at('2026-11-20T08:00:00.000Z'))).toBeTruthy();
    // A recent device says why it cannot confirm changes here yet (decision 030); an old one does not.
    const newDevice = within(devices)
      .getByRole('heading', { name: /New Pixel/ })
      .closest('li')!;
    expect(within(newDevice).getByText('Recently added')).toBeTruthy();
    expect(
      within(newDevice).getByText(
        `It can be used to sign in, but not to confirm changes on this page until ${at('2026-11-25T19:00:00.000Z')}.`,
      ),
    ).toBeTruthy();
    const oldDevice = within(devices)
      .getByRole('heading', { name: /Work iPhone/ })
      .closest('li')!;
    expect(within(oldDevice).queryByText('Recently added')).toBeNull();
    const contacts = section('Phones and e-mails');
    const recent = within(contacts).getByText('(XXX) XXX-0178').closest('li')!;
    expect(within(recent).getByText('Recently added')).toBeTruthy();
    expect(
      within(recent).getByText(`Can be used to verify your identity from ${at('2026-11-25T19:00:00.000Z')}.`),
    ).toBeTruthy();
    const old = within(contacts).getByText('(XXX) XXX-0143').closest('li')!;
    expect(within(old).queryByText('Recently added')).toBeNull();
    // A masked number is shown as it is, and read as the digits it ends in (not 'X X X').
    expect(within(old).getByRole('heading', { name: 'number ending in 0 1 4 3' })).toBeTruthy();
    const removePhone = within(contacts).getByRole('button', {
      name: 'Remove phone number ending in 0 1 4 3',
    });
    await userEvent.setup().click(removePhone);
    const confirm = await screen.findByRole('dialog', { name: 'Remove phone number ending in 0 1 4 3?' });
    expect(confirm.getAttribute('aria-describedby')).toBeTruthy();
    expect(spokenText(document.getElementById(confirm.getAttribute('aria-describedby')!)!)).toBe(
      'You will no longer be able to use phone number ending in 0 1 4 3 to verify your identity.',
    );
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(contacts).getByRole('button', { name: 'Remove e-mail a****1@example.com' })).toBeTruthy();
    const trusted = section('Trusted browsers');
    expect(
      within(trusted).getByRole('button', {
        name: `Revoke Firefox on Windows, added ${at('2026-11-10T09:00:00.000Z')}`,
      }),
    ).toBeTruthy();
    expect(within(trusted).getByRole('button', { name: 'Revoke all trusted browsers' })).toBeTruthy();
    const sessions = section('Signed-in sessions');
    const items = within(sessions).getAllByRole('listitem');
    // This session first, marked, with no End button of its own.
    expect(within(items[0]!).getByText('This session')).toBeTruthy();
    expect(within(items[0]!).queryByRole('button', { name: /^End/ })).toBeNull();
    expect(within(items[1]!).getByText('203.0.113.7')).toBeTruthy();
    expect(within(items[1]!).getByText('Safari')).toBeTruthy();
    expect(within(items[1]!).getByText('iOS')).toBeTruthy();
    expect(
      within(items[1]!).getByRole('button', {
        name: `End the session on Safari on iOS, signed in ${at('2026-11-23T18:00:00.000Z')}`,
      }),
    ).toBeTruthy();
    const activity = within(section('Recent security activity')).getAllByRole('listitem');
    expect(activity[0]!.textContent).toContain('Identity verified again');
    expect(activity[0]!.textContent).toContain('Chrome on Linux');
    expect(activity[1]!.textContent).toContain('Failed');
  });

  it("adds an authenticator app: QR code with its text alternative, the key in groups, code checks, then the server's answer", async () => {
    const requests = renderPage({
      [api.overview]: [
        ready,
        done('success', {
          ...overview,
          authenticators: [
            ...overview.authenticators,
            { id: 'a2', name: 'Work phone', createdAt: '2026-11-23T20:05:00.000Z', lastUsedAt: null },
          ],
        }),
      ],
      [api.enrollment]: done('Scan the QR code…', {
        enrollmentId: '7b0c8d7e-0000-4000-8000-000000000001',
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUri:
          'otpauth://totp/Gatehouse:authapp01?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Gatehouse&algorithm=SHA1&digits=6&period=30',
        expiresAt: '2026-11-23T20:15:00.000Z',
      }),
      [api.confirmation]: [
        failure(1428, 'Security code not recognized. Try again.'),
        done('Your authenticator app was added.', {
          authenticator: {
            id: 'a2',
            name: 'Work phone',
            createdAt: '2026-11-23T20:05:00.000Z',
            lastUsedAt: null,
          },
        }),
      ],
    });
    const u = userEvent.setup();
    // After setup: user-event puts a clipboard of its own on navigator.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await pageShown();
    await u.click(screen.getByRole('button', { name: 'Add an authenticator app' }));
    const formHeading = await screen.findByRole('heading', { name: 'Connect an authenticator app' });
    await waitFor(() => expect(document.activeElement).toBe(formHeading));
    const qr = screen.getByRole('img', { name: 'QR code to add your account to an authenticator app' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(1000);
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Copy the key' }));
    expect(writeText).toHaveBeenCalledWith('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    await waitFor(() => expect(liveRegion().textContent).toBe('The key was copied.'));

    // No code: the field's message, the summary (focused) and the title.
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    const summary = await findErrorSummary('There is a problem');
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(
      within(summary).getByRole('link', { name: 'Enter the 6-digit code from your authenticator app.' }),
    ).toBeTruthy();
    const code = screen.getByRole('textbox', { name: /Code from the app/ });
    expect(code.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.title).toBe('Error: Security settings – Prime Portal'));
    await u.type(code, '123');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('link', { name: 'Enter all 6 digits of the code.' });
    expect(requests.filter((r) => `${r.method} ${r.path}` === api.confirmation)).toHaveLength(0);

    // A wrong code: the server's text, at the field and in the summary; the field is emptied.
    await u.clear(code);
    await u.type(code, '654321');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('link', { name: 'Security code not recognized. Try again.' });
    expect((screen.getByRole('textbox', { name: /Code from the app/ }) as HTMLInputElement).value).toBe('');

    await u.type(screen.getByRole('textbox', { name: /Code from the app/ }), '123456');
    await u.type(screen.getByRole('textbox', { name: /Name/ }), 'Work phone');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(liveRegion().textContent).toBe('Work phone was added. You can use it to verify your identity.'),
    );
    const sent = requests.filter((r) => `${r.method} ${r.path}` === api.confirmation).at(-1)!;
    expect(sent.body).toEqual({
      enrollmentId: '7b0c8d7e-0000-4000-8000-000000000001',
      securityCode: '123456',
      name: 'Work phone',
    });
    expect(sent.headers['X-XSRF-TOKEN']).toBe('abc.def');
    await screen.findByRole('button', { name: 'Remove Work phone' });
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'Authenticator app', level: 2 }),
      ),
    );
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    await waitFor(() => expect(document.title).toBe('Security settings – Prime Portal'));
  });

  it('refuses an authenticator name with a blocked character (# & * { } [ ]) before any call, at the field and in the summary', async () => {
    const requests = renderPage({
      [api.overview]: ready,
      [api.enrollment]: done('Scan the QR code…', {
        enrollmentId: '7b0c8d7e-0000-4000-8000-000000000001',
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUri:
          'otpauth://totp/Gatehouse:authapp01?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Gatehouse&algorithm=SHA1&digits=6&period=30',
        expiresAt: '2026-11-23T20:15:00.000Z',
      }),
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(screen.getByRole('button', { name: 'Add an authenticator app' }));
    await screen.findByRole('heading', { name: 'Connect an authenticator app' });
    await u.type(screen.getByRole('textbox', { name: /Code from the app/ }), '123456');
    await u.type(screen.getByRole('textbox', { name: /Name/ }), 'Work {{phone]]');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    const message = 'A name cannot contain these characters: # & * { } [ ]';
    const summary = await findErrorSummary('There is a problem');
    expect(within(summary).getByRole('link', { name: message })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Name/ }).getAttribute('aria-invalid')).toBe('true');
    expect(requests.filter((r) => `${r.method} ${r.path}` === api.confirmation)).toHaveLength(0);
  });

  it("removes a push device after its confirmation, says so, and shows a refusal in the server's words", async () => {
    const requests = renderPage({
      [api.overview]: [ready, done('success', { ...overview, pushDevices: [] })],
      [api.removeCredential]: [
        done('The verification method was removed.'),
        failure(1403, "You can't remove your last way to verify your identity. Add another one first."),
      ],
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(screen.getByRole('button', { name: 'Remove Work iPhone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Work iPhone?' });
    expect(
      within(dialog).getByText('You will no longer be able to use Work iPhone to verify your identity.'),
    ).toBeTruthy();
    await u.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(liveRegion().textContent).toBe('Work iPhone was removed.'));
    expect(requests.find((r) => `${r.method} ${r.path}` === api.removeCredential)?.body).toEqual({
      id: 'p1',
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Work iPhone' })).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Push devices and tokens' })),
    );

    await confirmIn(u, 'Remove VIP Access (VSST20250143)', 'Yes, remove');
    const alert = await within(section('Push devices and tokens')).findByRole('alert');
    expect(alert.textContent).toContain(
      "You can't remove your last way to verify your identity. Add another one first.",
    );
    expect(screen.getByRole('button', { name: 'Remove VIP Access (VSST20250143)' })).toBeTruthy();
  });

  it('adds a phone: the number (a refusal at the field), the code sent to it, then recently added', async () => {
    const requests = renderPage({
      [api.overview]: [
        ready,
        done('success', {
          ...overview,
          phones: [
            ...overview.phones,
            {
              id: 'ph3',
              masked: '(XXX) XXX-0187',
              voice: true,
              createdAt: '2026-11-23T20:06:00.000Z',
              usableFrom: '2026-11-25T20:06:00.000Z',
              recentlyAdded: true,
            },
          ],
        }),
      ],
      [api.contacts]: [
        failure(1409, 'This phone number or email address is already on your account.'),
        done('We sent a code to (XXX) XXX-0187. It will expire after 30 minutes.', {
          confirmationId: '7b0c8d7e-0000-4000-8000-000000000002',
          masked: '(XXX) XXX-0187',
          expiresAt: '2026-11-23T20:36:00.000Z',
        }),
      ],
      [api.contactConfirmation]: done('Your new contact information was added.', {
        kind: 'phone',
        phone: {
          id: 'ph3',
          masked: '(XXX) XXX-0187',
          voice: true,
          createdAt: '2026-11-23T20:06:00.000Z',
          usableFrom: '2026-11-25T20:06:00.000Z',
          recentlyAdded: true,
        },
      }),
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(screen.getByRole('button', { name: 'Add a phone' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Add a phone' })),
    );
    await u.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('link', { name: 'Enter a phone number.' });
    const number = screen.getByRole('textbox', { name: /Phone number/ });
    await u.type(number, '(202) 555-0143');
    await u.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('link', {
      name: 'This phone number or email address is already on your account.',
    });
    expect(number.getAttribute('aria-invalid')).toBe('true');

    await u.clear(number);
    await u.type(number, '(202) 555-0187');
    await u.click(screen.getByRole('checkbox', { name: 'Codes may also come by voice call' }));
    await u.click(screen.getByRole('button', { name: 'Send code' }));
    const sentTo = await waitFor(() =>
      getBySpokenText(
        'We sent a 6-digit code to number ending in 0 1 8 7. Enter it to add it to your account.',
      ),
    );
    expect(sentTo.textContent).toContain('We sent a 6-digit code to (XXX) XXX-0187');
    const code = screen.getByRole('textbox', { name: /Code we sent/ });
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(requests.filter((r) => `${r.method} ${r.path}` === api.contacts).at(-1)?.body).toEqual({
      kind: 'phone',
      value: '(202) 555-0187',
      voice: true,
    });
    await u.type(code, '246810{Enter}');
    await waitFor(() =>
      expect(liveRegion().textContent).toBe(
        `phone number ending in 0 1 8 7 was added. It can be used to verify your identity from ${at('2026-11-25T20:06:00.000Z')}.`,
      ),
    );
    expect(requests.find((r) => `${r.method} ${r.path}` === api.contactConfirmation)?.body).toEqual({
      confirmationId: '7b0c8d7e-0000-4000-8000-000000000002',
      securityCode: '246810',
    });
    const added = (await screen.findByText('(XXX) XXX-0187')).closest('li')!;
    expect(within(added).getByText('Recently added')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Phones and e-mails' })),
    );
  });

  it('revokes every trusted browser and ends another session, each announced', async () => {
    const requests = renderPage({
      [api.overview]: [
        ready,
        done('success', { ...overview, trustedBrowsers: [] }),
        done('success', { ...overview, trustedBrowsers: [], sessions: [overview.sessions[1]!] }),
      ],
      [api.revoke]: done('No browser is trusted any more.', { revoked: 1 }),
      [api.endSession]: done('The session was ended.', { ended: 1 }),
    });
    const u = userEvent.setup();
    await pageShown();
    await confirmIn(u, 'Revoke all trusted browsers', 'Yes, revoke');
    await waitFor(() => expect(liveRegion().textContent).toBe('No browser skips the second step any more.'));
    expect(requests.find((r) => `${r.method} ${r.path}` === api.revoke)?.body).toEqual({ all: true });
    await screen.findByText('No browser skips the second step when you sign in.');

    await confirmIn(
      u,
      `End the session on Safari on iOS, signed in ${at('2026-11-23T18:00:00.000Z')}`,
      'Yes, end it',
    );
    await waitFor(() => expect(liveRegion().textContent).toBe('The session on Safari on iOS was ended.'));
    expect(requests.find((r) => `${r.method} ${r.path}` === api.endSession)?.body).toEqual({ id: 's-other' });
    await screen.findByText('You are not signed in anywhere else.');
  });

  it('a call after the step-up has run out brings the step-up back, saying why', async () => {
    renderPage({
      [api.enrollment]: stepUpRequired,
      [api.extend]: { status: 204 },
      [api.authenticators]: done('success', { authenticators: [{ type: 'TOTPAUTHN' }] }),
    });
    const u = userEvent.setup();
    await pageShown();
    await u.click(screen.getByRole('button', { name: 'Add an authenticator app' }));
    await screen.findByRole('heading', { name: 'Verify your identity to continue', level: 1 });
    expect(
      screen.getByText(
        'It has been a while since you verified your identity. Please verify it again to continue.',
      ),
    ).toBeTruthy();
    await screen.findByRole('heading', { name: 'Enter the code from your authenticator app' });
  });

  it('without a session the guard sends the customer to login; a failed overview offers Try again', async () => {
    fakeServer({ [api.session]: failure(4401, 'Session expired', 401) });
    const first = renderRoute('/security', <GuardedSecurityPage />);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    first.unmount();
    vi.unstubAllGlobals();

    const requests = fakeServer({
      [api.session]: signedIn,
      [api.overview]: [failure(5003, 'The service is unavailable. Please try again later.', 503), ready],
    });
    renderRoute('/security', <GuardedSecurityPage />);
    const u = userEvent.setup();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not load your security settings. Please try again.');
    expect(alert.textContent).toContain('The service is unavailable. Please try again later.');
    await u.click(screen.getByRole('button', { name: 'Try again' }));
    await pageShown();
    expect(requests.filter((r) => `${r.method} ${r.path}` === api.overview)).toHaveLength(2);
  });
});
