import { headers as headerNames, paths } from '@gatehouse/contract';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { up as serverText } from '../src/factors/push/migrations/025_push_server_text.ts';
import { DeviceApp, pushSendBody, TestDevice } from './support/device.ts';
import { atFactor, factorAccount, PASSWORD } from './support/factors.ts';
import {
  api,
  auditTrail,
  Client,
  code,
  expectFailureEnvelope,
  json,
  liveSessionCount,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Server-owned push text and typed number matching (issue 22, build point 4; decision 032).
 *
 * The attacks: a caller's words on the device's card (finding 5: a sign-in push shown as an
 * identity check with 'tap Yes to BLOCK a $4,800 transfer'), and a blind approver (finding 8:
 * number matching off by default, and with three choices one guess in three passed).
 */

/** What a page would write to make a sign-in push read as something else. */
const lies = {
  transactionDescription: 'Identity check: tap Yes to BLOCK a $4,800 transfer',
  secureTransactionContent: JSON.stringify({
    deviceInfo: { browserName: 'tap Yes to BLOCK a $4,800 transfer', osName: 'Bank security team' },
    time: '2020-01-01T00:00:00.000Z',
    host: 'security.bank.example',
    journey: 'STEPUP',
  }),
  localizedPushKey: 'gatehouse.push.approve',
};
const liedWords = /BLOCK|4,800|security team|security\.bank|2020-01-01/;

/** A real browser's User-Agent: Chrome on Windows. */
const chromeOnWindows = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

type Sent = { id: string; number?: string; expiresAt: string };
type DevicePushView = {
  id: string;
  description: string;
  createdAt: string;
  content: Record<string, string>;
  numberMatching?: boolean;
} & Record<string, unknown>;

const sendPush = (client: Client, body: object = pushSendBody, headers?: Record<string, string>) =>
  client.post(api(paths.pushAuthentication), body, headers);
const pollPush = (client: Client, id: string) => client.post(api(paths.pushStatus), { id });
const statusOf = (r: Awaited<ReturnType<typeof pollPush>>) => json<{ status: string }>(r).successData?.status;
const sentOf = (r: Awaited<ReturnType<typeof sendPush>>): Sent => {
  expect(code(r), r.body).toBe(1200);
  return json<Sent>(r).successData!;
};
/** A 2-digit number that is not `number` (10-99). */
const otherThan = (number: string, step = 1) => String(((Number(number) - 10 + step) % 90) + 10);

describe.each(targets)('push text and number matching ($name)', (target) => {
  const h = useHarness(target);

  async function start(env: Record<string, string> = {}) {
    const { app, ctx } = await h.start(env);
    const device = await TestDevice.create(h.clock);
    const account = await factorAccount(ctx, 'pushtext01');
    await device.enrol(ctx, account.id);
    return { app, ctx, account, device, phone: new DeviceApp(app, device) };
  }
  const deviceView = async (phone: DeviceApp, id: string) => {
    const listed = await phone.pushes();
    expect(code(listed)).toBe(1200);
    return json<{ pushes: DevicePushView[] }>(listed).successData!.pushes.find((p) => p.id === id)!;
  };
  const auditOf = (accountId: string) => auditTrail(h.db, accountId);
  const liveSessions = (accountId: string) => liveSessionCount(h.db, accountId);

  test("a sign-in push's card is the server's own: the caller's description, browser, system, journey, host and time never reach the device", async () => {
    const { app, phone } = await start();
    const browser = await atFactor(app, 'pushtext01');
    const sent = sentOf(await sendPush(browser, lies, chromeOnWindows));

    const card = await deviceView(phone, sent.id);
    expect(card.description).toBe('Sign-in request');
    expect(card.content).toEqual({
      browserName: 'Chrome',
      osName: 'Windows',
      time: card.createdAt,
      host: 'localhost',
      journey: 'LOGIN',
    });
    expect(JSON.stringify(card)).not.toMatch(liedWords);
    // Nor is any of it kept to be shown later (history, another instance).
    const row = await h.db
      .selectFrom('push_transactions')
      .select(['description', 'content'])
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toMatch(liedWords);
    expect(JSON.stringify(row)).not.toContain('STEPUP');
  });

  test('a step-up push is an identity check by its journey row, whatever the caller calls it', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'pushtext02', {}, { secondFactor: false });
    const device = await TestDevice.create(h.clock);
    await device.enrol(ctx, account.id);
    const browser = new Client(app);
    await browser.signIn('pushtext02', PASSWORD);
    const sent = sentOf(
      await sendPush(browser, {
        transactionDescription: 'Sign-in request',
        secureTransactionContent: JSON.stringify({
          deviceInfo: { browserName: 'Safari', osName: 'iOS' },
          time: '2020-01-01T00:00:00.000Z',
          host: 'portal.bank.example',
          journey: 'LOGIN',
        }),
        localizedPushKey: 'gatehouse.push.approve',
      }),
    );
    const card = await deviceView(new DeviceApp(app, device), sent.id);
    expect(card.description).toBe('Identity check');
    // The test client's User-Agent names no browser or system: unknown, never the caller's.
    expect(card.content).toMatchObject({ journey: 'STEPUP', browserName: '', osName: '' });
  });

  test("migration 025 clears a caller's words from pushes written before it", async () => {
    const { app, phone } = await start();
    const browser = await atFactor(app, 'pushtext01');
    const sent = sentOf(await sendPush(browser, pushSendBody, chromeOnWindows));
    // A row as the code before it wrote one: the caller's browser, system and journey, and the
    // column of choices.
    await sql`alter table push_transactions add column numbers jsonb`.execute(h.db);
    await sql`update push_transactions set content = ${JSON.stringify({
      browserName: 'tap Yes to BLOCK a $4,800 transfer',
      osName: 'Bank security team',
      time: '2026-01-01T00:00:00.000Z',
      host: 'localhost',
      journey: 'STEPUP',
    })}::jsonb, numbers = '["17","42","88"]'::jsonb where id = ${sent.id}`.execute(h.db);
    await serverText(h.db as never);
    const card = await deviceView(phone, sent.id);
    expect(card.content).toMatchObject({ browserName: '', osName: '', host: 'localhost', journey: 'LOGIN' });
    expect(JSON.stringify(card)).not.toMatch(liedWords);
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_name = 'push_transactions' and column_name = 'numbers'
        and table_schema = current_schema()`.execute(h.db);
    expect(columns.rows).toEqual([]);
  });

  test('number matching is on by default: the sign-in screen gets a 2-digit number, kept with the push; the device is never told it, and the number typed there signs in', async () => {
    const { app, account, device, phone } = await start();
    const browser = await atFactor(app, 'pushtext01');
    const sent = sentOf(await sendPush(browser));
    expect(sent.number).toMatch(/^[1-9]\d$/);
    const row = await h.db
      .selectFrom('push_transactions')
      .select('number')
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(row.number).toBe(sent.number);
    const card = await deviceView(phone, sent.id);
    expect(card.numberMatching).toBe(true);
    // No number and no choices that hold it: a blind approver has nothing to pick from.
    expect(Object.keys(card).filter((k) => /number/i.test(k))).toEqual(['numberMatching']);

    // The approval stays signed by the device key, over the number: a signature made for another
    // number does not carry this one.
    const signedForOther = await device.answerBody(sent.id, 'APPROVE', otherThan(sent.number!));
    const forged = { ...signedForOther, number: sent.number };
    expect(code(await phone.client.post(api(paths.devicePushAnswer), forged))).toBe(1403);
    expect(code(await phone.answer(sent.id, 'APPROVE', sent.number))).toBe(1200);
    expect(statusOf(await pollPush(browser, sent.id))).toBe('COMPLETED_SUCCESSFUL');
    expect(code(await browser.session())).toBe(1200);
    expect(await auditOf(account.id)).toEqual(expect.arrayContaining(['push-approved:success']));
  });

  test('a blind approver fails: an approval with a wrong number, or none, ends the push, is audited, and the sign-in is not completed', async () => {
    const { app, account, phone } = await start();
    const browser = await atFactor(app, 'pushtext01');
    const guesses = (number: string) => [undefined, otherThan(number), otherThan(number, 45)];
    for (let i = 0; i < 3; i++) {
      const sent = sentOf(await sendPush(browser));
      const guess = guesses(sent.number!)[i];
      const answered = await phone.answer(sent.id, 'APPROVE', guess);
      expect(json(answered).successData).toEqual({ status: 'COMPLETED_FAILURE' });
      expect(statusOf(await pollPush(browser, sent.id))).toBe('COMPLETED_FAILURE');
      // The push is over: the right number afterwards is too late.
      expect(code(await phone.answer(sent.id, 'APPROVE', sent.number))).toBe(1409);
      expect(statusOf(await pollPush(browser, sent.id))).toBe('COMPLETED_FAILURE');
      expect((await deviceView(phone, sent.id)).status).toBe('COMPLETED_FAILURE');
    }
    expectFailureEnvelope(await browser.session(), 401, 4401);
    expect(await liveSessions(account.id)).toBe(0);
    const rows = await h.db
      .selectFrom('push_transactions')
      .select('status')
      .where('account_id', '=', account.id)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['WRONG_NUMBER', 'WRONG_NUMBER', 'WRONG_NUMBER']);
    const audit = await auditOf(account.id);
    expect(audit.filter((e) => e === 'push-wrong-number:failure')).toHaveLength(3);
    expect(audit.filter((e) => e.startsWith('push-approved'))).toEqual([]);
    expect(audit).not.toContain('sign-in:success');
  });

  test('a burst of 100 blind approvals of one push (every wrong number, and none): exactly one is recorded, a wrong number, and no one signs in', async () => {
    const { app, account, device } = await start();
    const browser = await atFactor(app, 'pushtext01');
    const sent = sentOf(await sendPush(browser));
    expect(sent.number).toMatch(/^[1-9]\d$/);
    const wrong = Array.from({ length: 90 }, (_, i) => String(i + 10)).filter((n) => n !== sent.number);
    const bodies = await Promise.all([
      ...wrong.map((n) => device.answerBody(sent.id, 'APPROVE', n)),
      ...Array.from({ length: 11 }, () => device.answerBody(sent.id, 'APPROVE')),
    ]);
    expect(bodies).toHaveLength(100);
    const page = new Client(app);
    await page.get(api(paths.health));
    const headers = {
      cookie: [...page.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      [headerNames.csrf]: page.cookies.get('XSRF-TOKEN')!,
      'content-type': 'application/json',
    };
    const results = await Promise.all(
      bodies.map((b) =>
        app.inject({ method: 'POST', url: api(paths.devicePushAnswer), headers, payload: JSON.stringify(b) }),
      ),
    );
    const codes = results.map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(1);
    expect(codes.filter((c) => c === 1409)).toHaveLength(99);
    const winner = results.find((r) => code(r) === 1200)!;
    expect(json(winner).successData).toEqual({ status: 'COMPLETED_FAILURE' });
    expect(statusOf(await pollPush(browser, sent.id))).toBe('COMPLETED_FAILURE');
    expect(await liveSessions(account.id)).toBe(0);
    const audit = await auditOf(account.id);
    expect(audit.filter((e) => e.startsWith('push-wrong-number'))).toEqual(['push-wrong-number:failure']);
  });

  test('PUSH_NUMBER_MATCHING=false: no number is shown or asked for', async () => {
    const { app, phone } = await start({ PUSH_NUMBER_MATCHING: 'false' });
    const browser = await atFactor(app, 'pushtext01');
    const sent = sentOf(await sendPush(browser));
    expect(sent.number).toBeUndefined();
    expect((await deviceView(phone, sent.id)).numberMatching).toBe(false);
    expect(code(await phone.answer(sent.id, 'APPROVE'))).toBe(1200);
    expect(statusOf(await pollPush(browser, sent.id))).toBe('COMPLETED_SUCCESSFUL');
  });
});
