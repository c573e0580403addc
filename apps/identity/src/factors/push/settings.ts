import { z } from 'zod';
import { bool, defineSettings, int, secureUrl } from '../settings-kit.ts';

/** Push approval and the device app (decision 022). */
export const settings = defineSettings({
  title: 'Push approval and the device app',
  schema: z.object({
    PUSH_EXPIRY_SECONDS: int(10, 3600)
      .default(120)
      .describe(
        "How long a push can be answered; past it the widget's poll reads `EXPIRED_PENDING` and an answer is 1410. 10-3600.",
      ),
    PUSH_NUMBER_MATCHING: bool
      .default(true)
      .describe(
        'Number matching (decision 032): push/authentication answers a 2-digit `number` (10-99, from the CSPRNG, kept with the push) that the widget shows; the customer types it on the device, which is never told it. An approval with another number, or none, ends the push (`COMPLETED_FAILURE`, a `push-wrong-number` audit row). `false`: no number, approve-only push as the widget spec describes (NIST SP 800-63B rev. 4 asks for number matching or a like binding of the two channels).',
      ),
    PUSH_FRAUD_LOCKS_ACCOUNT: bool
      .default(true)
      .describe(
        'A push the device reports as fraud locks the account (status `locked`, its sessions and journeys end) until the customer completes recovery and sets a new password. `false`: only the journey ends.',
      ),
    PUSH_STATUS_MAX: int(1, 10000)
      .default(60)
      .describe(
        'Status polls per login journey or session in `PUSH_STATUS_WINDOW_SECONDS` (the widget polls every 3 s: 20 a minute); past it 429 (4429). Counted per instance, in memory (decision 022). 1-10000.',
      ),
    PUSH_STATUS_WINDOW_SECONDS: int(1, 3600).default(60).describe('The window of `PUSH_STATUS_MAX`. 1-3600.'),
    PUSH_ACCOUNT_MAX: int(1, 10000)
      .default(10)
      .describe(
        'Pushes sent to one account in `PUSH_ACCOUNT_WINDOW_MINUTES`, across all its journeys (push fatigue: someone with the password starting journey after journey); past it a send answers 1491 and writes a `push-limited` audit row. A withdrawn (undelivered) push does not count. 1-10000.',
      ),
    PUSH_ACCOUNT_WINDOW_MINUTES: int(1, 24 * 60)
      .default(60)
      .describe("The window of `PUSH_ACCOUNT_MAX` (a sliding window over the pushes' send times). 1-1440."),
    PUSH_WEBHOOK_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must start with http:// or https://')
      .optional()
      .describe(
        '`http://` or `https://` endpoint of the bank\'s notification service. Each push is one `POST` with JSON `{ "transactionId", "deviceKey" (the device key\'s thumbprint), "account" (the username), "description" }`; any 2xx is delivered; the content stays on the server (the device reads it with its proof). Unset: outside production mode the device app\'s live stream carries the push; **in production mode push is then not offered**. Production mode refuses `http://` unless it is this machine\'s loopback.',
      ),
    PUSH_WEBHOOK_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe('Sent as `Authorization: Bearer …` to the push webhook. At least 16 characters.'),
    PUSH_WEBHOOK_TIMEOUT_MS: int(100, 60_000)
      .default(5000)
      .describe(
        'How long the push webhook is given. A refusal (non-2xx), a redirect or no answer makes the send answer 503 (5003) and withdraws the push (it does not count towards the 3 sends). 100-60000.',
      ),
    DEVICE_PROOF_WINDOW_SECONDS: int(5, 600)
      .default(60)
      .describe("How far the time of a device proof may be from the server's clock (either way). 5-600."),
    DEVICE_CLIENT_MAX: int(1, 100_000)
      .default(300)
      .describe(
        'Device calls (`/api/device/*` and the development claim) per client address (an IPv6 address counts its /64) in `DEVICE_CLIENT_WINDOW_SECONDS`, counted before the proof is looked up or verified; past it 429 (4429) with `Retry-After`. A device app makes about 7 a minute; the default leaves room for many devices behind one carrier NAT. 1-100000.',
      ),
    DEVICE_CLIENT_WINDOW_SECONDS: int(1, 3600)
      .default(60)
      .describe('The window of `DEVICE_CLIENT_MAX`. 1-3600.'),
    DEVICE_STREAMS_PER_KEY: int(1, 100)
      .default(3)
      .describe(
        "Open device streams (`/api/device/stream`) per device key on one instance; a new one closes that key's oldest. 1-100.",
      ),
    DEVICE_STREAMS_MAX: int(1, 1_000_000)
      .default(2000)
      .describe(
        'Open device streams on one instance in all; past it a new stream answers 503 (5003) with `Retry-After: 30` (the device app still re-reads its pushes every 10 s). 1-1000000.',
      ),
  }),
  read: (v) => ({
    expiryMs: v.PUSH_EXPIRY_SECONDS * 1000,
    numberMatching: v.PUSH_NUMBER_MATCHING,
    fraudLocksAccount: v.PUSH_FRAUD_LOCKS_ACCOUNT,
    /** Status polls per push journey (the widget polls every 3 s). */
    status: { max: v.PUSH_STATUS_MAX, windowMs: v.PUSH_STATUS_WINDOW_SECONDS * 1000 },
    /** Pushes sent to one account across all its journeys (push-fatigue attacks). */
    account: { max: v.PUSH_ACCOUNT_MAX, windowMs: v.PUSH_ACCOUNT_WINDOW_MINUTES * 60_000 },
    /** Production delivery: POST {transactionId, deviceKey, account, description}; undefined: the in-process hub. */
    webhook: v.PUSH_WEBHOOK_URL
      ? { url: v.PUSH_WEBHOOK_URL, token: v.PUSH_WEBHOOK_TOKEN, timeoutMs: v.PUSH_WEBHOOK_TIMEOUT_MS }
      : undefined,
    /** How far a device proof's time may be from the server's clock. */
    proofWindowMs: v.DEVICE_PROOF_WINDOW_SECONDS * 1000,
    /** Device calls per client address (each costs a lookup and a signature check). */
    deviceClient: { max: v.DEVICE_CLIENT_MAX, windowMs: v.DEVICE_CLIENT_WINDOW_SECONDS * 1000 },
    /** Open device streams: per device key (the oldest is closed) and in all (a new one is refused). */
    streams: { perKey: v.DEVICE_STREAMS_PER_KEY, max: v.DEVICE_STREAMS_MAX },
  }),
  productionChecks: (v, stop) => {
    if (v.PUSH_WEBHOOK_URL && !secureUrl(v.PUSH_WEBHOOK_URL)) {
      stop('PUSH_WEBHOOK_URL', 'must be an https:// URL in production mode (http:// only to this machine)');
    }
  },
});

export type PushSettings = ReturnType<typeof settings.read>;
