import { appDefaults, type SecurityChange } from '@gatehouse/contract';
import type { Language } from '@gatehouse/i18n';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config, SmtpSettings } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { type ServiceTextKey, serverText } from '../lib/language.ts';

/**
 * A one-time code message: the full address it goes to, the code, when it expires, and the
 * account's language (English when not given).
 */
export type CodeMail = {
  to: string;
  code: string;
  expiryMinutes: number;
  language?: Language;
  /** The deployment's name (PRODUCT_NAME); the mailer fills it in from its settings. */
  product?: string;
};

/** A security notice to the account's owner: what changed, never a secret. */
export type NoticeKind = keyof typeof noticeTexts | 'security-change';
/**
 * `change`, `at` and `supportPhone` fill the security page's notice ('security-change': which
 * change, when, and whom to call); the other notices have fixed texts. In the account's language.
 */
export type NoticeMail = {
  to: string;
  notice: NoticeKind;
  change?: SecurityChange;
  at?: Date;
  supportPhone?: string;
  language?: Language;
  /** The deployment's name (PRODUCT_NAME); the mailer fills it in from its settings. */
  product?: string;
};

export interface Mailer {
  /** 'outbox' (development) or 'smtp' (production). */
  readonly kind: 'outbox' | 'smtp';
  sendCode(mail: CodeMail): Promise<void>;
  sendNotice(mail: NoticeMail): Promise<void>;
  close(): Promise<void>;
}

/** The catalog keys of each notice's subject and body; {0} the product. */
const noticeTexts = {
  'recovery-locked': ['recoveryLockedSubject', 'recoveryLockedBody'],
  'password-changed': ['passwordChangedSubject', 'passwordChangedBody'],
  'username-changed': ['usernameChangedSubject', 'usernameChangedBody'],
  'account-recovered': ['accountRecoveredSubject', 'accountRecoveredBody'],
  // A representative's action in the console (docs/decisions/028-representative-console.md).
  'console-unlock': ['consoleUnlockSubject', 'consoleUnlockBody'],
  'console-unblock': ['consoleUnblockSubject', 'consoleUnblockBody'],
  'console-unlock-recovery': ['consoleUnlockRecoverySubject', 'consoleUnlockRecoveryBody'],
  'console-unblock-factors': ['consoleUnblockFactorsSubject', 'consoleUnblockFactorsBody'],
  // A factor held after repeated blocks of wrong codes (docs/decisions/033-abuse-limits.md).
  'factor-held': ['factorHeldSubject', 'factorHeldBody'],
  'console-require-password-reset': ['consoleRequirePasswordResetSubject', 'consoleRequirePasswordResetBody'],
  // The credential lifecycle (decision 030): {1} the support number; each says how to undo it.
  'device-registered': ['deviceRegisteredSubject', 'deviceRegisteredBody'],
  'device-removed': ['deviceRemovedSubject', 'deviceRemovedBody'],
  'factor-blocked': ['factorBlockedSubject', 'factorBlockedBody'],
  'fraud-reported': ['fraudReportedSubject', 'fraudReportedBody'],
  // A recovery code went to one established contact: every other one hears of it (decision 043).
  'recovery-code-sent': ['recoveryCodeSentSubject', 'recoveryCodeSentBody'],
} as const satisfies Record<string, readonly [ServiceTextKey, ServiceTextKey]>;

const undoneInBody: ReadonlySet<NoticeKind> = new Set<NoticeKind>([
  'device-registered',
  'device-removed',
  'factor-blocked',
  'fraud-reported',
  'recovery-code-sent',
]);

/** When a change was made, as the account's language writes a date and time (UTC). */
export function noticeTime(at: Date, language: Language): string {
  return new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(at);
}

/**
 * A security notice in the account's language (the service's catalog, group `mail`): what
 * happened and what to do, never a code, a link or a password.
 */
export function noticeMail(mail: NoticeMail): { subject: string; text: string } {
  const product = mail.product ?? appDefaults.portalAppName;
  const language = mail.language ?? 'en';
  const t = (key: ServiceTextKey, ...params: Array<string | number>) => serverText(language, key, params);
  if (mail.notice === 'security-change') {
    const change = mail.change ? t(`change.${mail.change}`) : '';
    return {
      subject: t('securityChangeSubject', product),
      text: [
        t('securityChangeBody', change, noticeTime(mail.at ?? new Date(), language)),
        '',
        t('securityChangeNotYou', mail.supportPhone ?? ''),
        '',
        t('mailSignature'),
      ].join('\n'),
    };
  }
  const [subject, body] = noticeTexts[mail.notice];
  const support = mail.supportPhone ?? '';
  // The lifecycle's notices say how to undo the change themselves (recovery or the support number).
  const notYou = undoneInBody.has(mail.notice) ? [] : [t('mailNotYou'), ''];
  return {
    subject: t(subject, product, support),
    text: [t(body, product, support), '', ...notYou, t('mailSignature')].join('\n'),
  };
}

/**
 * A security notice as a text message to an established phone (decision 030): what changed and
 * what to do if it wasn't the customer, in one short line of the account's language.
 */
export function noticeText(mail: NoticeMail): string {
  const language = mail.language ?? 'en';
  const product = mail.product ?? appDefaults.portalAppName;
  const t = (key: ServiceTextKey, ...params: Array<string | number>) => serverText(language, key, params);
  const what =
    mail.notice === 'security-change'
      ? `${t('securityChangeSubject', product)}: ${mail.change ? t(`change.${mail.change}`) : ''}`
      : t(noticeTexts[mail.notice][0], product);
  return `${what}. ${t('noticeNotYou', mail.supportPhone ?? '')}`;
}

/** The one-time code e-mail in the account's language. */
export function codeMail(mail: CodeMail): { subject: string; text: string } {
  const product = mail.product ?? appDefaults.portalAppName;
  const language = mail.language ?? 'en';
  const params = [mail.code, mail.expiryMinutes, product];
  return {
    subject: serverText(language, 'codeSubject', params),
    text: `${serverText(language, 'codeBody', params)}\n\n${serverText(language, 'mailSignature')}`,
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
    private readonly product: string = appDefaults.portalAppName,
  ) {}
  sendCode(mail: CodeMail): Promise<void> {
    return this.store(mail.to, codeMail({ product: this.product, ...mail }).text, mail.code);
  }
  sendNotice(mail: NoticeMail): Promise<void> {
    return this.store(mail.to, noticeMail({ product: this.product, ...mail }).text, null);
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
    private readonly product: string = appDefaults.portalAppName,
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
    return this.send(mail.to, codeMail({ product: this.product, ...mail }));
  }
  sendNotice(mail: NoticeMail): Promise<void> {
    return this.send(mail.to, noticeMail({ product: this.product, ...mail }));
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
  if (config.smtp) return new SmtpMailer(config.smtp, config.mailFrom, config.productName);
  if (config.production) throw new Error('SMTP settings are required in production mode');
  return new OutboxMailer(db, clock, config.productName);
}
