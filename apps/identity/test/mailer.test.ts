import type { AddressInfo } from 'node:net';
import { paths } from '@gatehouse/contract';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { codeMail, SmtpMailer } from '../src/services/mailer.ts';
import {
  api,
  Client,
  code,
  createAccount,
  json,
  productionSecret,
  productionSms,
  targets,
  useHarness,
} from './support/harness.ts';
import { checkCode, identify, maskedEmail, sendCode } from './support/recovery.ts';

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP peer on a free port: every message it accepts, raw, in order. */
class TestSmtp {
  readonly received: Received[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') callback(null, { user: 'mailer' });
      else callback(new Error('Invalid username or password'));
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  port = 0;
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The text of a message: quoted-printable soft breaks and escapes undone. */
const text = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

const smtp = new TestSmtp();
beforeAll(() => smtp.start());
afterAll(() => smtp.stop());
beforeEach(() => {
  smtp.received.length = 0;
});

describe('the code e-mail', () => {
  test('names the product, the code and the 30-minute expiry', () => {
    const mail = codeMail({ to: 'a@example.com', code: '042917', expiryMinutes: 30 });
    expect(mail.subject).toBe('Prime Portal: your one-time code');
    expect(mail.text).toContain('Your Prime Portal one-time code is 042917.');
    expect(mail.text).toContain('It expires in 30 minutes.');
    expect(mail.text).toContain('Gatehouse');
  });

  test('SmtpMailer delivers to a real SMTP server, with SMTP_HOST settings and authentication', async () => {
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port: smtp.port, secure: false, user: 'mailer', pass: 'mail-secret' },
      'Prime Portal <no-reply@bank.example>',
    );
    await mailer.sendCode({ to: 'alexdemo1@example.com', code: '042917', expiryMinutes: 30 });
    await mailer.close();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.from).toBe('no-reply@bank.example');
    expect(mail!.to).toEqual(['alexdemo1@example.com']);
    expect(text(mail!.raw)).toContain('Your Prime Portal one-time code is 042917.');
    expect(mail!.raw).toMatch(/^Subject: Prime Portal: your one-time code$/m);
  });

  test('a wrong SMTP password fails the send (it is not silently dropped)', async () => {
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port: smtp.port, secure: false, user: 'mailer', pass: 'wrong' },
      'no-reply@bank.example',
    );
    await expect(
      mailer.sendCode({ to: 'a@example.com', code: '111111', expiryMinutes: 30 }),
    ).rejects.toThrow();
    await mailer.close();
    expect(smtp.received).toHaveLength(0);
  });
});

describe('mail settings', () => {
  const fails = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  test('production mode stops without SMTP or MAIL_FROM, with one clear line', () => {
    expect(fails({ NODE_ENV: 'production', SESSION_SECRET: productionSecret })).toBe(
      'Invalid setting SMTP_URL: e-mail delivery is required in production mode (set SMTP_URL, or SMTP_HOST with SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS)',
    );
    expect(
      fails({ NODE_ENV: 'production', SESSION_SECRET: productionSecret, SMTP_HOST: 'smtp.bank.example' }),
    ).toMatch(/^Invalid setting MAIL_FROM: is required in production mode/);
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      SMTP_HOST: 'smtp.bank.example',
      SMTP_SECURE: 'true',
      SMTP_USER: 'mailer',
      SMTP_PASS: 'mail-secret',
      MAIL_FROM: 'no-reply@bank.example',
      ...productionSms,
    });
    expect(config.smtp).toEqual({
      host: 'smtp.bank.example',
      port: 465,
      secure: true,
      user: 'mailer',
      pass: 'mail-secret',
    });
  });

  test('bad values name themselves and do not echo secrets', () => {
    const bad = fails({ SMTP_URL: 'http://user:hunter22@mail' });
    expect(bad).toMatch(/^Invalid setting SMTP_URL: must start with smtp:\/\/ or smtps:\/\//);
    expect(bad).not.toContain('hunter22');
    expect(fails({ SUPPORT_EMAIL: 'nobody' })).toMatch(/^Invalid setting SUPPORT_EMAIL/);
    expect(fails({ OTP_PEPPER: 'short' })).toMatch(/^Invalid setting OTP_PEPPER: must be at least 32/);
    expect(fails({ OTP_MAX_WRONG_TRIES: '0' })).toMatch(/^Invalid setting OTP_MAX_WRONG_TRIES/);
  });

  test('defaults: 30-minute codes, 5 wrong tries, block at the 4th send, the portal support address', () => {
    const config = loadConfig({});
    expect(config.otp).toMatchObject({ expiryMs: 30 * 60_000, maxWrongTries: 5, sendsBeforeBlock: 3 });
    expect(config.otp.pepper.length).toBeGreaterThanOrEqual(32);
    expect(config.supportEmail).toBe('loginsupport@primeservices.example');
    expect(config.smtp).toBeUndefined();
  });
});

describe.each(targets)('delivery in the recovery flow ($name)', (target) => {
  const h = useHarness(target);
  const PASSWORD = 'Harbor7Lights';

  test('production mode: the code arrives over SMTP, and nothing of it is stored', async () => {
    const { app, ctx } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Prime Portal <no-reply@bank.example>',
      ...productionSms,
    });
    expect(ctx.mailer.kind).toBe('smtp');
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    expect(code(await identify(client, 'alexdemo1'))).toBe(1200);
    expect(code(await sendCode(client, await maskedEmail(client)))).toBe(1200);

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['alexdemo1@example.com']);
    const found = /one-time code is (\d{6})\./.exec(text(mail.raw));
    expect(found).not.toBeNull();
    const sentCode = found![1]!;
    expect(text(mail.raw)).toContain('30 minutes');

    expect(await ctx.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
    const [stored] = await ctx.db.selectFrom('otp_codes').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(sentCode);
    // No development outbox in production mode.
    expect((await client.get(`${api(paths.devOutbox)}?to=alexdemo1@example.com`)).statusCode).toBe(404);

    expect(json(await checkCode(client, sentCode)).responseBaseInfo.status.code).toBe(1200);
  });

  test('development mode: the outbox receives the message, the code in its own column, and no SMTP is used', async () => {
    const { app, ctx } = await h.start({ NODE_ENV: 'development' });
    expect(ctx.mailer.kind).toBe('outbox');
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await identify(client, 'alexdemo1');
    expect(code(await sendCode(client, await maskedEmail(client)))).toBe(1200);
    const outbox = await client.get(`${api(paths.devOutbox)}?to=alexdemo1@example.com`);
    const [message] = outbox.json().messages;
    expect(message).toMatchObject({ channel: 'email', to: 'alexdemo1@example.com' });
    expect(message.code).toMatch(/^\d{6}$/);
    expect(message.text).toContain(`one-time code is ${message.code}.`);
    expect(smtp.received).toHaveLength(0);
  });
});
