import {
  type ContactAddData,
  consolePaths,
  headers as headerNames,
  paths,
  securityPaths,
} from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { Secret } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { StaffStore } from '../src/console/staff.ts';
import {
  appAccount,
  appClock,
  burst,
  tokenAccount,
  tokenCheck,
  tokenSync,
  totpCheck,
  WIDE_LIMITS,
  wrongOf,
  wrongTokenJourneys,
} from './support/app-codes.ts';
import { atFactor, contacts, factorAccount, sendSms, TEMPLATE } from './support/factors.ts';
import {
  api,
  baseEnv,
  Client,
  code,
  expectFailureEnvelope,
  json,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';
import { checkCode, identify, latestCode, maskedEmail, sendCode } from './support/recovery.ts';

/**
 * Abuse limits (issue 22, build point 5; docs/decisions/033-abuse-limits.md), each finding reproduced
 * as the attack: texts and calls counted per destination number, account, country and day across
 * accounts (finding 6: 20 texts to one number in a minute from 2 accounts); premium-rate and
 * high-risk ranges refused (+1-900, +239, +679 were accepted); second-factor blocks counted per
 * account, the third in a day holding the factor until a recovery or the console lifts it, with a
 * notice (finding 7: the count restarted after each block, 20 token codes per 15 minutes); the token
 * resync bounded to minutes of the token's clock, the owner's current code accepted after it
 * (finding 8: codes 50 minutes old resynced it and the current code was refused).
 */

const MINUTE = 60_000;
const addPhone = (client: Client, value: string, headers?: Record<string, string>) =>
  client.post(api(securityPaths.securityContacts), { kind: 'phone', value }, headers);
const message = (r: LightMyRequestResponse) => json(r).responseBaseInfo.status.message;

describe('abuse limits: settings', () => {
  test('an invalid PHONE_* setting stops the start with one line naming it; the defaults refuse +1-900, +239 and +679', () => {
    const start = (env: Record<string, string>) => () => loadConfig({ ...baseEnv, ...env });
    expect(start({ PHONE_REFUSED_RANGES: '+1900,1900' })).toThrow(
      'Invalid setting PHONE_REFUSED_RANGES (got "1900"): each entry must be a prefix in E.164 form (+1900) or a region code (ST)',
    );
    expect(start({ PHONE_REFUSED_TYPES: 'PREMIUM' })).toThrow(
      /^Invalid setting PHONE_REFUSED_TYPES \(got "PREMIUM"\)/,
    );
    expect(start({ PHONE_COUNTRY_DAILY_LIMITS: 'US=5' })).toThrow(
      'Invalid setting PHONE_COUNTRY_DAILY_LIMITS (got "US=5"): each entry must be REGION:MAX, such as US:50000',
    );
    expect(start({ FACTOR_BLOCKS_BEFORE_HOLD: '0' })).toThrow(/^Invalid setting FACTOR_BLOCKS_BEFORE_HOLD/);
    expect(start({ TOKEN_RESYNC_WINDOW_MINUTES: '61' })).toThrow(
      /^Invalid setting TOKEN_RESYNC_WINDOW_MINUTES/,
    );
    const config = loadConfig({ ...baseEnv, PHONE_COUNTRY_DAILY_LIMITS: 'us:50000' });
    expect(config.phone.refusedRanges).toEqual(expect.arrayContaining(['+1900', '+239', '+679']));
    expect(config.phone.countryDaily.get('US')).toBe(50000);
    expect(config.token.resyncWindowMs).toBe(5 * 60_000);
  });
});

describe.each(targets)('abuse limits ($name)', (target) => {
  const h = useHarness(target);

  const { codeOf, nextStep } = appClock(h);

  /** 100 wrong token codes at once: two from each of 50 journeys at the token screen. */
  async function wrongTokenBurst(
    app: FastifyInstance,
    username: string,
    credentialId: string,
    secret: Uint8Array,
  ) {
    const browsers = await Promise.all(Array.from({ length: 50 }, () => atFactor(app, username)));
    const wrong = { credentialId, securityCode1: wrongOf(codeOf(secret)) };
    const answers = await Promise.all(
      browsers.map((b) => burst(app, b, api(paths.svipAuthentication), [wrong, wrong])),
    );
    return answers.flat();
  }

  /** A step-up with the app: the security page is open for SECURITY_STEPUP_MINUTES. */
  async function stepUp(browser: Client, secret: Uint8Array) {
    nextStep();
    const r = await totpCheck(browser, codeOf(secret));
    expect(code(r), r.body).toBe(1200);
  }
  /** Signed in with the app's code and stepped up with it: the security page is open. */
  async function securityPage(app: FastifyInstance, username: string, secret: Uint8Array) {
    const browser = await atFactor(app, username);
    nextStep();
    expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
    await stepUp(browser, secret);
    return browser;
  }

  const codeTexts = async (to: string) =>
    (
      await h.db
        .selectFrom('outbox')
        .select('code')
        .where('recipient', '=', to)
        .where('channel', 'in', ['sms', 'voice'])
        .where('code', 'is not', null)
        .execute()
    ).length;
  const texts = async (to: string) =>
    (
      await h.db
        .selectFrom('outbox')
        .select(['channel', 'text'])
        .where('recipient', '=', to)
        .where('channel', 'in', ['sms', 'voice'])
        .execute()
    ).length;
  const events = async (accountId: string, event: string) =>
    h.db
      .selectFrom('audit_events')
      .select(['outcome', 'detail'])
      .where('account_id', '=', accountId)
      .where('event', '=', event)
      .execute();
  const mails = async (to: string, containing: string) =>
    (await h.db.selectFrom('outbox').select('text').where('recipient', '=', to).execute()).filter((m) =>
      m.text.includes(containing),
    );
  const HELD_NOTICE = 'so we blocked that method';

  // --- texts and calls ---------------------------------------------------------------------------

  test("a number gets at most PHONE_DESTINATION_HOURLY_MAX codes an hour from 'add a phone', across accounts, and PHONE_DESTINATION_DAILY_MAX a day", async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '100' });
    const victim = '+12025550199';
    const a = await appAccount(ctx, 'pumpuser01');
    const b = await appAccount(ctx, 'pumpuser02');
    const first = await securityPage(app, 'pumpuser01', a.secret);
    const second = await securityPage(app, 'pumpuser02', b.secret);

    // The finding: 10 a minute from each of two accounts reached the number (20 texts).
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(await addPhone(first, '202-555-0199'));
      answers.push(await addPhone(second, '202-555-0199'));
    }
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(5);
    const refused = answers.filter((r) => code(r) !== 1200);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expectFailureEnvelope(r, 429, 4429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(message(r)).toBe(
        "We can't send more codes to this phone number right now. Please try again later or choose another method.",
      );
    }
    expect(await texts(victim)).toBe(5);

    // An hour later the number takes 5 more (the account that sent 3 has its own daily 5 left: 2).
    h.clock.advance(60 * MINUTE + 1000);
    await stepUp(first, a.secret);
    await stepUp(second, b.secret);
    const more = [];
    for (let i = 0; i < 4; i++) more.push(code(await addPhone(second, '202-555-0199')));
    for (let i = 0; i < 4; i++) more.push(code(await addPhone(first, '202-555-0199')));
    expect(more.filter((c) => c === 1200)).toHaveLength(5);
    expect(await texts(victim)).toBe(10);
    // The day's 10 are spent: the next hour's window does not reopen it.
    h.clock.advance(60 * MINUTE + 1000);
    const c = await appAccount(ctx, 'pumpuser03');
    const third = await securityPage(app, 'pumpuser03', c.secret);
    expectFailureEnvelope(await addPhone(third, '202-555-0199'), 429, 4429);
    expect(await texts(victim)).toBe(10);
    // Another number is not affected.
    expect(code(await addPhone(third, '202-555-0142'))).toBe(1200);
  });

  test("a burst of 100 'add a phone' calls for one number sends exactly PHONE_DESTINATION_HOURLY_MAX texts", async () => {
    const { app, ctx } = await h.start({ ...WIDE_LIMITS, PHONE_NEW_NUMBERS_DAILY_MAX: '1000' });
    const a = await appAccount(ctx, 'pumpuser04');
    const browser = await securityPage(app, 'pumpuser04', a.secret);
    const answers = await burst(
      app,
      browser,
      api(securityPaths.securityContacts),
      Array.from({ length: 100 }, () => ({ kind: 'phone', value: '+1 202 555 0177' })),
    );
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429 && code(r) === 4429)).toHaveLength(95);
    expect(await texts('+12025550177')).toBe(5);
  });

  test('a burst of 100 texts to 100 numbers of one country sends exactly PHONE_COUNTRY_DAILY_MAX; another country still gets its own', async () => {
    const { app, ctx } = await h.start({
      ...WIDE_LIMITS,
      PHONE_NEW_NUMBERS_DAILY_MAX: '1000',
      PHONE_COUNTRY_DAILY_MAX: '7',
      PHONE_COUNTRY_DAILY_LIMITS: 'GB:2',
    });
    const a = await appAccount(ctx, 'pumpuser05');
    const browser = await securityPage(app, 'pumpuser05', a.secret);
    const numbers = Array.from({ length: 100 }, (_, i) => `+1 202 555 ${String(1000 + i).padStart(4, '0')}`);
    const answers = await burst(
      app,
      browser,
      api(securityPaths.securityContacts),
      numbers.map((value) => ({ kind: 'phone', value })),
    );
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(7);
    expect(answers.filter((r) => code(r) === 4429)).toHaveLength(93);
    const sent = await h.db
      .selectFrom('outbox')
      .select('recipient')
      .where('channel', '=', 'sms')
      .where('recipient', 'like', '+1202555%')
      .execute();
    expect(sent).toHaveLength(7);
    // GB has its own limit (2).
    expect(code(await addPhone(browser, '+44 20 7946 0001'))).toBe(1200);
    expect(code(await addPhone(browser, '+44 20 7946 0002'))).toBe(1200);
    expectFailureEnvelope(await addPhone(browser, '+44 20 7946 0003'), 429, 4429);
  });

  test('one-time codes by text: a burst of 100 sends to one phone sends exactly PHONE_DESTINATION_HOURLY_MAX, and a second account with the same number gets none that hour', async () => {
    const { app, ctx } = await h.start({ ...WIDE_LIMITS, FACTOR_MAX_SENDS: '100' });
    const phone = { value: '2025550166', voice: true };
    await factorAccount(ctx, 'smspump01', { phones: [phone] });
    await factorAccount(ctx, 'smspump02', { phones: [phone] });
    const browser = await atFactor(app, 'smspump01');
    const id = (await contacts(browser)).phone[0]!.value;
    const answers = await burst(
      app,
      browser,
      api(paths.otpSms),
      Array.from({ length: 100 }, () => ({ phone: id, message: TEMPLATE })),
    );
    expect(answers.filter((r) => code(r) === 1200)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429 && code(r) === 4429)).toHaveLength(95);
    expect(await texts('+12025550166')).toBe(5);

    const other = await atFactor(app, 'smspump02');
    const otherId = (await contacts(other)).phone[0]!.value;
    expectFailureEnvelope(await sendSms(other, otherId), 429, 4429);
    expectFailureEnvelope(await other.post(api(paths.otpVoice), { phone: otherId }), 429, 4429);
    expect(await texts('+12025550166')).toBe(5);
  });

  test("premium-rate, shared-cost and high-risk numbers are refused where a phone is added, in the customer's language; nothing is sent", async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '100' });
    const a = await appAccount(ctx, 'premium01');
    const browser = await securityPage(app, 'premium01', a.secret);
    // +1-900 (premium rate), São Tomé (+239), Fiji (+679), a UK premium-rate and personal number,
    // a French premium-rate number.
    for (const value of [
      '+1 900 234 5678',
      '900-234-5678',
      '+239 990 1234',
      '+679 701 2345',
      '+44 871 234 5678',
      '+44 70 1234 5678',
      '+33 8 99 12 34 56',
    ]) {
      const r = await addPhone(browser, value);
      expectFailureEnvelope(r, 200, 1400);
      expect(message(r)).toBe(
        "We can't send codes to this kind of number (premium-rate, shared-cost or a high-risk range). Enter a mobile or landline number.",
      );
    }
    const spanish = await addPhone(browser, '+1 900 234 5678', { 'accept-language': 'es' });
    expectFailureEnvelope(spanish, 200, 1400);
    expect(message(spanish)).toMatch(/^No podemos enviar códigos a este tipo de número/);
    const sent = await h.db.selectFrom('outbox').select('recipient').where('channel', '=', 'sms').execute();
    expect(sent).toEqual([]);
    const pending = await h.db.selectFrom('security_confirmations').select('id').execute();
    expect(pending).toEqual([]);
    // An ordinary number still gets its code.
    const ok = await addPhone(browser, '+1 202 555 0150');
    expect(code(ok)).toBe(1200);
    expect(json<ContactAddData>(ok).successData!.masked).toMatch(/0150/);
  });

  test('PHONE_REFUSED_RANGES refuses the prefixes and regions it lists, and a phone on file in a refused range gets no one-time code', async () => {
    const { app, ctx } = await h.start({ PHONE_REFUSED_RANGES: '+1202555016,CA' });
    const a = await appAccount(ctx, 'premium02');
    const browser = await securityPage(app, 'premium02', a.secret);
    expectFailureEnvelope(await addPhone(browser, '+1 202 555 0161'), 200, 1400);
    expectFailureEnvelope(await addPhone(browser, '+1 416 555 0123'), 200, 1400);
    expect(code(await addPhone(browser, '+1 202 555 0171'))).toBe(1200);

    await factorAccount(ctx, 'premium03', { phones: [{ value: '2025550163', voice: true }] });
    const signing = await atFactor(app, 'premium03');
    const id = (await contacts(signing)).phone[0]!.value;
    expectFailureEnvelope(await sendSms(signing, id), 200, 1403);
    expectFailureEnvelope(await signing.post(api(paths.otpVoice), { phone: id }), 200, 1403);
    expect(await texts('+12025550163')).toBe(0);
  });

  // --- cumulative second-factor blocks --------------------------------------------------------------

  test('authenticator app: the third block in a day holds it until a recovery (a right code refused, uncompared); the owner is told', async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    const { account, secret } = await appAccount(ctx, 'holdtotp01');
    const guess = async () => {
      const browser = await atFactor(app, 'holdtotp01');
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await totpCheck(browser, wrongOf(codeOf(secret))));
      return answers;
    };
    // Two blocks: each ends after TOTP_BLOCK_MINUTES and the count starts again.
    for (let block = 0; block < 2; block++) {
      const answers = await guess();
      expect(answers.map(code)).toEqual([1428, 1428, 1428, 1428, 1491]);
      h.clock.advance(5 * MINUTE + 1000);
    }
    expect(await mails('holdtotp01@example.com', HELD_NOTICE)).toEqual([]);
    // The third: held.
    const third = await guess();
    expect(third.slice(0, 4).map(code)).toEqual([1428, 1428, 1428, 1428]);
    expectFailureEnvelope(third[4]!, 200, 1204);
    expect(message(third[4]!)).toMatch(/blocked after too many incorrect codes/);

    // Long after the block would have ended, the owner's right code is still refused, uncompared.
    h.clock.advance(60 * MINUTE);
    const later = await atFactor(app, 'holdtotp01');
    nextStep();
    expectFailureEnvelope(await totpCheck(later, codeOf(secret)), 200, 1204);
    const compared = await events(account.id, 'factor-failed');
    expect(compared).toHaveLength(15);
    expect(await events(account.id, 'factor-held')).toHaveLength(1);
    const notices = await mails('holdtotp01@example.com', HELD_NOTICE);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/stays blocked until you recover your account/);

    // The owner recovers the account by e-mail: the hold is lifted.
    const recovering = new Client(app);
    expect(code(await identify(recovering, 'holdtotp01'))).toBe(1200);
    expect(code(await sendCode(recovering, await maskedEmail(recovering)))).toBe(1200);
    const confirmed = await checkCode(recovering, await latestCode(h.db, 'holdtotp01@example.com'));
    expect(code(confirmed)).toBe(1200);
    expect(await events(account.id, 'factor-hold-lifted')).toHaveLength(1);
    const after = await atFactor(app, 'holdtotp01');
    nextStep();
    expect(code(await totpCheck(after, codeOf(secret)))).toBe(1200);
  });

  test('token app: wrong codes count per account across journeys, at most TOKEN_MAX_WRONG_TRIES compared however many journeys', async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    const { account, secret, credentialId } = await tokenAccount(ctx, 'holdtoken01');
    // The finding: each new sign-in gave 2 more wrong codes (20 compared per 15 minutes).
    const answers: number[] = [];
    for (let journey = 0; journey < 10; journey++) {
      const browser = await atFactor(app, 'holdtoken01');
      answers.push(code(await tokenCheck(browser, credentialId, wrongOf(codeOf(secret)))));
      answers.push(code(await tokenCheck(browser, credentialId, wrongOf(codeOf(secret)))));
    }
    const compared = (await events(account.id, 'factor-failed')).length;
    expect(compared).toBe(5);
    // The fifth wrong code blocks the token (1204 to the representative); nothing more is compared.
    expect(answers.slice(0, 5)).toEqual([1428, 1491, 1428, 1491, 1204]);
    expect(answers.slice(5).every((c) => c === 1204)).toBe(true);
    // Blocked for TOKEN_BLOCK_MINUTES: the right code too, uncompared.
    const browser = await atFactor(app, 'holdtoken01');
    const refused = await tokenCheck(browser, credentialId, codeOf(secret));
    expectFailureEnvelope(refused, 200, 1204);
    expect(message(refused)).toMatch(/temporarily blocked/);
    // The resync too.
    expectFailureEnvelope(await tokenSync(browser, codeOf(secret, -1), codeOf(secret)), 200, 1204);
    // After the block the right code signs in.
    h.clock.advance(5 * MINUTE + 1000);
    const later = await atFactor(app, 'holdtoken01');
    expect(code(await tokenCheck(later, credentialId, codeOf(secret)))).toBe(1200);
  });

  test('token app: a burst of 100 wrong codes over 50 journeys compares exactly TOKEN_MAX_WRONG_TRIES and sets one block', async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    const { account, secret, credentialId } = await tokenAccount(ctx, 'holdtoken02');
    const answers = await wrongTokenBurst(app, 'holdtoken02', credentialId, secret);
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect((await events(account.id, 'factor-failed')).length).toBe(5);
    expect((await events(account.id, 'factor-locked')).length).toBe(1);
    const holds = await h.db
      .selectFrom('factor_holds')
      .selectAll()
      .where('account_id', '=', account.id)
      .execute();
    expect(holds.map((r) => [r.factor, r.blocks, r.held_at])).toEqual([['token', 1, null]]);
  });

  test('token app: the third block in a day holds it until the console lifts it; a burst on the last block holds it once, with one notice', async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    const { account, secret, credentialId } = await tokenAccount(ctx, 'holdtoken03');
    const block = () => wrongTokenJourneys(app, 'holdtoken03', credentialId, () => codeOf(secret));
    expect(await block()).toEqual([1428, 1491, 1428, 1491, 1204, 1204]);
    h.clock.advance(5 * MINUTE + 1000);
    expect(await block()).toEqual([1428, 1491, 1428, 1491, 1204, 1204]);
    h.clock.advance(5 * MINUTE + 1000);
    // The third block, as a burst of 100 from 50 journeys.
    const answers = await wrongTokenBurst(app, 'holdtoken03', credentialId, secret);
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect((await events(account.id, 'factor-failed')).length).toBe(15);
    expect(await events(account.id, 'factor-held')).toHaveLength(1);
    expect(await mails('holdtoken03@example.com', HELD_NOTICE)).toHaveLength(1);
    expect(
      answers.filter((r) => message(r).startsWith('This verification method is blocked')),
    ).not.toHaveLength(0);

    // A day later it is still held.
    h.clock.advance(25 * 60 * MINUTE);
    const later = await atFactor(app, 'holdtoken03');
    expectFailureEnvelope(await tokenCheck(later, credentialId, codeOf(secret)), 200, 1204);

    // A representative lifts it in the console (the customer is told by e-mail).
    await sql`truncate staff, staff_sessions cascade`.execute(h.db);
    const store = new StaffStore(ctx.db, ctx.clock, ctx.hasher, ctx.config);
    const staffPassword = 'Staff-Password-42';
    rememberSecret(staffPassword);
    const { totpSecret } = await store.add({
      name: 'rita.rep',
      role: 'representative',
      password: staffPassword,
    });
    rememberSecret(totpSecret);
    const staffSecret = new Uint8Array(Secret.fromBase32(totpSecret).buffer);
    const desk = new Client(app);
    // The console answers on its own host only (CONSOLE_ORIGIN unset outside production: console/gate.ts).
    const consoleHost = '127.0.0.1:8080';
    let csrf = String(
      (await desk.get(api(consolePaths.consoleSession), { host: consoleHost })).headers[
        headerNames.csrf.toLowerCase()
      ],
    );
    const call = async (path: string, body: unknown) => {
      const r = await desk.request({
        method: 'POST',
        url: api(path),
        body,
        csrf: false,
        headers: { [headerNames.csrf]: csrf, host: consoleHost },
      });
      const next = r.headers[headerNames.csrf.toLowerCase()];
      if (typeof next === 'string') csrf = next;
      return r;
    };
    expect(code(await call(consolePaths.consoleSession, { name: 'rita.rep', password: staffPassword }))).toBe(
      1200,
    );
    nextStep();
    expect(code(await call(consolePaths.consoleFactor, { securityCode: codeOf(staffSecret) }))).toBe(1200);
    const lift = (reason: string) =>
      call(consolePaths.consoleLift, { username: 'holdtoken03', action: 'unblock-factors', reason });
    expect(code(await lift('Customer verified by call-back'))).toBe(1200);
    // Nothing left to lift.
    expect(code(await lift('Again'))).toBe(1409);
    expect(await mails('holdtoken03@example.com', 'unblocked the verification methods')).toHaveLength(1);

    const after = await atFactor(app, 'holdtoken03');
    expect(code(await tokenCheck(after, credentialId, codeOf(secret)))).toBe(1200);
  });

  test('one-time codes by text: the third lock in a day holds the channel, and no text is sent while it is held', async () => {
    const { app, ctx } = await h.start({
      ...WIDE_LIMITS,
      FACTOR_MAX_WRONG_TRIES: '2',
      FACTOR_MAX_SENDS: '100',
    });
    const account = await factorAccount(ctx, 'holdsms01', {
      phones: [{ value: '2025550188' }],
      emails: [{ value: 'holdsms01@example.com' }],
    });
    const lock = async () => {
      const browser = await atFactor(app, 'holdsms01');
      const id = (await contacts(browser)).phone[0]!.value;
      const sent = await sendSms(browser, id);
      expect(code(sent), sent.body).toBe(1200);
      const wrong = async () =>
        code(
          await browser.request({ method: 'PUT', url: api(paths.otpSms), body: { securityCode: '000000' } }),
        );
      return [await wrong(), await wrong()];
    };
    expect(await lock()).toEqual([1428, 1491]);
    h.clock.advance(61 * MINUTE);
    expect(await lock()).toEqual([1428, 1491]);
    h.clock.advance(61 * MINUTE);
    const third = await lock();
    expect(third).toEqual([1428, 1491]);
    expect(await events(account.id, 'factor-held')).toHaveLength(1);
    expect(await mails('holdsms01@example.com', HELD_NOTICE)).toHaveLength(1);
    // Hours later: no text is sent while the channel is held.
    h.clock.advance(3 * 60 * MINUTE);
    const browser = await atFactor(app, 'holdsms01');
    const id = (await contacts(browser)).phone[0]!.value;
    const refused = await sendSms(browser, id);
    expectFailureEnvelope(refused, 200, 1491);
    expect(message(refused)).toMatch(/blocked after too many incorrect codes/);
    // Three codes (the notices of the blocks and the hold go to this established phone too).
    expect(await codeTexts('+12025550188')).toBe(3);
  });

  // --- token resync --------------------------------------------------------------------------------

  test("token resync looks only TOKEN_RESYNC_WINDOW_MINUTES either way of the token's clock: codes 50 minutes old are refused", async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    nextStep();
    const { credential, secret, credentialId } = await tokenAccount(ctx, 'resync01');
    const browser = await atFactor(app, 'resync01');
    // Two codes an attacker saw 50 minutes ago (100 steps).
    expectFailureEnvelope(await tokenSync(browser, codeOf(secret, -101), codeOf(secret, -100)), 200, 1428);
    // Six minutes either way: outside the default 5.
    expectFailureEnvelope(await tokenSync(browser, codeOf(secret, 11), codeOf(secret, 12)), 200, 1428);
    expect((await ctx.credentials.get(credential.id))?.data.drift).toBe(0);
    // The owner's current code still signs in.
    expect(code(await tokenCheck(browser, credentialId, codeOf(secret)))).toBe(1200);
  });

  test("after a resync the token's current code signs in once; codes older than the last accepted step never again", async () => {
    const { app, ctx } = await h.start(WIDE_LIMITS);
    nextStep();
    const { credential, secret, credentialId } = await tokenAccount(ctx, 'resync02');
    const drifted = (extra = 0) => codeOf(secret, 7 + extra);
    const browser = await atFactor(app, 'resync02');
    expectFailureEnvelope(await tokenCheck(browser, credentialId, drifted()), 200, 1428);
    expectFailureEnvelope(await tokenCheck(browser, credentialId, drifted()), 200, 1491);
    const synced = await tokenSync(browser, drifted(-1), drifted());
    expect(code(synced), synced.body).toBe(1200);
    expect((await ctx.credentials.get(credential.id))?.data.drift).toBe(7);
    // Back on the token screen: the code the token shows now signs in.
    expect(code(await tokenCheck(browser, credentialId, drifted()))).toBe(1200);

    // Another sign-in: that code, the resync's first and older ones are refused; a resync with
    // codes older than the last accepted step too.
    const next = await atFactor(app, 'resync02');
    expectFailureEnvelope(await tokenCheck(next, credentialId, drifted()), 200, 1428);
    expectFailureEnvelope(await tokenCheck(next, credentialId, drifted(-1)), 200, 1428);
    expectFailureEnvelope(await tokenSync(next, drifted(-3), drifted(-2)), 200, 1428);
    expectFailureEnvelope(await tokenSync(next, drifted(-1), drifted()), 200, 1428);
    // A minute later the token's newer codes resync it again, and its current code signs in.
    nextStep();
    nextStep();
    const again = await tokenSync(next, drifted(-1), drifted());
    expect(code(again), again.body).toBe(1200);
    expect(code(await tokenCheck(next, credentialId, drifted()))).toBe(1200);
  });
});
