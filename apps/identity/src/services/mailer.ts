import { appDefaults, format } from '@gatehouse/contract';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config, SmtpSettings } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

/** A one-time code message: the full address it goes to, the code, and when it expires. */
export type CodeMail = { to: string; code: string; expiryMinutes: number };

export interface Mailer {
  /** 'outbox' (development) or 'smtp' (production). */
  readonly kind: 'outbox' | 'smtp';
  sendCode(mail: CodeMail): Promise<void>;
  close(): Promise<void>;
}

/** The texts of the one-time code e-mail; {0} code, {1} minutes, {2} product. */
export const codeMailTexts = {
  subject: '{2}: your one-time code',
  body: [
    'Your {2} one-time code is {0}.',
    '',
    'It expires in {1} minutes. Enter it online to continue; do not share it with anyone.',
    'If you did not ask for this code, contact login support.',
    '',
    'Gatehouse sign-in',
  ].join('\n'),
} as const;

export function codeMail(mail: CodeMail): { subject: string; text: string } {
  const product = appDefaults.portalAppName;
  return {
    subject: format(codeMailTexts.subject, mail.code, mail.expiryMinutes, product),
    text: format(codeMailTexts.body, mail.code, mail.expiryMinutes, product),
  };
}

/**
 * Development delivery: every message goes to the `outbox` table, the code in its own column,
 * so GET /api/dev/outbox?to= and the outbox page show it. Never used in production mode.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
  ) {}
  async sendCode(mail: CodeMail): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({
        channel: 'email',
        recipient: mail.to,
        text: codeMail(mail).text,
        code: mail.code,
        sent_at: this.clock.now(),
      })
      .execute();
  }
  async close(): Promise<void> {}
}

/** Production delivery over SMTP (nodemailer). The code is in the message only; nothing is stored. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;
  constructor(
    settings: SmtpSettings,
    private readonly from: string,
  ) {
    this.transport =
      'url' in settings
        ? nodemailer.createTransport(settings.url)
        : nodemailer.createTransport({
            host: settings.host,
            port: settings.port,
            secure: settings.secure,
            ...(settings.user ? { auth: { user: settings.user, pass: settings.pass ?? '' } } : {}),
          });
  }
  async sendCode(mail: CodeMail): Promise<void> {
    const { subject, text } = codeMail(mail);
    await this.transport.sendMail({ from: this.from, to: mail.to, subject, text });
  }
  async close(): Promise<void> {
    this.transport.close();
  }
}

/** SMTP when configured (required in production mode), otherwise the development outbox. */
export function createMailer(config: Config, db: DB, clock: Clock): Mailer {
  if (config.smtp) return new SmtpMailer(config.smtp, config.mailFrom);
  if (config.production) throw new Error('SMTP settings are required in production mode');
  return new OutboxMailer(db, clock);
}
