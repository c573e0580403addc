import { describe, expect, test } from 'vitest';
import {
  atFactor,
  check,
  contacts,
  demoContacts,
  factorAccount,
  latestMessage,
  sendSms,
} from './support/factors.ts';
import { code, targets, useHarness } from './support/harness.ts';
import { wrongCode } from './support/recovery.ts';

const NUMBER = '+12025550143';
const MINUTE = 60_000;
const WIDE = {
  CODE_CHECK_SESSION_MAX: '10000',
  CODE_CHECK_ACCOUNT_MAX: '10000',
  FACTOR_LOCKOUT_MINUTES: '5',
};

describe.each(targets)('rt25: counters read with the journey ($name)', (target) => {
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
});
