import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../../mount.tsx';
import { api, email, envelope, fakeServer, renderWidget, stepUpAnswers } from '../../test/fake-server.tsx';
import { heading } from '../../test/heading.ts';

// Journeys through two screens: slow on a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const pushStart = "We'll send a notification to the Gatehouse app on your mobile device";
const pushInit = 'POST /api/user/factor/push/authentication';

/** A step-up whose server list (GET authenticators) starts with PUSH, then the authenticator app. */
function stepUp(exclude?: string[]) {
  const server = fakeServer(
    stepUpAnswers(
      { phone: [], email: [] },
      {
        'GET /api/user/factor/authenticators': {
          body: envelope(1200, 'Success', {
            successData: { authenticators: [{ type: 'PUSH' }, { type: 'TOTPAUTHN' }] },
          }),
        },
      },
    ),
  );
  renderWidget({
    journey: 'STEPUP',
    pushAppName: 'Gatehouse',
    ...(exclude ? { excludeAuthenticators: exclude } : {}),
  });
  return server;
}

describe("excludeAuthenticators: the host's types left out of the server's list (the device app: PUSH)", () => {
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('step-up: without it, the server list opens push', async () => {
    stepUp();
    expect(await heading(pushStart)).toBeTruthy();
  });

  it('step-up: with PUSH excluded, the same list opens the authenticator app, and no push is sent', async () => {
    const { requests } = stepUp(['PUSH']);
    await heading('Enter the code from your authenticator app');
    expect(screen.queryByText(pushStart)).toBeNull();
    expect(requests.some((r) => `${r.method} ${r.path}` === pushInit)).toBe(false);
  });

  it('login: the session list less PUSH opens the e-mail code screen', async () => {
    fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1201, 'Authentication not completed', {
          successData: { authenticated: false, authenticators: [{ type: 'PUSH' }, { type: 'OTP-EMAIL' }] },
        }),
      },
      [api.otpState]: {
        body: envelope(1200, 'Success', { successData: { phone: [], email: [email('1')] } }),
      },
    });
    renderWidget({ pushAppName: 'Gatehouse', excludeAuthenticators: ['PUSH'] });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    expect(await screen.findByRole('button', { name: 'Email me the code' }, { timeout: 3000 })).toBeTruthy();
    expect(screen.queryByText(pushStart)).toBeNull();
  });

  it("login: a list of only unknown types opens the representative page (the spec's default), not the error card", async () => {
    fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1201, 'Authentication not completed', {
          successData: { authenticated: false, authenticators: [{ type: 'FIDO2' }, { type: 'SOMETHING' }] },
        }),
      },
    });
    renderWidget({ repPhone: '1-800-555-0100' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    expect(await heading('Call us to verify your identity')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });

  it('a config whose exclusions are not a list of types is refused, naming the field', () => {
    const element = document.body.appendChild(document.createElement('div'));
    const config = { appId: 'APP', appName: 'App', onFinish: () => {}, excludeAuthenticators: 'PUSH' };
    expect(() => mount(element, config as never)).toThrow(
      /excludeAuthenticators: must be an array of authenticator types/,
    );
  });
});
