import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import {
  addApp,
  appClock,
  tokenAccount,
  totpCheck,
  WIDE_LIMITS,
  wrongOf,
  wrongTokenJourneys,
} from './support/app-codes.ts';
import { atFactor, contacts, DAY, factorAccount, sendSms } from './support/factors.ts';
import { api, code, targets, useHarness } from './support/harness.ts';

/**
 * Security round 3, red team on the merged result (issue 22; decisions 030-034): attacks where the
 * five pieces meet. Each test is named after the property it holds.
 */

const MINUTE = 60_000;
/** The notice of a block (factorBlockedBody) and of a hold (factorHeldBody), as e-mailed in English. */
const BLOCKED_NOTICE = 'so it is blocked for a while';
const HELD_NOTICE = 'so we blocked that method';

describe.each(targets)('red team, round 3 ($name)', (target) => {
  const h = useHarness(target);

  const { codeOf } = appClock(h);
  const mails = async (to: string, containing: string) =>
    (await h.db.selectFrom('outbox').select('text').where('recipient', '=', to).execute()).filter((m) =>
      m.text.includes(containing),
    );

  const textsTo = async (to: string) =>
    (
      await h.db
        .selectFrom('outbox')
        .select('text')
        .where('recipient', '=', to)
        .where('channel', 'in', ['sms', 'voice'])
        .execute()
    ).length;

  // --- notices of blocks and holds (030 x 033) -------------------------------------------------------

  test('every block of the token app is told to the owner once, and the block that holds it only as the hold', async () => {
    const { app, ctx } = await h.start({ ...WIDE_LIMITS, FACTOR_BLOCKS_BEFORE_HOLD: '2' });
    const { secret, credentialId } = await tokenAccount(ctx, 'tellblock1');
    const block = () => wrongTokenJourneys(app, 'tellblock1', credentialId, () => codeOf(secret));
    expect(await block()).toEqual([1428, 1491, 1428, 1491, 1204, 1204]);
    expect(await mails('tellblock1@example.com', BLOCKED_NOTICE)).toHaveLength(1);
    expect(await mails('tellblock1@example.com', HELD_NOTICE)).toHaveLength(0);
    h.clock.advance(5 * MINUTE + 1000);
    expect(await block()).toEqual([1428, 1491, 1428, 1491, 1204, 1204]);
    expect(await mails('tellblock1@example.com', BLOCKED_NOTICE)).toHaveLength(1);
    expect(await mails('tellblock1@example.com', HELD_NOTICE)).toHaveLength(1);
  });

  test('the lock of a one-time-code channel that holds it is told to the owner once, as the hold', async () => {
    const { app, ctx } = await h.start({
      ...WIDE_LIMITS,
      FACTOR_MAX_WRONG_TRIES: '2',
      FACTOR_MAX_SENDS: '100',
      FACTOR_BLOCKS_BEFORE_HOLD: '2',
    });
    await factorAccount(ctx, 'tellblock2', {
      phones: [{ value: '2025550188' }],
      emails: [{ value: 'tellblock2@example.com' }],
    });
    const lock = async () => {
      const browser = await atFactor(app, 'tellblock2');
      const id = (await contacts(browser)).phone[0]!.value;
      expect(code(await sendSms(browser, id))).toBe(1200);
      const wrong = async () =>
        code(
          await browser.request({ method: 'PUT', url: api(paths.otpSms), body: { securityCode: '000000' } }),
        );
      return [await wrong(), await wrong()];
    };
    expect(await lock()).toEqual([1428, 1491]);
    expect(await mails('tellblock2@example.com', BLOCKED_NOTICE)).toHaveLength(1);
    h.clock.advance(61 * MINUTE);
    expect(await lock()).toEqual([1428, 1491]);
    expect(await mails('tellblock2@example.com', HELD_NOTICE)).toHaveLength(1);
    expect(await mails('tellblock2@example.com', BLOCKED_NOTICE)).toHaveLength(1);
  });

  // --- notices by text and the limits on texts (030 x 033) -------------------------------------------

  test("security notices by text pass the same gate as every text: the service's daily ceiling holds, and a number of a refused range gets none", async () => {
    const { app, ctx } = await h.start({
      ...WIDE_LIMITS,
      TOTP_MAX_WRONG_TRIES: '1',
      FACTOR_BLOCKS_BEFORE_HOLD: '100',
      PHONE_DAILY_MAX: '3',
    });
    const owner = await factorAccount(ctx, 'noticegate1', { phones: [{ value: '2025550147' }] });
    const { secret } = await addApp(ctx, owner.id);
    // Someone with the password blocks the app four times within the hour: four notices.
    for (let block = 0; block < 4; block++) {
      const browser = await atFactor(app, 'noticegate1');
      expect(code(await totpCheck(browser, wrongOf(codeOf(secret))))).toBe(1491);
      h.clock.advance(5 * MINUTE + 1000);
    }
    expect(await mails('noticegate1@example.com', BLOCKED_NOTICE)).toHaveLength(4);
    expect(await textsTo('+12025550147')).toBe(3);

    // A number on file from before its range was refused (+1-900): no notice by text, the e-mail goes.
    const premium = await factorAccount(ctx, 'noticegate2', { phones: [{ value: '9005550123' }] });
    const { secret: other } = await addApp(ctx, premium.id);
    h.clock.advance(DAY + MINUTE);
    const browser = await atFactor(app, 'noticegate2');
    expect(code(await totpCheck(browser, wrongOf(codeOf(other))))).toBe(1491);
    expect(await mails('noticegate2@example.com', BLOCKED_NOTICE)).toHaveLength(1);
    expect(await textsTo('+19005550123')).toBe(0);
  });
});
