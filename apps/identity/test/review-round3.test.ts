import { randomBytes } from 'node:crypto';
import { headers as headerNames, paths, securityPaths } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import type { DB } from '../src/db/database.ts';
import { codeAt, timeStep } from '../src/factors/app-codes.ts';
import { TestDevice } from './support/device.ts';
import { atFactor, factorAccount } from './support/factors.ts';
import { api, type Client, code, expectFailureEnvelope, targets, useHarness } from './support/harness.ts';

/**
 * Review round 3 (issues 22 and 23, identity service): properties of the new counters and
 * multi-statement writes under a burst and under a database fault in the middle of the write.
 *
 * The fault is a trigger on audit_events that fails the one insert the test aims at with SQLSTATE
 * 57P03 ("cannot connect now"): db/faults.ts counts it as the database being away (503/5003), on
 * PGlite and PostgreSQL alike, and every statement before it has already run.
 */

const STEP = 30_000;
const MINUTE = 60_000;
const SHA1 = { algorithm: 'SHA1', digits: 6 } as const;
const WIDE = {
  CODE_CHECK_SESSION_MAX: '10000',
  CODE_CHECK_ACCOUNT_MAX: '10000',
  RECOVERY_CHECK_CLIENT_MAX: '10000',
  SECURITY_RATE_MAX: '10000',
  RATE_LIMIT_ACCOUNT_MAX: '10000',
  RATE_LIMIT_CLIENT_MAX: '10000',
};

const totpCheck = (client: Client, securityCode: string) =>
  client.post(api(paths.totpAuthentication), { securityCode });
const wrongOf = (right: string) => String((Number(right) + 500_001) % 1_000_000).padStart(6, '0');
const register = async (client: Client, device: TestDevice, name = 'New phone') =>
  client.post(api(paths.deviceRegister), {
    publicKey: device.publicKey,
    name,
    proof: await device.proof('register'),
  });

function burst(app: FastifyInstance, client: Client, url: string, bodies: unknown[]) {
  const headers = {
    cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    [headerNames.csrf]: client.cookies.get('XSRF-TOKEN')!,
    'content-type': 'application/json',
  };
  return Promise.all(
    bodies.map((body) => app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) })),
  );
}

/** The insert of the audit event `event` (with `outcome`) fails as if the database went away. */
async function failAudit(db: DB, event: string, outcome: 'success' | 'failure') {
  await sql
    .raw(`create or replace function review_fault() returns trigger language plpgsql as $$
      begin
        if new.event = '${event}' and new.outcome = '${outcome}' then
          raise exception 'injected fault' using errcode = '57P03';
        end if;
        return new;
      end $$`)
    .execute(db);
  await sql`drop trigger if exists review_fault on audit_events`.execute(db);
  await sql`create trigger review_fault before insert on audit_events
    for each row execute function review_fault()`.execute(db);
}
async function healAudit(db: DB) {
  await sql`drop trigger if exists review_fault on audit_events`.execute(db);
}

function expectUnavailable(response: LightMyRequestResponse) {
  const body = expectFailureEnvelope(response, 503, 5003);
  expect(body.errorType).toBe('SYSTEM_ERROR');
}

describe.each(targets)('review round 3 ($name)', (target) => {
  const h = useHarness(target);

  function nextStep() {
    const into = h.clock.now().getTime() % STEP;
    h.clock.advance(STEP - into + 1000);
  }
  const codeOf = (secret: Uint8Array) => codeAt(secret, timeStep(h.clock.now(), 30), SHA1);

  async function withTotp(ctx: Context, username: string) {
    const account = await factorAccount(ctx, username, { emails: [{ value: `${username}@example.com` }] });
    const secret = randomBytes(20);
    await ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'Authenticator app',
      secret,
      data: { algorithm: 'SHA1', digits: 6, period: 30 },
      createdAt: new Date(0),
    });
    return { account, secret };
  }
  /** Signed in with the app and stepped up with it: the security page (and device registration) is open. */
  async function steppedUp(app: FastifyInstance, username: string, secret: Uint8Array) {
    const browser = await atFactor(app, username);
    nextStep();
    expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
    nextStep();
    const r = await totpCheck(browser, codeOf(secret));
    expect(code(r), r.body).toBe(1200);
    return browser;
  }
  const mails = async (to: string, containing: RegExp) =>
    (await h.db.selectFrom('outbox').select('text').where('recipient', '=', to).execute()).filter((m) =>
      containing.test(m.text),
    );
  const pushDevices = async (accountId: string) =>
    h.db
      .selectFrom('credentials')
      .select('id')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'push')
      .execute();

  test('a text refused by a later limit gives back every hit it took: after a burst of 120 texts to 120 numbers under PHONE_DAILY_MAX, every counter holds exactly what was sent', async () => {
    const { app, ctx } = await h.start({
      ...WIDE,
      PHONE_DAILY_MAX: '6',
      PHONE_COUNTRY_DAILY_MAX: '1000',
      PHONE_NEW_NUMBERS_DAILY_MAX: '1000',
    });
    const a = await withTotp(ctx, 'burstday01');
    const browser = await steppedUp(app, 'burstday01', a.secret);
    const numbers = Array.from({ length: 120 }, (_, i) => `+1 202 555 ${String(2000 + i)}`);
    const answers = await burst(
      app,
      browser,
      api(securityPaths.securityContacts),
      numbers.map((value) => ({ kind: 'phone', value })),
    );
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(6);
    expect(answers.filter((r) => r.statusCode === 429 && code(r) === 4429)).toHaveLength(114);
    const sent = await h.db
      .selectFrom('outbox')
      .select('recipient')
      .where('channel', '=', 'sms')
      .where('recipient', 'like', '+1202555%')
      .execute();
    expect(sent).toHaveLength(6);

    const counters = await h.db
      .selectFrom('rate_limits')
      .select(['key', 'hits'])
      .where('key', 'like', 'phone:%')
      .execute();
    const hitsOf = (prefix: string) =>
      counters.filter((c) => c.key.startsWith(prefix)).reduce((sum, c) => sum + Number(c.hits), 0);
    expect(hitsOf('phone:day')).toBe(6);
    expect(hitsOf('phone:country-day:US')).toBe(6);
    expect(hitsOf(`phone:new-account-day:${a.account.id}`)).toBe(6);
    expect(hitsOf('phone:dest-hour:new-number:')).toBe(6);
    expect(hitsOf('phone:dest-day:new-number:')).toBe(6);
    // Each number that got a text holds one hit; the refused ones none.
    const texted = new Set(sent.map((s) => s.recipient.replace(/\D/g, '')));
    for (const c of counters.filter((c) => c.key.startsWith('phone:dest-hour:'))) {
      const digits = c.key.split(':').at(-1)!;
      expect(Number(c.hits), c.key).toBe(texted.has(digits) ? 1 : 0);
    }
  });

  test('a device registration cut by a database fault leaves no device the owner was not told of: 503/5003, and the retry tells the owner', async () => {
    const { app, ctx } = await h.start(WIDE);
    const { account, secret } = await withTotp(ctx, 'faultdev01');
    const owner = await TestDevice.create(h.clock);
    await owner.enrol(ctx, account.id, "Owner's phone");
    const browser = await steppedUp(app, 'faultdev01', secret);
    const device = await TestDevice.create(h.clock);
    const told = /mobile device was added/i;
    expect(await mails('faultdev01@example.com', told)).toEqual([]);

    await failAudit(h.db, 'device-registered', 'success');
    try {
      expectUnavailable(await register(browser, device));
    } finally {
      await healAudit(h.db);
    }
    // Either the device is not there, or its owner heard of it.
    const added = (await pushDevices(account.id)).length - 1;
    const notices = (await mails('faultdev01@example.com', told)).length;
    expect({ added, notices }).toSatisfy(
      (s: { added: number; notices: number }) => s.added === 0 || s.notices === 1,
    );

    // The device app tries again: registered, and the owner told exactly once.
    const again = await register(browser, device);
    expect(code(again), again.body).toBe(1200);
    expect(await pushDevices(account.id)).toHaveLength(2);
    expect(await mails('faultdev01@example.com', told)).toHaveLength(1);
  });

  test('a factor hold cut by a database fault is never a hold the owner was not told of: 503/5003, and the hold that stands was announced once', async () => {
    const { app, ctx } = await h.start(WIDE);
    const { account, secret } = await withTotp(ctx, 'faulthold1');
    const held = /so we blocked that method/;
    const wrongCodes = async (n: number) => {
      const browser = await atFactor(app, 'faulthold1');
      const answers = [];
      for (let i = 0; i < n; i++) answers.push(await totpCheck(browser, wrongOf(codeOf(secret))));
      return answers;
    };
    // Two blocks that end by themselves.
    for (let block = 0; block < 2; block++) {
      expect((await wrongCodes(5)).map(code)).toEqual([1428, 1428, 1428, 1428, 1491]);
      h.clock.advance(5 * MINUTE + 1000);
    }
    // The third block reaches the hold; the hold's audit row fails as if the database went away.
    await failAudit(h.db, 'factor-held', 'failure');
    let third: LightMyRequestResponse[];
    try {
      third = await wrongCodes(5);
    } finally {
      await healAudit(h.db);
    }
    expect(third.slice(0, 4).map(code)).toEqual([1428, 1428, 1428, 1428]);
    expectUnavailable(third[4]!);
    const holdRow = await h.db
      .selectFrom('factor_holds')
      .select('held_at')
      .where('account_id', '=', account.id)
      .where('factor', '=', 'totp')
      .executeTakeFirst();
    const notices = (await mails('faulthold1@example.com', held)).length;
    // Either the hold did not begin (the next block begins it), or the owner heard of it.
    expect({ held: !!holdRow?.held_at, notices }).toSatisfy(
      (s: { held: boolean; notices: number }) => !s.held || s.notices === 1,
    );

    // However the fault fell, after the next block the factor is held and the owner told once.
    h.clock.advance(5 * MINUTE + 1000);
    const after = await wrongCodes(5);
    expectFailureEnvelope(after.at(-1)!, 200, 1204);
    expect(await mails('faulthold1@example.com', held)).toHaveLength(1);
    const events = await h.db
      .selectFrom('audit_events')
      .select('event')
      .where('account_id', '=', account.id)
      .where('event', '=', 'factor-held')
      .execute();
    expect(events).toHaveLength(1);
  });
});
