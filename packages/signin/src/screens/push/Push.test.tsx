import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
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

vi.setConfig({ testTimeout: 15_000 });

const init = 'POST /api/user/factor/push/authentication';
const statusCall = 'POST /api/user/factor/push/status';
const sent = (extra: Record<string, unknown> = {}): Answer => ({
  body: envelope(1200, 'We sent a notification to your mobile device', {
    successData: { id: 'push-1', ...extra },
  }),
});
const status = (value: string, extra: Record<string, unknown> = {}): Answer => ({
  body: envelope(1200, 'Success', { successData: { status: value }, ...extra }),
});
const serverFault: Answer = { status: 500, body: envelope(5000, 'Unknown error') };

const startHeading = "We'll send a notification to the Gatehouse app on your mobile device";
const sentHeading = 'We sent a notification to your mobile device';
const sentText = 'Open the notification in the Gatehouse app and tap "Yes, it\'s me."';
const failed = "We couldn't confirm your identity. Please try again.";
const expired = 'Too much time has passed. Please try again.';
const limit = 'Please try another method to verify your identity.';

const live = () => document.querySelector('[data-push-live]') as HTMLElement;
/** Lets time pass on the fake clock, running what it makes due (polls, focus, expiry). */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function user() {
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

/** A step-up widget whose authenticator list starts with PUSH. */
function stepUp(answers: Record<string, Answer | Answer[]>, config: Partial<SignInConfig> = {}) {
  const server = fakeServer(stepUpAnswers({ phone: [], email: [] }, answers));
  const view = renderWidget({
    journey: 'STEPUP',
    pushAppName: 'Gatehouse',
    authenticators: [{ type: 'PUSH', context: { channel: 'web' } }],
    ...config,
  });
  return { ...server, ...view };
}

/** The login journey: password, then session login asking for PUSH, then (second answer) done. */
function login(answers: Record<string, Answer | Answer[]>, config: Partial<SignInConfig> = {}) {
  const server = fakeServer({
    [api.password]: { body: envelope(1200, 'Success') },
    [api.session]: [
      {
        body: envelope(1201, 'Authentication not completed', {
          successData: { authenticated: false, authenticators: [{ type: 'PUSH' }, { type: 'OTP-EMAIL' }] },
        }),
      },
      { body: envelope(1200, 'User authenticated', { successData: { username: 'pushuser1' } }) },
    ],
    [api.trusted]: { body: envelope(1200, 'Success') },
    ...answers,
  });
  const view = renderWidget({ pushAppName: 'Gatehouse', ...config });
  return { ...server, ...view };
}

async function signIn(u: ReturnType<typeof user>) {
  await u.type(screen.getByLabelText(/Username/), 'pushuser1');
  await u.type(screen.getByLabelText(/^Password/), 'Comet3Prairie{Enter}');
  await heading(startHeading);
}

const statusCalls = (calls: () => string[]) => calls().filter((c) => c === statusCall).length;

describe('push screen (widget spec §2, §4 "Push states"; issue 11)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date('2026-11-23T12:00:00Z') });
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
    document.title = 'Bank';
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('step-up: the first state names the app, offers Send notification and Cancel, no trust-device box', async () => {
    const { onEvent } = stepUp({});
    const h = await heading(startHeading);
    expect(screen.getByRole('button', { name: 'Send notification' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(document.title.startsWith(startHeading)).toBe(true);
    expect(onEvent).toHaveBeenCalledWith({ type: 'pushStart', detail: { factor: 'push' } });
    await pass(400);
    expect(document.activeElement).toBe(h);
  });

  it('step-up: sends the journey description, content, key and context; polls every 3000 ms; approval finishes', async () => {
    const { requests, calls, onFinish, onEvent } = stepUp({
      [init]: sent(),
      [statusCall]: [status('PENDING'), status('SUCCESS')],
    });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    const sentRequest = requests.find((r) => `${r.method} ${r.path}` === init)!;
    const body = sentRequest.body as Record<string, string>;
    expect(body.transactionDescription).toBe('Identity check');
    expect(body.localizedPushKey).toBe('gatehouse.push.approve');
    expect(body.context).toBe('{"channel":"web"}');
    const content = JSON.parse(body.secureTransactionContent!);
    expect(content).toMatchObject({ journey: 'STEPUP', host: location.host });
    expect(content.time).toMatch(/^2026-11-23T12:00:0\d\.\d{3}Z$/);
    expect(typeof content.deviceInfo.browserName).toBe('string');
    expect(typeof content.deviceInfo.osName).toBe('string');
    expect(sentRequest.headers['Accept-Token-Type'] ?? sentRequest.headers['accept-token-type']).toBe('PUSH');

    expect(statusCalls(calls)).toBe(0);
    await pass(2900);
    expect(statusCalls(calls)).toBe(0);
    await pass(100);
    expect(statusCalls(calls)).toBe(1);
    const poll = requests.find((r) => `${r.method} ${r.path}` === statusCall)!;
    expect(poll.body).toEqual({ id: 'push-1', bindDevice: false });
    await pass(3000);
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'STEPUP', code: 1200 });
    expect(calls()).toContain(api.update);
    expect(calls()).not.toContain(api.trusted);
    expect(onEvent).toHaveBeenCalledWith({
      type: 'pushSent',
      detail: { factor: 'push', sends: 1, numberMatching: false },
    });
    expect(onEvent).toHaveBeenCalledWith({ type: 'factorVerified', detail: { factor: 'push' } });
  });

  it('the waiting state: the spec texts, announced in the live region, the heading focused after 400 ms', async () => {
    stepUp({ [init]: sent(), [statusCall]: status('PENDING') });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    const h = await heading(sentHeading);
    expect(screen.getByText(sentText)).toBeTruthy();
    expect(live().textContent).toBe(`${sentHeading} ${sentText}`);
    expect(document.title.startsWith(sentHeading)).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send notification' })).toBeNull();
    await pass(400);
    expect(document.activeElement).toBe(h);
  });

  it('number matching: the number to type on the device is shown prominently and announced', async () => {
    stepUp({ [init]: sent({ number: '42' }), [statusCall]: status('PENDING') });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    const number = screen.getByText('42');
    expect(number.tagName).toBe('STRONG');
    expect(number.closest('p')!.textContent).toBe(
      'Type 42 in the notification before you tap "Yes, it\'s me."',
    );
    expect(live().textContent).toBe(
      `${sentHeading} ${sentText} Type 42 in the notification before you tap "Yes, it's me."`,
    );
  });

  it('login: the trust-device box, bindDevice on the polls, the binding call, then session login finishes', async () => {
    const { requests, calls, onFinish } = login({
      [init]: sent(),
      [statusCall]: status('COMPLETED_SUCCESSFUL'),
    });
    const u = user();
    await signIn(u);
    await u.click(screen.getByRole('checkbox', { name: "Don't ask me again on this device" }));
    await u.click(screen.getByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    expect(
      (requests.find((r) => `${r.method} ${r.path}` === init)!.body as Record<string, string>)
        .transactionDescription,
    ).toBe('Sign-in request');
    await pass(3000);
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(requests.find((r) => `${r.method} ${r.path}` === statusCall)!.body).toEqual({
      id: 'push-1',
      bindDevice: true,
    });
    const order = calls();
    expect(order.indexOf(api.trusted)).toBeGreaterThan(order.indexOf(statusCall));
    expect(order.lastIndexOf(api.session)).toBeGreaterThan(order.indexOf(api.trusted));
    expect(onFinish.mock.calls[0]![0]).toMatchObject({ journey: 'LOGIN', code: 1200 });
  });

  it('login: a failing device-binding call is ignored', async () => {
    const { onFinish } = login({
      [init]: sent(),
      [statusCall]: status('SUCCESS'),
      [api.trusted]: { status: 500, body: envelope(5000, 'Unknown error') },
    });
    const u = user();
    await signIn(u);
    await u.click(screen.getByRole('checkbox', { name: "Don't ask me again on this device" }));
    await u.click(screen.getByRole('button', { name: 'Send notification' }));
    await pass(3000);
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
  });

  it.each([
    ['COMPLETED_FAILURE', failed, 'pushFailed'],
    ['EXPIRED_PENDING', expired, 'pushExpired'],
    ['EXPIRED_FAILURE', expired, 'pushExpired'],
  ])(
    '%s: the error heading, Resend and Try another way, announced, title Error:, polling stopped',
    async (value, text, event) => {
      const { calls, onEvent } = stepUp({ [init]: sent(), [statusCall]: status(value) });
      await user().click(await screen.findByRole('button', { name: 'Send notification' }));
      await heading(sentHeading);
      await pass(3000);
      const h = await heading(text);
      expect(live().textContent).toBe(text);
      expect(document.title.startsWith(`Error: ${text}`)).toBe(true);
      expect(screen.getByRole('button', { name: 'Resend notification' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Try another way' })).toBeTruthy();
      expect(onEvent).toHaveBeenCalledWith({ type: event, detail: { factor: 'push', sends: 1 } });
      await pass(400);
      expect(document.activeElement).toBe(h);
      await pass(9000);
      expect(statusCalls(calls)).toBe(1);
    },
  );

  it('resend works twice; the third send’s error is the limit message, without resend', async () => {
    const { calls, onEvent } = stepUp({ [init]: sent(), [statusCall]: status('COMPLETED_FAILURE') });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    for (const send of [1, 2]) {
      await pass(3000);
      await heading(failed);
      expect(calls().filter((c) => c === init)).toHaveLength(send);
      await u.click(screen.getByRole('button', { name: 'Resend notification' }));
      await heading(sentHeading);
    }
    await pass(3000);
    await heading(limit);
    expect(live().textContent).toBe(limit);
    expect(screen.queryByRole('button', { name: 'Resend notification' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Try another way' })).toBeTruthy();
    expect(calls().filter((c) => c === init)).toHaveLength(3);
    expect(onEvent).toHaveBeenCalledWith({ type: 'pushLimit', detail: { factor: 'push', sends: 3 } });
  });

  it('a failed poll is tried again twice, then the cannot-confirm error', async () => {
    const { calls, onEvent } = stepUp({ [init]: sent(), [statusCall]: serverFault });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    await pass(3000);
    await pass(3000);
    expect(statusCalls(calls)).toBe(2);
    expect(screen.queryByRole('heading', { name: failed })).toBeNull();
    await pass(3000);
    await heading(failed);
    expect(statusCalls(calls)).toBe(3);
    expect(screen.getByRole('button', { name: 'Resend notification' })).toBeTruthy();
    expect(onEvent).toHaveBeenCalledWith({ type: 'pushCannotConfirm', detail: { factor: 'push', sends: 1 } });
    await pass(9000);
    expect(statusCalls(calls)).toBe(3);
  });

  it('a failed poll followed by an answer counts again from zero, and 1404 is the cannot-confirm error', async () => {
    const { calls } = stepUp({
      [init]: sent(),
      [statusCall]: [
        serverFault,
        serverFault,
        status('PENDING'),
        serverFault,
        { body: envelope(1404, 'There is no such notification.') },
      ],
    });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    for (let i = 0; i < 4; i++) await pass(3000);
    expect(screen.queryByRole('heading', { name: failed })).toBeNull();
    await pass(3000);
    await heading(failed);
    expect(statusCalls(calls)).toBe(5);
  });

  it.each([
    ['1491', { body: envelope(1491, limit) }],
    [
      '1403',
      { body: envelope(1403, 'There is no mobile device set up to approve sign-ins for your account.') },
    ],
    ['a server fault', serverFault],
  ] as Array<[string, Answer]>)(
    'a push that fails to start (%s) shows the limit error without resend',
    async (_, answer) => {
      const { calls } = stepUp({ [init]: answer });
      await user().click(await screen.findByRole('button', { name: 'Send notification' }));
      await heading(limit);
      expect(screen.queryByRole('button', { name: 'Resend notification' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Try another way' })).toBeTruthy();
      await pass(9000);
      expect(statusCalls(calls)).toBe(0);
    },
  );

  it('a push that fails to start on the network shows the limit error', async () => {
    stepUp({});
    const fetch = globalThis.fetch as unknown as Mock<(url: string, init?: RequestInit) => Promise<Response>>;
    const answer = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (url: string, initOptions?: RequestInit) => {
      if (String(url).includes('/push/authentication')) throw new TypeError('Failed to fetch');
      return answer(url, initOptions);
    });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(limit);
    expect(screen.queryByRole('button', { name: 'Resend notification' })).toBeNull();
  });

  it('a redirect path in a status answer is followed', async () => {
    stepUp({ [init]: sent(), [statusCall]: status('PENDING', { redirectPath: '/blocked' }) });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    await pass(3000);
    await heading('Your account has been blocked');
  });

  it('a redirect path in the send answer is followed', async () => {
    const { calls } = stepUp({ [init]: sent({}), [statusCall]: status('PENDING') });
    const fetch = globalThis.fetch as unknown as Mock<(url: string, init?: RequestInit) => Promise<Response>>;
    const answer = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (url: string, initOptions?: RequestInit) =>
      String(url).includes('/push/authentication')
        ? new Response(JSON.stringify(envelope(1200, 'Success', { redirectPath: '/authenticator/rep' })), {
            status: 200,
          })
        : answer(url, initOptions),
    );
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading('Verify your identity');
    await pass(9000);
    expect(statusCalls(calls)).toBe(0);
  });

  it('polling stops when the widget unmounts', async () => {
    const { calls, unmount } = stepUp({ [init]: sent(), [statusCall]: status('PENDING') });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    await pass(3000);
    expect(statusCalls(calls)).toBe(1);
    unmount();
    await pass(30_000);
    expect(statusCalls(calls)).toBe(1);
  });

  it('Cancel while waiting leaves through cancel handling and polling stops', async () => {
    const { calls, onCancel } = stepUp({ [init]: sent(), [statusCall]: status('PENDING') });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    // Step-up: the host decides what comes next; the push screen stops polling meanwhile.
    await pass(9000);
    expect(statusCalls(calls)).toBe(0);
  });

  it('step-up: a push that answers after Cancel is dropped, nothing polls', async () => {
    let release = () => {};
    const wait = new Promise<void>((r) => {
      release = r;
    });
    const { calls, onCancel } = stepUp({ [init]: { ...sent(), wait }, [statusCall]: status('PENDING') });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    release();
    await pass(9000);
    expect(screen.queryByRole('heading', { name: sentHeading })).toBeNull();
    expect(statusCalls(calls)).toBe(0);
  });

  it('polling stops past the push’s expiry (plus one interval) with the expired error', async () => {
    const expiresAt = new Date(Date.now() + 5000).toISOString();
    const { calls, onEvent } = stepUp({ [init]: sent({ expiresAt }), [statusCall]: status('PENDING') });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    await pass(6500);
    expect(statusCalls(calls)).toBe(2); // at 3 s and 6 s
    expect(screen.queryByRole('heading', { name: expired })).toBeNull();
    await pass(1600); // past expiry + 3000 ms
    await heading(expired);
    expect(onEvent).toHaveBeenCalledWith({ type: 'pushExpired', detail: { factor: 'push', sends: 1 } });
    await pass(30_000);
    expect(statusCalls(calls)).toBe(2);
  });

  it('an expiry already past on arrival (a clock ahead of the server) leaves the end to the server', async () => {
    const expiresAt = new Date(Date.now() - 60_000).toISOString();
    const { calls } = stepUp({
      [init]: sent({ expiresAt }),
      [statusCall]: [status('PENDING'), status('PENDING'), status('EXPIRED_PENDING')],
    });
    await user().click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(sentHeading);
    await pass(6500);
    expect(screen.queryByRole('heading', { name: expired })).toBeNull();
    expect(statusCalls(calls)).toBe(2);
    await pass(3000);
    await heading(expired);
  });

  it("'Try another way' goes to the one-time codes when the server allows them", async () => {
    const { calls } = login({
      [init]: { body: envelope(1491, limit) },
      [api.otpState]: {
        body: envelope(1200, 'Success', {
          successData: {
            phone: [],
            email: [{ type: 'EMAIL', value: 'e', label: 'a***@example.com', enable: true }],
          },
        }),
      },
    });
    const u = user();
    await signIn(u);
    await u.click(screen.getByRole('button', { name: 'Send notification' }));
    await heading(limit);
    await u.click(screen.getByRole('button', { name: 'Try another way' }));
    await heading('Verify your identity');
    expect(screen.getByRole('button', { name: 'Email me the code' })).toBeTruthy();
    expect(calls()).toContain(api.otpState);
  });

  it("a host's authenticators limit the server's list: without PUSH the login opens the one-time code", async () => {
    const { calls } = login(
      {
        [api.otpState]: {
          body: envelope(1200, 'Success', {
            successData: {
              phone: [],
              email: [{ type: 'EMAIL', value: 'e', label: 'a***@example.com', enable: true }],
            },
          }),
        },
      },
      { authenticators: [{ type: 'OTP-EMAIL' }, { type: 'OTP-SMS' }] },
    );
    const u = user();
    await u.type(screen.getByLabelText(/Username/), 'pushuser1');
    await u.type(screen.getByLabelText(/^Password/), 'Comet3Prairie{Enter}');
    await heading('Verify your identity');
    expect(screen.queryByRole('button', { name: 'Send notification' })).toBeNull();
    expect(calls()).not.toContain(init);
  });

  it("'Try another way' goes to the representative page when no one-time code is allowed", async () => {
    stepUp({ [init]: { body: envelope(1491, limit) } });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    await heading(limit);
    expect(sessionStorage.getItem(Object.keys(sessionStorage).find((k) => k.endsWith('.otpChannels'))!)).toBe(
      '[]',
    );
    await u.click(screen.getByRole('button', { name: 'Try another way' }));
    await screen.findByRole('button', { name: 'Continue' });
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
  });

  it('the Send button is a pending button while the push starts', async () => {
    let release = () => {};
    const wait = new Promise<void>((r) => {
      release = r;
    });
    stepUp({ [init]: { ...sent(), wait } });
    const u = user();
    const button = await screen.findByRole('button', { name: 'Send notification' });
    await u.click(button);
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    expect(screen.getByText('Sending the notification…')).toBeTruthy();
    await u.click(button);
    release();
    await heading(sentHeading);
  });

  it('without pushAppName the app is businessSMSText, else appName', async () => {
    const { unmount } = stepUp({}, { pushAppName: undefined, businessSMSText: 'Harbor' });
    await heading("We'll send a notification to the Harbor app on your mobile device");
    unmount();
    stepUp({}, { pushAppName: undefined, appName: 'Prime Portal' });
    await heading("We'll send a notification to the Prime Portal app on your mobile device");
  });
});

describe('push denied (widget spec §2, decision 022)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=abc.def';
    document.title = 'Bank';
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('login, DECLINED: the login texts, and Go back returns to the login screen', async () => {
    const { onEvent, calls } = login({ [init]: sent(), [statusCall]: status('DECLINED') });
    const u = user();
    await signIn(u);
    await u.click(screen.getByRole('button', { name: 'Send notification' }));
    await pass(3000);
    const h = await heading('Your login was denied');
    expect(
      screen.getByText("You told us this wasn't you, so we stopped this login. Please try logging in again"),
    ).toBeTruthy();
    expect(document.title.startsWith('Your login was denied')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Resend notification' })).toBeNull();
    expect(onEvent).toHaveBeenCalledWith({
      type: 'pushDenied',
      detail: { factor: 'push', status: 'DECLINED' },
    });
    await pass(400);
    expect(document.activeElement).toBe(h);
    await pass(9000);
    expect(statusCalls(calls)).toBe(1);
    await u.click(screen.getByRole('button', { name: 'Go back' }));
    await screen.findByLabelText(/Username/);
  });

  it('step-up, FRAUD: the step-up texts, and Back to homepage calls the host’s cancel handler', async () => {
    const { onCancel, onEvent } = stepUp({ [init]: sent(), [statusCall]: status('FRAUD') });
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Send notification' }));
    await pass(3000);
    await heading("We couldn't verify your identity");
    const section = screen
      .getByRole('heading', { name: "We couldn't verify your identity" })
      .closest('section')!;
    expect(
      within(section).getByText("You told us this wasn't you, so we stopped this request."),
    ).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Back to homepage' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith({ type: 'cancel', detail: { journey: 'STEPUP' } });
  });
});
