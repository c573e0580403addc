import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../api/client.ts';
import { api, envelope, fakeServer, renderWidget } from '../test/fake-server.tsx';
import { DeviceRisk } from './deviceRisk.ts';

/**
 * Widget spec §7: 'A device-risk script and a real-time-communication beacon (polling every 10
 * seconds) are loaded by a third-party step' (docs/decisions/045-device-risk-step.md).
 */
const deviceRisk = {
  scriptUrl: 'https://risk.provider.example/profile.js',
  beaconUrl: 'https://rtc.provider.example/beacon',
};
const signals = { provider: 'acme', score: 72, reasons: ['emulator'] };
const providerBeacon = 'GET /beacon';
const firstParty = 'POST /api/user/risk/beacon';

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
  document.cookie = 'XSRF-TOKEN=abc.def';
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const script of document.querySelectorAll('script[data-gh-device-risk]')) script.remove();
});

describe('the device-risk step (widget spec §7)', () => {
  it("adds the provider's script once, and forwards its beacon's signals to the journey after the password, before session login", async () => {
    const { requests, calls } = fakeServer({
      [providerBeacon]: { body: signals },
      [firstParty]: { body: null },
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1200, 'User authenticated', { successData: { username: 'alexdemo1' } }),
      },
    });
    const { onFinish } = renderWidget({ deviceRisk });
    await waitFor(() => expect(calls()).toContain(providerBeacon), { timeout: 3000 });
    const scripts = [...document.querySelectorAll('script')].filter((s) => s.src === deviceRisk.scriptUrl);
    expect(scripts).toHaveLength(1);
    // No journey yet: nothing is forwarded before the password.
    expect(calls()).not.toContain(firstParty);

    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1), { timeout: 3000 });
    const order = calls();
    expect(order.indexOf(firstParty)).toBeGreaterThan(order.indexOf(api.password));
    expect(order.indexOf(firstParty)).toBeLessThan(order.indexOf(api.session));
    expect(requests.find((r) => `${r.method} ${r.path}` === firstParty)!.body).toEqual(signals);
  });

  it('without deviceRisk (the default) there is no script, no provider call and no beacon', async () => {
    const { calls } = fakeServer({
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1200, 'User authenticated', { successData: { username: 'alexdemo1' } }),
      },
    });
    const { onFinish } = renderWidget({});
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1));
    expect(document.querySelector('script[data-gh-device-risk]')).toBeNull();
    expect(calls().filter((c) => c === providerBeacon || c === firstParty)).toEqual([]);
  });

  it('a provider that never answers does not hold the sign-in', async () => {
    const { calls } = fakeServer({
      [providerBeacon]: { body: signals, wait: new Promise(() => {}) },
      [api.password]: { body: envelope(1200, 'Success') },
      [api.session]: {
        body: envelope(1200, 'User authenticated', { successData: { username: 'alexdemo1' } }),
      },
    });
    const { onFinish } = renderWidget({ deviceRisk });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Username/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Password/), 'Harbor7Lights{Enter}');
    await waitFor(() => expect(onFinish).toHaveBeenCalledTimes(1), { timeout: 4000 });
    expect(calls()).not.toContain(firstParty);
  });

  it('polls the beacon every 10 seconds, forwarding each reading once a journey is open; stop ends it', async () => {
    vi.useFakeTimers();
    const { calls } = fakeServer({ [providerBeacon]: { body: signals }, [firstParty]: { body: null } });
    const risk = new DeviceRisk(
      deviceRisk,
      new ApiClient({ endpoint: '', appId: 'APP', appName: 'App', language: 'en' }),
    );
    const count = (call: string) => calls().filter((c) => c === call).length;
    risk.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(count(providerBeacon)).toBe(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(count(providerBeacon)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(count(providerBeacon)).toBe(2);
    expect(count(firstParty)).toBe(0);
    await risk.journeyStarted();
    expect(count(firstParty)).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect([count(providerBeacon), count(firstParty)]).toEqual([3, 2]);
    risk.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect([count(providerBeacon), count(firstParty)]).toEqual([3, 2]);
  });

  it('a deviceRisk that is not two http(s) addresses is refused, naming the field', () => {
    fakeServer({});
    expect(() => renderWidget({ deviceRisk: { scriptUrl: 'javascript:alert(1)', beaconUrl: 'x' } })).toThrow(
      /deviceRisk: must be an object \{ scriptUrl, beaconUrl \}/,
    );
  });
});
