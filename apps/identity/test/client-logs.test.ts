import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { cleanClientText } from '../src/plugins/client-logs.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';

const url = api(paths.clientLogs);
const PASSWORD = 'Harbor7Lights';
type Line = { level: number; msg: string; requestId?: string; source?: string; clientTime?: string };
const clientLines = (logs: string[]) =>
  logs.map((l) => JSON.parse(l) as Line).filter((l) => l.source === 'client');

describe.each(targets)('client log collector ($name)', (target) => {
  const h = useHarness(target);

  test('204; each entry in the server log at its level, with the request id', async () => {
    const { app, logs } = await h.start({ LOG_LEVEL: 'debug' });
    const client = new Client(app);
    const r = await client.post(url, {
      logs: [
        { level: 'debug', message: 'login screen shown' },
        { level: 'info', message: 'saved usernames loaded', timestamp: '2026-11-22T10:00:00.000Z' },
        { level: 'warn', message: 'push poll retried' },
        { level: 'error', message: 'unmapped status 1499 from sessionLogin' },
      ],
    });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    const requestId = r.headers['x-request-id'];
    expect(requestId).toMatch(/^REQ[A-Za-z0-9]{32}$/);
    const lines = clientLines(logs);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, 'login screen shown'],
      [30, 'saved usernames loaded'],
      [40, 'push poll retried'],
      [50, 'unmapped status 1499 from sessionLogin'],
    ]);
    for (const line of lines) expect(line.requestId).toBe(requestId);
    expect(lines[1]!.clientTime).toBe('2026-11-22T10:00:00.000Z');
  });

  test('secrets written as prose: the username the server knows and a password-shaped word are removed', async () => {
    const { app, ctx, logs } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: 'Harbor7Lights' });
    // Before sign-in: the username saved on this device is known.
    const device = new Client(app);
    await device.signIn('alexdemo1', 'Harbor7Lights');
    const saved = await device.request({
      method: 'PUT',
      url: api(paths.rememberUsername),
      body: { username: 'alexdemo1', operation: 'ADD' },
    });
    expect(code(saved)).toBe(1200);
    await device.delete(api(paths.sessionLogout));
    const r = await device.post(url, {
      logs: [
        { level: 'error', message: 'login failed for alexdemo1 with Harbor7Lights' },
        { level: 'error', message: 'login failed for ALEXDEMO1 (Harbor7Lights)' },
        { level: 'info', message: 'unmapped status 1499 from sessionLogin; screen OtpCode' },
      ],
    });
    expect(r.statusCode).toBe(204);
    expect(clientLines(logs).map((l) => l.msg)).toEqual([
      'login failed for [redacted] with [redacted]',
      'login failed for [redacted] ([redacted])',
      'unmapped status 1499 from sessionLogin; screen OtpCode',
    ]);
    expect(logs.some((l) => l.includes('Harbor7Lights'))).toBe(false);
  });

  test('no cookie, password or code reaches the log; long messages are cut', async () => {
    const { app, ctx, logs } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.signIn('alexdemo1', PASSWORD);
    const et = client.cookies.get('ET')!;
    const xsrf = client.cookies.get('XSRF-TOKEN')!;
    const device = client.cookies.get('GH_DEVICE')!;
    const secrets = ['Hunter22secret', 'Sq9secretpass', 'pr1vateT0ken', '482913', '007311', 'abcDEF123xyz'];
    for (const s of secrets) rememberSecret(s);

    const messages = [
      `document.cookie was ET=${et}; XSRF-TOKEN=${xsrf}`,
      `raw device ${device} and token ${et}`,
      'Cookie: GH_DEVICE=abcDEF123xyz; SESSION_SCTX=PRIMESRVPORTAL',
      'form data username=alexdemo1&password=Hunter22secret&remember=true',
      'payload {"username":"alexdemo1","password":"Sq9secretpass"}',
      'accessToken: pr1vateT0ken',
      'security code 482913 rejected',
      'OTP=007311',
    ];
    const r = await client.post(url, { logs: messages.map((message) => ({ level: 'warn', message })) });
    expect(r.statusCode).toBe(204);

    const lines = clientLines(logs);
    expect(lines.length).toBe(messages.length);
    for (const secret of [...secrets, et, xsrf, device]) {
      expect(
        logs.find((l) => l.includes(secret)),
        `a log line contains ${secret}`,
      ).toBeUndefined();
    }
    expect(lines.map((l) => l.msg)).toEqual([
      'document.cookie was ET=[redacted]; XSRF-TOKEN=[redacted]',
      'raw device [redacted] and token [redacted]',
      'Cookie: [redacted]',
      // The session's own username is known to the server: it goes too.
      'form data username=[redacted]&password=[redacted]&remember=true',
      'payload {"username":"[redacted]","password":"[redacted]"}',
      'accessToken: [redacted]',
      'security code [redacted] rejected',
      'OTP=[redacted]',
    ]);

    // Control characters cannot forge lines; a long message is cut to 500 characters.
    const long = await client.post(url, {
      logs: [
        { level: 'info', message: `first\nsecond\r\u0000third` },
        { level: 'info', message: 'x'.repeat(2000) },
      ],
    });
    expect(long.statusCode).toBe(204);
    const [forged, cut] = clientLines(logs).slice(-2);
    expect(forged!.msg).toBe('first second third');
    expect(cut!.msg).toBe(`${'x'.repeat(500)}…`);
  });

  test('the request is checked: at most 50 entries, at least one, known levels; 400 envelope', async () => {
    const { app, logs } = await h.start();
    const client = new Client(app);
    const entry = { level: 'info', message: 'hello' };
    expect((await client.post(url, { logs: Array(50).fill(entry) })).statusCode).toBe(204);
    const cases: Array<[unknown, RegExp]> = [
      [{ logs: Array(51).fill(entry) }, /^The request is not valid: logs: /],
      [{ logs: [] }, /^The request is not valid: logs: /],
      [{ logs: [{ level: 'fatal', message: 'x' }] }, /^The request is not valid: logs\.0\.level: /],
      [
        { logs: [{ level: 'info', message: 'x'.repeat(2001) }] },
        /^The request is not valid: logs\.0\.message: /,
      ],
      [{}, /^The request is not valid: logs: is required$/],
    ];
    for (const [body, message] of cases) {
      const r = await client.post(url, body);
      expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toMatch(message);
    }
    expect(clientLines(logs).length).toBe(50);
  });

  test('a body over 16 KB: 400, even when BODY_LIMIT_BYTES allows more elsewhere', async () => {
    for (const env of [{}, { BODY_LIMIT_BYTES: '65536' }] as Array<Record<string, string>>) {
      const { app, logs } = await h.start(env);
      const client = new Client(app);
      const payload = JSON.stringify({
        logs: Array.from({ length: 10 }, () => ({ level: 'info', message: 'y'.repeat(1700) })),
      });
      expect(payload.length).toBeGreaterThan(16384);
      const r = await client.request({ method: 'POST', url, payload });
      expect(expectFailureEnvelope(r, 400, 4400).responseBaseInfo.status.message).toBe(
        'The request body is larger than 16384 bytes.',
      );
      expect(clientLines(logs)).toEqual([]);
    }
    // Other calls keep the service's limit: the same size is parsed there.
    const { app } = await h.start({ BODY_LIMIT_BYTES: '65536' });
    const other = await new Client(app).post(api(paths.passwordAuthentication), {
      username: 'alexdemo1',
      password: 'z'.repeat(129),
      pad: 'p'.repeat(17000),
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().responseBaseInfo.status.message).toBe(
      'The request is not valid: password: password is longer than 128 characters',
    );
  });

  test('per client: 429 with Retry-After past CLIENT_LOG_RATE_MAX a minute', async () => {
    const { app, logs } = await h.start({ CLIENT_LOG_RATE_MAX: '3' });
    const client = new Client(app, { remoteAddress: '198.51.100.4' });
    const body = { logs: [{ level: 'info', message: 'tick' }] };
    for (let i = 0; i < 3; i++) expect((await client.post(url, body)).statusCode).toBe(204);
    const limited = await client.post(url, body);
    const envelope = expectFailureEnvelope(limited, 429, 4429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(envelope.responseBaseInfo.status.message).toBe(
      `Too many attempts. Please wait ${retryAfter} seconds and try again.`,
    );
    expect(clientLines(logs).length).toBe(3);
    // Another client is not limited; after the minute this one is not either.
    expect((await new Client(app, { remoteAddress: '198.51.100.5' }).post(url, body)).statusCode).toBe(204);
    h.clock.advance(61_000);
    expect((await client.post(url, body)).statusCode).toBe(204);
  });

  test('needs the CSRF header like every state-changing call', async () => {
    const { app } = await h.start();
    const r = await new Client(app).request({
      method: 'POST',
      url,
      body: { logs: [{ level: 'info', message: 'x' }] },
      csrf: false,
    });
    expectFailureEnvelope(r, 403, 4403);
  });
});

describe('cleanClientText', () => {
  test('leaves ordinary text alone', () => {
    for (const text of [
      'Password field focused',
      'unmapped status 1499',
      'request REQabc took 12345 ms',
      'order 1234567 shipped',
    ]) {
      expect(cleanClientText(text)).toBe(text);
    }
  });
});
