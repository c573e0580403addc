import { appDefaults, format, securityNoticeMessages } from '@gatehouse/contract';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config, SmtpSettings } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

/** A one-time code message: the full address it goes to, the code, and when it expires. */
export type CodeMail = { to: string; code: string; expiryMinutes: number };

/** A security notice to the account's owner: what changed, never a secret. */
export type NoticeKind = keyof typeof noticeMailTexts | 'security-change';
/**
 * `change`, `at` and `supportPhone` fill the security page's notice ('security-change': one of
 * securityNoticeMessages.changes, when, and whom to call); the other notices have fixed texts.
 */
export type NoticeMail = {
  to: string;
  notice: NoticeKind;
  change?: string;
  at?: Date;
  supportPhone?: string;
};

export interface Mailer {
  /** 'outbox' (development) or 'smtp' (production). */
  readonly kind: 'outbox' | 'smtp';
  sendCode(mail: CodeMail): Promise<void>;
  sendNotice(mail: NoticeMail): Promise<void>;
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

const noticeFooter = [
  '',
  'If this was not you, call us at once: a representative can secure your account.',
  '',
  'Gatehouse sign-in',
].join('\n');

/**
 * The security notices, one per event; {0} product. They say what happened and what to do, and
 * carry no code, link or password.
 */
export const noticeMailTexts = {
  'recovery-locked': {
    subject: '{0}: account recovery paused',
    body: `Someone asked for too many one-time codes to recover your {0} account, or entered too many wrong ones. Recovery by e-mail is paused for a while; you can still sign in with your password.${noticeFooter}`,
  },
  'password-changed': {
    subject: '{0}: your password was changed',
    body: `The password of your {0} account was changed. Devices you had trusted will ask for a second factor again, and other sign-ins were ended.${noticeFooter}`,
  },
  'username-changed': {
    subject: '{0}: your username was changed',
    body: `The username of your {0} account was changed. Devices you had trusted will ask for a second factor again, and other sign-ins were ended.${noticeFooter}`,
  },
  'account-recovered': {
    subject: '{0}: your account was recovered',
    body: `A one-time code sent to this address was used to recover your {0} account. Devices you had trusted will ask for a second factor again, and other sign-ins were ended.${noticeFooter}`,
  },
  // A representative's action in the console (docs/decisions/028-representative-console.md).
  'console-unlock': {
    subject: '{0}: your account was unlocked',
    body: `A representative unlocked your {0} account after too many failed passwords. You can sign in again.${noticeFooter}`,
  },
  'console-unblock': {
    subject: '{0}: the block on your account was lifted',
    body: `A representative lifted the security block on your {0} account. You can sign in again.${noticeFooter}`,
  },
  'console-unlock-recovery': {
    subject: '{0}: account recovery is open again',
    body: `A representative opened account recovery by e-mail for your {0} account again.${noticeFooter}`,
  },
  'console-require-password-reset': {
    subject: '{0}: choose a new password at your next sign-in',
    body: `A representative asked that your {0} account gets a new password: you will choose one at your next sign-in. Other sign-ins were ended.${noticeFooter}`,
  },
} as const;

export function noticeMail(mail: NoticeMail): { subject: string; text: string } {
  const product = appDefaults.portalAppName;
  if (mail.notice === 'security-change') {
    const when = (mail.at ?? new Date())
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
    return {
      subject: `${product}: ${securityNoticeMessages.subject}`,
      text: [
        format(securityNoticeMessages.body, mail.change ?? '', when),
        '',
        format(securityNoticeMessages.notYou, mail.supportPhone ?? ''),
        '',
        'Gatehouse sign-in',
      ].join('\n'),
    };
  }
  const texts = noticeMailTexts[mail.notice];
  return { subject: format(texts.subject, product), text: format(texts.body, product) };
}

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
  sendCode(mail: CodeMail): Promise<void> {
    return this.store(mail.to, codeMail(mail).text, mail.code);
  }
  sendNotice(mail: NoticeMail): Promise<void> {
    return this.store(mail.to, noticeMail(mail).text, null);
  }
  private async store(recipient: string, text: string, code: string | null): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({ channel: 'email', recipient, text, code, sent_at: this.clock.now() })
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
  sendCode(mail: CodeMail): Promise<void> {
    return this.send(mail.to, codeMail(mail));
  }
  sendNotice(mail: NoticeMail): Promise<void> {
    return this.send(mail.to, noticeMail(mail));
  }
  private async send(to: string, message: { subject: string; text: string }): Promise<void> {
    await this.transport.sendMail({ from: this.from, to, ...message });
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
