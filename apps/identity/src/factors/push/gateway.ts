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

  private readonly streams = new Set<() => void>();

  /** An open stream's end, called by closeAll (the app closing); returns the untrack. */
  track(end: () => void): () => boolean {
    this.streams.add(end);
    return () => this.streams.delete(end);
  }

  /** Ends every open stream (server-sent events never end on their own: app.close() would wait). */
  closeAll(): void {
    for (const end of [...this.streams]) end();
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
