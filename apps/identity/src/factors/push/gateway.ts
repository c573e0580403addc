import type { Config } from '../../config.ts';
import { postToWebhook } from '../../lib/webhook.ts';

/** What a push gateway carries: never the content (the device reads it with its proof). */
export type PushNotice = {
  transactionId: string;
  /** The device key's thumbprint. */
  deviceKey: string;
  /** The account's username, as the device lists it. */
  account: string;
  description: string;
};

export interface PushGateway {
  readonly kind: 'hub' | 'webhook';
  deliver(notice: PushNotice): Promise<void>;
}

/** Delivery failed (the webhook refused or did not answer): the send answers 5003 and the push is withdrawn. */
export class PushDeliveryError extends Error {
  override name = 'PushDeliveryError';
}

type Listener = () => void;

/**
 * The in-process channel to the device app's live streams, by device key. Only a hint that a
 * device's pushes changed: the truth is the push_transactions table, which the device then reads
 * (and re-reads on its own every 10 s, so a push sent by another instance still arrives).
 */
export class DeviceHub {
  private readonly listeners = new Map<string, Set<Listener>>();

  listen(key: string, listener: Listener): () => void {
    const set = this.listeners.get(key) ?? new Set<Listener>();
    this.listeners.set(key, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  notify(key: string): void {
    for (const listener of [...(this.listeners.get(key) ?? [])]) listener();
  }

  /** Open streams, oldest first: each one's end and its device key. */
  private readonly streams = new Map<() => void, string>();

  /**
   * Tracks an open stream of a device key and returns its untrack (true the first time), or null when
   * `max` streams are open in all: the new one is refused. A key at `perKey` open streams has its
   * oldest ended first (a device reconnecting after a dropped network is the live one; one key, or
   * one proof replayed within its window, holds at most `perKey` connections).
   */
  track(key: string, end: () => void, caps: { perKey: number; max: number }): (() => boolean) | null {
    const mine = [...this.streams].filter(([, k]) => k === key).map(([e]) => e);
    for (const oldest of mine.slice(0, Math.max(0, mine.length - caps.perKey + 1))) oldest();
    if (this.streams.size >= caps.max) return null;
    this.streams.set(end, key);
    return () => this.streams.delete(end);
  }

  /** Open streams (of one key, or in all). */
  streamCount(key?: string): number {
    if (key === undefined) return this.streams.size;
    let n = 0;
    for (const k of this.streams.values()) if (k === key) n++;
    return n;
  }

  /** Ends every open stream (server-sent events never end on their own: app.close() would wait). */
  closeAll(): void {
    for (const end of [...this.streams.keys()]) end();
  }

  /** Open listeners, for tests and shutdown. */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}

/** Development: the hub's streams are the delivery. */
export class HubPushGateway implements PushGateway {
  readonly kind = 'hub' as const;
  constructor(private readonly hub: DeviceHub) {}
  async deliver(notice: PushNotice): Promise<void> {
    this.hub.notify(notice.deviceKey);
  }
}

/**
 * Production: POST {transactionId, deviceKey, account, description} as JSON to PUSH_WEBHOOK_URL
 * (`Authorization: Bearer PUSH_WEBHOOK_TOKEN` when set); any 2xx is delivered. The bank's
 * notification service wakes the device, which then reads its pushes with its proof.
 */
export class WebhookPushGateway implements PushGateway {
  readonly kind = 'webhook' as const;
  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly timeoutMs: number,
    private readonly hub?: DeviceHub,
  ) {}
  async deliver(notice: PushNotice): Promise<void> {
    await postToWebhook(
      { url: this.url, token: this.token, timeoutMs: this.timeoutMs, name: 'the push webhook' },
      notice,
      PushDeliveryError,
    );
    // A device app open on this instance hears it at once too.
    this.hub?.notify(notice.deviceKey);
  }
}

/**
 * The webhook when configured; otherwise the hub outside production mode. Production mode without
 * PUSH_WEBHOOK_URL has no delivery: push is not offered (decision 022).
 */
export function createPushGateway(config: Config, hub: DeviceHub): PushGateway | undefined {
  const { webhook } = config.push;
  if (webhook) return new WebhookPushGateway(webhook.url, webhook.token, webhook.timeoutMs, hub);
  if (config.production) return undefined;
  return new HubPushGateway(hub);
}
