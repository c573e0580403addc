import { customerPaths, limits } from '@gatehouse/contract/client';
import type { ApiClient } from '../api/client.ts';

/** The longest session login waits for the provider's first signals (decision 045): a widget timing. */
const firstSignalsWaitMs = 1500;

/** The host's device-risk step (widget spec §7; docs/decisions/045-device-risk-step.md). */
export type DeviceRiskConfig = { scriptUrl: string; beaconUrl: string };

/**
 * The third-party step of widget spec §7: 'A device-risk script and a real-time-communication
 * beacon (polling every 10 seconds) are loaded'. The provider's script is added to the page once;
 * its beacon is read every 10 seconds, and what it reports is forwarded to the identity service's
 * first-party beacon, which records it on the login journey, once there is one (after the
 * password). Session login waits for the first forward at most a moment: a slow or absent provider
 * never stops a sign-in. Every failure is ignored.
 */
export class DeviceRisk {
  private latest: unknown;
  private timer: ReturnType<typeof setInterval> | undefined;
  private journey = false;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly config: DeviceRiskConfig,
    private readonly client: ApiClient,
  ) {}

  /** Adds the provider's script (once a page) and starts polling its beacon. */
  start(): void {
    if (this.timer) return;
    const present = [...document.scripts].some((s) => s.src === this.config.scriptUrl);
    if (!present) {
      const script = document.createElement('script');
      script.src = this.config.scriptUrl;
      script.async = true;
      script.dataset.ghDeviceRisk = '';
      document.head.append(script);
    }
    void this.poll();
    this.timer = setInterval(() => void this.poll(), limits.riskBeaconIntervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * The password opened a login journey: forward the signals now (reading the beacon first when it
   * has not answered yet), waiting at most `firstSignalsWaitMs`, then on every poll.
   */
  async journeyStarted(): Promise<void> {
    this.journey = true;
    const forwarded = (async () => {
      if (this.latest === undefined) await (this.reading ?? this.read());
      await this.forward();
    })();
    await Promise.race([forwarded, new Promise((resolve) => setTimeout(resolve, firstSignalsWaitMs))]);
  }

  private async poll(): Promise<void> {
    await this.read();
    if (this.journey) await this.forward();
  }

  private read(): Promise<void> {
    this.reading = (async () => {
      try {
        const response = await fetch(this.config.beaconUrl, { credentials: 'omit', cache: 'no-store' });
        if (response.ok) this.latest = await response.json();
      } catch {
        // The provider is unreachable: the last signals stand.
      }
    })();
    return this.reading;
  }

  private async forward(): Promise<void> {
    if (this.latest === undefined) return;
    // Its path here, not in the login route's call table: only this on-demand step makes the call.
    await this.client
      .request('POST', customerPaths.deviceRiskBeacon, { body: this.latest })
      .catch(() => undefined);
  }
}
