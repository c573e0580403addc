import { type Kysely, sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { up as oneLiveCode } from '../src/db/migrations/041_one_live_code.ts';
import {
  atFactor,
  check,
  contacts,
  demoContacts,
  factorAccount,
  latestMessage,
  sendSms,
} from './support/factors.ts';
import { code, createAccount, targets, useHarness } from './support/harness.ts';
import { wrongCode } from './support/recovery.ts';

const NUMBER = '+12025550143';
const MINUTE = 60_000;
const WIDE = {
  CODE_CHECK_SESSION_MAX: '10000',
  CODE_CHECK_ACCOUNT_MAX: '10000',
  FACTOR_LOCKOUT_MINUTES: '5',
};

/**
 * Bursts on the one-time code's send and check, whose counts, limits and code are each one
 * statement (issue 25): the counters are read with the journey, the send counts itself, its
 * number's limits and its code together, and the check counts its rate limits with its try.
 */
describe.each(targets)('one-time codes under bursts ($name)', (target) => {
  const h = useHarness(target);
  const events = (accountId: string, event: string) =>
    h.db
      .selectFrom('audit_events')
      .select('id')
      .where('account_id', '=', accountId)
      .where('event', '=', event)
      .execute();

  test('a burst of wrong text codes once the counts have gone idle compares at most FACTOR_MAX_WRONG_TRIES', async () => {
    const { app, ctx } = await h.start(WIDE);
    const account = await factorAccount(ctx, 'rtidle01', demoContacts('rtidle01', ctx.clock.now()));
    const client = await atFactor(app, 'rtidle01');
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    // One wrong code, then the counts go idle (FACTOR_LOCKOUT_MINUTES) while the code still lives.
    expect(code(await check(client, 'sms', wrongCode(right)))).toBe(1428);
    h.clock.advance(5 * MINUTE + 1000);
    const answers = (
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => check(client, 'sms', i === 50 ? right : wrongCode(right))),
      )
    ).map(code);
    const compared = (await events(account.id, 'factor-failed')).length;
    expect({ compared, signedIn: answers.includes(1200) }).toEqual({ compared: 1 + 5, signedIn: false });
  });

  test('a burst of 40 text sends on one journey: FACTOR_MAX_SENDS codes go out, and only they count against the number', async () => {
    const { app, ctx } = await h.start({ FACTOR_MAX_SENDS: '3', PHONE_DESTINATION_HOURLY_MAX: '100' });
    await factorAccount(ctx, 'rtsend01', demoContacts('rtsend01', ctx.clock.now()));
    const client = await atFactor(app, 'rtsend01');
    const phone = (await contacts(client)).phone[0]!;
    const answers = (await Promise.all(Array.from({ length: 40 }, () => sendSms(client, phone.value)))).map(
      code,
    );
    const texts = await ctx.db.selectFrom('outbox').select('id').where('recipient', '=', NUMBER).execute();
    const number = await ctx.db
      .selectFrom('rate_limits')
      .select(['key', 'hits'])
      .where('key', 'like', 'phone:dest-%:factor:12025550143')
      .orderBy('key')
      .execute();
    const live = await ctx.db
      .selectFrom('otp_codes')
      .select('id')
      .where('recipient', '=', NUMBER)
      .where('revoked_at', 'is', null)
      .execute();
    expect({
      sent: answers.filter((c) => c === 1200).length,
      refused: answers.filter((c) => c === 1491).length,
      texts: texts.length,
      number: number.map((r) => [r.key.split(':')[1], r.hits]),
      live: live.length,
    }).toEqual({
      sent: 3,
      refused: 37,
      texts: 3,
      number: [
        ['dest-day', 3],
        ['dest-hour', 3],
      ],
      live: 1,
    });
  });

  test('a burst of 30 wrong codes: CODE_CHECK_SESSION_MAX are compared, the rest answer 429 uncompared, and the right code after them too', async () => {
    const { app, ctx } = await h.start({ CODE_CHECK_SESSION_MAX: '4', FACTOR_MAX_WRONG_TRIES: '10' });
    const account = await factorAccount(ctx, 'rtcheck01', demoContacts('rtcheck01', ctx.clock.now()));
    const client = await atFactor(app, 'rtcheck01');
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => check(client, 'sms', wrongCode(right))),
    );
    const answers = replies.map(code);
    const limited = replies.filter((r) => r.statusCode === 429);
    const counters = await ctx.db
      .selectFrom('otp_counters')
      .select('wrong_tries')
      .where('account_id', '=', account.id)
      .where('channel', '=', 'factor:sms')
      .executeTakeFirst();
    expect({
      wrong: answers.filter((c) => c === 1428).length,
      limited: limited.length,
      retryAfter: limited.every((r) => Number(r.headers['retry-after']) > 0),
      compared: (await events(account.id, 'factor-failed')).length,
      wrongTries: counters?.wrong_tries,
    }).toEqual({ wrong: 4, limited: 26, retryAfter: true, compared: 4, wrongTries: 4 });
    const after = await check(client, 'sms', right);
    expect(after.statusCode).toBe(429);
  });

  test('migration 041: codes a burst already doubled keep only their newest live; a second live code cannot be written', async () => {
    const { ctx } = await h.start();
    const account = await createAccount(ctx, { username: 'rtmigr01', password: 'Harbor7Lights' });
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 9, minute));
    const row = (hash: string, minute: number, extra: { used_at?: Date; revoked_at?: Date } = {}) => ({
      account_id: account.id,
      channel: 'sms',
      recipient: NUMBER,
      code_hash: hash,
      purpose: 'factor',
      created_at: at(minute),
      expires_at: at(minute + 10),
      ...extra,
    });
    await sql`drop index otp_codes_one_live`.execute(ctx.db);
    await ctx.db
      .insertInto('otp_codes')
      .values([
        row('a', 1),
        row('b', 3),
        row('c', 2),
        row('used', 4, { used_at: at(5) }),
        row('gone', 5, { revoked_at: at(6) }),
        { ...row('recovery', 1), purpose: 'recovery' },
      ])
      .execute();
    await oneLiveCode(ctx.db as unknown as Kysely<unknown>);
    const live = await ctx.db
      .selectFrom('otp_codes')
      .select(['code_hash', 'purpose'])
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .orderBy('code_hash')
      .execute();
    expect(live).toEqual([
      { code_hash: 'b', purpose: 'factor' },
      { code_hash: 'recovery', purpose: 'recovery' },
    ]);
    await expect(ctx.db.insertInto('otp_codes').values(row('d', 7)).execute()).rejects.toThrow();
  });
});
