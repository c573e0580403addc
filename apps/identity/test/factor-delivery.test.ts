import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { voiceText } from '../src/services/sms.ts';
import {
  atFactor,
  check,
  contacts,
  demoContacts,
  factorAccount,
  sendSms,
  sendVoice,
  TEMPLATE,
} from './support/factors.ts';
import {
  code,
  expectFailureEnvelope,
  productionMail,
  productionSecret,
  targets,
  useHarness,
} from './support/harness.ts';
import { useWebhookReceiver } from './support/webhook-receiver.ts';

/** A text/voice gateway on a free port: records each POST, answers `gateway.status`. */
const gateway = useWebhookReceiver<{ channel: string; to: string; text: string }>('/messages');

const TOKEN = 'gateway-token-0123456789';
const production = () => ({
  NODE_ENV: 'production',
  SESSION_SECRET: productionSecret,
  ...productionMail,
  SMS_WEBHOOK_URL: gateway.url,
  SMS_WEBHOOK_TOKEN: TOKEN,
});

describe('text and voice delivery settings', () => {
  const fails = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  test('production mode stops without SMS_WEBHOOK_URL or SMS_WEBHOOK_TOKEN, with one clear line', () => {
    const { SMS_WEBHOOK_URL: _u, SMS_WEBHOOK_TOKEN: _t, ...mailOnly } = productionMail;
    expect(fails({ NODE_ENV: 'production', SESSION_SECRET: productionSecret, ...mailOnly })).toMatch(
      /^Invalid setting SMS_WEBHOOK_URL: text and voice delivery is required in production mode/,
    );
    expect(
      fails({
        NODE_ENV: 'production',
        SESSION_SECRET: productionSecret,
        ...mailOnly,
        SMS_WEBHOOK_URL: 'https://sms.bank.example/send',
      }),
    ).toMatch(/^Invalid setting SMS_WEBHOOK_TOKEN: is required in production mode/);
    const bad = fails({ SMS_WEBHOOK_URL: 'ftp://user:hunter22@gateway' });
    expect(bad).toBe('Invalid setting SMS_WEBHOOK_URL: must start with http:// or https://');
    expect(fails({ SMS_WEBHOOK_TOKEN: 'short-one' })).toBe(
      'Invalid setting SMS_WEBHOOK_TOKEN: must be at least 16 characters',
    );
  });

  test('defaults: 5 wrong tries, 5 sends, 30 minutes lockout, 2 days wait, 30 days trust, no outage', () => {
    const config = loadConfig({});
    expect(config.factor).toEqual({
      maxWrongTries: 5,
      maxSends: 5,
      lockoutMs: 30 * 60_000,
      contactWaitMs: 2 * 24 * 3_600_000,
      trustDeviceMs: 30 * 24 * 3_600_000,
      smsOutage: false,
      smsSenderNames: ['PrimeSrv', 'Gatehouse'],
    });
    expect(config.smsWebhook).toBeUndefined();
    expect(loadConfig({ SMS_OUTAGE: 'true', TRUST_DEVICE_DAYS: '0' }).factor).toMatchObject({
      smsOutage: true,
      trustDeviceMs: 0,
    });
  });
});

describe.each(targets)('text and voice webhook ($name)', (target) => {
  const h = useHarness(target);

  test('production mode: text and voice POST {channel, to, text} with the bearer token; nothing goes to the outbox', async () => {
    const { app, ctx, logs } = await h.start(production());
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    expect(gateway.received).toHaveLength(1);
    const [sms] = gateway.received;
    expect(sms!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sms!.headers['content-type']).toBe('application/json');
    expect(Object.keys(sms!.body).sort()).toEqual(['channel', 'text', 'to']);
    expect(sms!.body.channel).toBe('sms');
    expect(sms!.body.to).toBe('+12025550143');
    const smsCode = /is: (\d{6}) DO NOT/.exec(sms!.body.text)![1]!;
    expect(sms!.body.text).toBe(TEMPLATE.replace('$$CODE$$', smsCode));

    expect(code(await sendVoice(client, phone.value))).toBe(1200);
    const voice = gateway.received[1]!;
    expect(voice.body.channel).toBe('voice');
    expect(voice.body.to).toBe('+12025550143');
    const voiceCode = /code is ([\d, ]+)\./.exec(voice.body.text)![1]!.replace(/\D/g, '');
    expect(voice.body.text).toBe(voiceText(voiceCode));

    expect(await ctx.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
    expect(code(await check(client, 'voice', voiceCode))).toBe(1200);
    expect(logs.some((l) => l.includes(TOKEN) || l.includes(voice.body.text))).toBe(false);
  });

  test('the gateway refuses: 503, and the code that did not arrive is withdrawn', async () => {
    const { app, ctx } = await h.start(production());
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const client = await atFactor(app, 'allfactor1');
    const phone = (await contacts(client)).phone[0]!;
    gateway.status = 500;
    const body = expectFailureEnvelope(await sendSms(client, phone.value), 503, 5003);
    expect(body.errorType).toBe('SYSTEM_ERROR');
    const rows = await ctx.db.selectFrom('otp_codes').select('revoked_at').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.revoked_at).not.toBeNull();
    gateway.status = 202;
    h.clock.advance(1000);
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    // The trail: a code issued with its count, its delivery failed (the same moment: issued first
    // by name), and the one that arrived.
    const trail = await ctx.db
      .selectFrom('audit_events')
      .select(['event', 'outcome', 'detail'])
      .where('event', 'like', 'code-%')
      .orderBy('at')
      .orderBy('event', 'desc')
      .execute();
    expect(trail.map((e) => [e.event, e.outcome, e.detail])).toEqual([
      ['code-issued', 'success', { factor: 'OTP-SMS', to: expect.stringContaining('0143'), sends: 1 }],
      ['code-delivery-failed', 'failure', { factor: 'OTP-SMS', to: expect.stringContaining('0143') }],
      ['code-issued', 'success', { factor: 'OTP-SMS', to: expect.stringContaining('0143'), sends: 2 }],
    ]);
  });
});
