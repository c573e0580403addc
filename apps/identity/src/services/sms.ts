import { limits } from '@gatehouse/contract';
import { type Language, languages } from '@gatehouse/i18n';
import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { serverText } from '../lib/language.ts';
import { postToWebhook } from '../lib/webhook.ts';

/** A text or a voice call carrying a one-time code: the full number (E.164), the words, the code. */
export type PhoneMessage = { channel: 'sms' | 'voice'; to: string; text: string; code?: string };

export interface PhoneSender {
  /** 'outbox' (development) or 'webhook' (production). */
  readonly kind: 'outbox' | 'webhook';
  send(message: PhoneMessage): Promise<void>;
}

/** Delivery failed (the webhook refused or did not answer): the send answers 503. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

/** The words a voice call reads, in the account's language: the code twice, digit by digit. */
export function voiceText(code: string, language: Language = 'en'): string {
  return serverText(language, 'voiceCode', [code.split('').join(', ')]);
}

/**
 * The short name a code text carries (SMS_SENDER_NAMES): the one a request's text names, in any
 * shipped language (the widget sends the template it shows, spec §2), the first without one;
 * null when the request's text is not the service's template with an allowed name. The caller
 * never writes what the bank's sender says.
 */
export function smsSender(names: readonly string[], requested: string | undefined): string | null {
  if (requested === undefined) return names[0] ?? null;
  return (
    names.find((name) => languages.some((l) => serverText(l, 'smsTemplate', [name]) === requested)) ?? null
  );
}

/** The text a code goes out in, in the account's language, with the sender's short name. */
export function smsCodeText(sender: string, code: string, language: Language = 'en'): string {
  return serverText(language, 'smsTemplate', [sender]).split(limits.smsCodePlaceholder).join(code);
}

/**
 * Development delivery: the message goes to the `outbox` table (channel 'sms' or 'voice', the
 * full number, the code in its own column) for GET /api/dev/outbox?to=. Never in production mode.
 */
export class OutboxPhoneSender implements PhoneSender {
  readonly kind = 'outbox' as const;
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
  ) {}
  async send(message: PhoneMessage): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({
        channel: message.channel,
        recipient: message.to,
        text: message.text,
        code: message.code ?? null,
        sent_at: this.clock.now(),
      })
      .execute();
  }
}

/**
 * Production delivery: POST {channel, to, text} as JSON to SMS_WEBHOOK_URL with
 * `Authorization: Bearer SMS_WEBHOOK_TOKEN`; any 2xx is delivered. The gateway (a carrier's API,
 * a bank's messaging service) does the rest. Nothing of the message is stored.
 */
export class WebhookPhoneSender implements PhoneSender {
  readonly kind = 'webhook' as const;
  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly timeoutMs = 10_000,
  ) {}
  async send(message: PhoneMessage): Promise<void> {
    await postToWebhook(
      { url: this.url, token: this.token, timeoutMs: this.timeoutMs, name: 'the text/voice webhook' },
      { channel: message.channel, to: message.to, text: message.text },
      DeliveryError,
    );
  }
}

/** The webhook when configured (required in production mode), otherwise the development outbox. */
export function createPhoneSender(config: Config, db: DB, clock: Clock): PhoneSender {
  if (config.smsWebhook) return new WebhookPhoneSender(config.smsWebhook.url, config.smsWebhook.token);
  if (config.production) throw new Error('SMS_WEBHOOK_URL is required in production mode');
  return new OutboxPhoneSender(db, clock);
}
