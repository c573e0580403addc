import { format, smsTemplate } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { sha256 } from '../src/lib/crypto.ts';
import { voiceText } from '../src/services/sms.ts';
import {
  atFactor,
  check,
  contacts,
  demoContacts,
  factorAccount,
  latestMessage,
  PASSWORD,
  sendEmail,
  sendSms,
  sendVoice,
  TEMPLATE,
} from './support/factors.ts';
import {
  Client,
  code,
  expectFailureEnvelope,
  json,
  setCookieLine,
  targets,
  useHarness,
} from './support/harness.ts';
import { wrongCode } from './support/recovery.ts';

const NUMBER = '+12025550143';
const NOT_RECOGNIZED = 'Security code not recognized. Try again.';

describe('voice text', () => {
  test('reads the code twice, digit by digit', () => {
    expect(voiceText('012345')).toBe(
      'Your security code is 0, 1, 2, 3, 4, 5. Again, your security code is 0, 1, 2, 3, 4, 5.',
    );
  });
});

describe.each(targets)('one-time-code second factor ($name)', (target) => {
  const h = useHarness(target);

  const sessionRow = (token: string) =>
    h.db.selectFrom('sessions').selectAll().where('id', '=', sha256(token)).executeTakeFirstOrThrow();
  /** The login journey a token (the ET cookie before sign-in completes) is bound to. */
  const journeyRow = (token: string) =>
    h.db.selectFrom('journeys').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
  /** The factors recorded on a session: kind and journey kind, oldest first. */
  const sessionFactors = async (token: string) =>
    (
      await h.db
        .selectFrom('session_factors')
        .select(['kind', 'journey_kind'])
        .where('session_id', '=', sha256(token))
        .orderBy('verified_at')
        .orderBy('level')
        .execute()
    ).map((f) => `${f.journey_kind}:${f.kind}`);

  /** An all-factors account in the login transaction, and its contacts from the OTP state. */
  async function start(env: Record<string, string> = {}, username = 'allfactor1') {
    const started = await h.start(env);
    const account = await factorAccount(
      started.ctx,
      username,
      demoContacts(username, started.ctx.clock.now()),
    );
    const client = await atFactor(started.app, username);
    const state = await contacts(client);
    return {
      ...started,
      account,
      client,
      voicePhone: state.phone[0]!,
      newPhone: state.phone[1]!,
      email: state.email[0]!,
    };
  }

  test('text: the template with the code goes to the full number (outbox), 1200 names the masked number', async () => {
    const { client, voicePhone, ctx, logs } = await start();
    const r = await sendSms(client, voicePhone.value);
    expect(r.statusCode).toBe(200);
    expect(json(r).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'We sent the code to (XXX) XXX-0143. It will expire after 30 minutes.',
    });
    expect(json(r).redirectPath).toBeUndefined();
    const message = await latestMessage(ctx.db, NUMBER);
    expect(message.channel).toBe('sms');
    expect(message.code).toMatch(/^\d{6}$/);
    expect(message.text).toBe(TEMPLATE.replace('$$CODE$$', message.code!));
    // Only an HMAC of the code is stored, bound to this login transaction.
    const [row] = await ctx.db.selectFrom('otp_codes').selectAll().execute();
    expect(row!.channel).toBe('sms');
    expect(row!.code_hash).not.toContain(message.code!);
    expect(row!.journey_id).toBe((await journeyRow(client.cookies.get('ET')!)).id);
    expect(new Date(row!.expires_at).getTime() - new Date(row!.created_at).getTime()).toBe(30 * 60_000);
    // Neither the code nor the full number reaches the log.
    expect(logs.some((l) => l.includes(`code is: ${message.code}`) || l.includes('2025550143'))).toBe(false);
  });

  test('text: the server owns the text: only the template with an allowed short name is sent (else 400, nothing sent)', async () => {
    const { client, voicePhone, ctx } = await start();
    const phishing =
      'PrimeSrv msg: Your account is suspended. Call +1 900 555 0100 now and quote $$CODE$$ to restore it.';
    for (const message of [
      'Prime msg: no code here',
      'Prime msg: $$CODE$$ and again $$CODE$$',
      `${TEMPLATE}${'x'.repeat(400 - TEMPLATE.length + 1)}`,
      'Prime msg:\n$$CODE$$',
      phishing,
      `${TEMPLATE} `,
      format(smsTemplate, 'EvilBank'),
    ]) {
      const body = expectFailureEnvelope(await sendSms(client, voicePhone.value, message), 400, 4400);
      expect(body.responseBaseInfo.status.message).toMatch(/^The request is not valid: message/);
    }
    expect(await ctx.db.selectFrom('outbox').selectAll().execute()).toHaveLength(0);
    // Every configured short name is allowed, each in exactly the contract's template.
    expect(code(await sendSms(client, voicePhone.value, format(smsTemplate, 'Gatehouse')))).toBe(1200);
    const sent = await ctx.db.selectFrom('outbox').selectAll().execute();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toBe(format(smsTemplate, 'Gatehouse').replace('$$CODE$$', sent[0]!.code!));
  });

  test('the contact must be an enabled contact of this account, of the channel: else 1403 and nothing is sent', async () => {
    const { client, voicePhone, newPhone, email, app, ctx } = await start();
    await factorAccount(ctx, 'otheruser1', demoContacts('otheruser1', ctx.clock.now()));
    const other = await contacts(await atFactor(app, 'otheruser1'));
    for (const [send, id] of [
      [sendSms, newPhone.value], // added today: enable false
      [sendVoice, newPhone.value], // no voice either
      [sendSms, other.phone[0]!.value], // another account's phone
      [sendSms, email.value], // an e-mail contact by text
      [sendEmail, voicePhone.value], // a phone by e-mail
      [sendSms, '2025550143'], // the number itself is not a handle
      [sendSms, 'not-an-id'],
    ] as const) {
      const body = expectFailureEnvelope(await send(client, id), 200, 1403);
      expect(body.responseBaseInfo.status.message).toBe(
        'This contact cannot be used to verify your identity.',
      );
    }
    expect(await ctx.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
  });

  test('voice: reads the code twice to a phone that takes calls; a channel the account lacks is 1403', async () => {
    const { client, voicePhone, ctx, app } = await start();
    const r = await sendVoice(client, voicePhone.value);
    expect(json(r).responseBaseInfo.status).toEqual({
      code: 1200,
      message: "We're calling (XXX) XXX-0143 with the code. It will expire after 30 minutes.",
    });
    const message = await latestMessage(ctx.db, NUMBER);
    expect(message.channel).toBe('voice');
    expect(message.text).toBe(voiceText(message.code!));
    expect(code(await check(client, 'voice', message.code!))).toBe(1200);

    // An account without a voice phone: OTP-VOICE is not allowed.
    await factorAccount(ctx, 'textonly01', { phones: [{ value: '2025550101' }] });
    const textOnly = await atFactor(app, 'textonly01');
    const phone = (await contacts(textOnly)).phone[0]!;
    const body = expectFailureEnvelope(await sendVoice(textOnly, phone.value), 200, 1403);
    expect(body.responseBaseInfo.status.message).toBe(
      'This verification method is not available for your account.',
    );
  });

  test('login: the right code authenticates under a new token; session login then completes with SESSION_SCTX', async () => {
    const { client, voicePhone, ctx } = await start();
    await sendSms(client, voicePhone.value);
    const before = client.cookies.get('ET')!;
    const xsrfBefore = client.cookies.get('XSRF-TOKEN')!;
    const r = await check(client, 'sms', (await latestMessage(ctx.db, NUMBER)).code!);
    expect(r.statusCode).toBe(200);
    const body = json<{ authenticated: boolean; factor: string }>(r);
    expect(body.responseBaseInfo.status).toEqual({ code: 1200, message: 'Identity verified' });
    expect(body.redirectPath).toBeUndefined();
    expect(body.successData).toEqual({ authenticated: true, factor: 'OTP-SMS' });
    expect(setCookieLine(r, 'ET')).toMatch(/HttpOnly/);
    const after = client.cookies.get('ET')!;
    expect(after).not.toBe(before);
    expect(client.cookies.get('XSRF-TOKEN')).not.toBe(xsrfBefore);
    // The old token is dead (its login journey completed); the new one is a signed-in session that
    // passed the password and OTP-SMS, with no step-up.
    expect((await journeyRow(before)).state).toBe('completed');
    expect((await sessionRow(after)).ended_at).toBeNull();
    expect(await sessionFactors(after)).toEqual(['login:password', 'login:OTP-SMS']);

    const login = await client.sessionLogin({ SESSION_CTX: 'PRIMESRVPORTAL' });
    expect(code(login)).toBe(1200);
    expect(json(login).callbacks).toBeUndefined();
    expect(json(login).successData).toMatchObject({ authenticated: true, context: 'PRIMESRVPORTAL' });
    expect(setCookieLine(login, 'SESSION_SCTX')).toMatch(/^SESSION_SCTX=PRIMESRVPORTAL;/);
    expect((await sessionRow(after)).context).toBe('PRIMESRVPORTAL');
    expect(code(await client.session())).toBe(1200);
  });

  test('e-mail: in the login transaction the e-mail path is the factor (contact id), not recovery', async () => {
    const { client, email, ctx } = await start();
    const r = await sendEmail(client, email.value);
    expect(json(r).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'We sent the code to a****1@example.com. It will expire after 30 minutes.',
    });
    expect(client.cookies.has('GH_RECOVERY')).toBe(false);
    const message = await latestMessage(ctx.db, 'allfactor1@example.com');
    expect(message.channel).toBe('email');
    expect(code(await check(client, 'email', wrongCode(message.code!)))).toBe(1428);
    expect(code(await check(client, 'email', message.code!))).toBe(1200);
    expect(code(await client.sessionLogin())).toBe(1200);
    expect(await ctx.db.selectFrom('journeys').selectAll().where('kind', '=', 'recovery').execute()).toEqual(
      [],
    );
  });

  test('wrong code: 1428 with the §8 message; a code of another channel or transaction, an expired one, a used one: 1428', async () => {
    const { client, voicePhone, email, ctx, app } = await start();
    await sendSms(client, voicePhone.value);
    const sms = (await latestMessage(ctx.db, NUMBER)).code!;
    const wrong = expectFailureEnvelope(await check(client, 'sms', wrongCode(sms)), 200, 1428);
    expect(wrong.responseBaseInfo.status.message).toBe(NOT_RECOGNIZED);
    // The text code is no e-mail code.
    await sendEmail(client, email.value);
    expect(code(await check(client, 'email', sms))).toBe(1428);
    // Another login transaction of the same account cannot use this transaction's code.
    const other = await atFactor(app, 'allfactor1');
    expect(code(await check(other, 'sms', sms))).toBe(1428);
    // Expired after 30 minutes (a fresh transaction sends a new code, then the clock moves).
    const late = await atFactor(app, 'allfactor1');
    await sendSms(late, voicePhone.value);
    const lateCode = (await latestMessage(ctx.db, NUMBER)).code!;
    h.clock.advance(29 * 60_000);
    await contacts(late); // activity keeps the transaction alive
    h.clock.advance(60_000 + 1);
    expect(code(await check(late, 'sms', lateCode))).toBe(1428);
  });

  test('a resend replaces the code; a used code is never accepted again', async () => {
    const { client, voicePhone, ctx } = await start();
    await sendSms(client, voicePhone.value);
    const first = (await latestMessage(ctx.db, NUMBER)).code!;
    h.clock.advance(1000);
    await sendSms(client, voicePhone.value);
    const second = (await latestMessage(ctx.db, NUMBER)).code!;
    if (first !== second) expect(code(await check(client, 'sms', first))).toBe(1428);
    expect(code(await check(client, 'sms', second))).toBe(1200);
    // The session moved on; the same code on the new session is refused.
    expect(code(await check(client, 'sms', second))).toBe(1428);
  });

  test('8 simultaneous submissions of the right code: exactly one 1200, no wrong try counted', async () => {
    const { client, voicePhone, ctx, account } = await start();
    await sendSms(client, voicePhone.value);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    const results = await Promise.all(Array.from({ length: 8 }, () => check(client, 'sms', right)));
    const codes = results.map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(1);
    // The others: the code was used (1428), or the session had already moved on (401).
    for (const c of codes.filter((c) => c !== 1200)) expect([1428, 4401, 1401]).toContain(c);
    const counter = await ctx.db
      .selectFrom('otp_counters')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('channel', '=', 'factor:sms')
      .executeTakeFirstOrThrow();
    expect(counter.wrong_tries).toBe(0);
    const live = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('account_id', '=', account.id)
      .where('ended_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
  });

  test('FACTOR_MAX_WRONG_TRIES wrong codes (across resends and a restart): 1491, the login transaction ends, the account stays active', async () => {
    const { client, voicePhone, ctx, app, account } = await start({ FACTOR_MAX_WRONG_TRIES: '3' });
    await sendSms(client, voicePhone.value);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    expect(code(await check(client, 'sms', wrongCode(right)))).toBe(1428);
    h.clock.advance(1000);
    await sendSms(client, voicePhone.value); // a resend does not reset the count
    const resent = (await latestMessage(ctx.db, NUMBER)).code!;
    expect(code(await check(client, 'sms', wrongCode(resent)))).toBe(1428);

    // A restart (a second instance on the same database) keeps counting.
    const second = await h.start({ FACTOR_MAX_WRONG_TRIES: '3' }, { db: await h.another() });
    const moved = new Client(second.app);
    for (const [name, value] of client.cookies) moved.cookies.set(name, value);
    const last = await check(moved, 'sms', wrongCode(resent));
    const body = expectFailureEnvelope(last, 200, 1491);
    expect(body.responseBaseInfo.status.message).toBe('Please try another method to verify your identity.');
    expect(moved.cookies.has('ET')).toBe(false);
    // The transaction is over: even the right code, and session login, are refused.
    expect((await journeyRow(client.cookies.get('ET')!)).state).toBe('failed');
    expectFailureEnvelope(await check(client, 'sms', resent), 401, 4401);
    expectFailureEnvelope(await client.sessionLogin(), 401, 1401);
    const status = await ctx.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe('active');

    // A new transaction: text stays refused for FACTOR_LOCKOUT_MINUTES; e-mail still works.
    const again = await atFactor(app, 'allfactor1');
    expect(code(await sendSms(again, voicePhone.value))).toBe(1491);
    const mail = (await contacts(again)).email[0]!;
    expect(code(await sendEmail(again, mail.value))).toBe(1200);
    h.clock.advance(30 * 60_000);
    const later = await atFactor(app, 'allfactor1');
    expect(code(await sendSms(later, voicePhone.value))).toBe(1200);
    expect(code(await check(later, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
  });

  test('FACTOR_MAX_SENDS sends without a correct code: 1491 and nothing sent; the account is not blocked; recovery is untouched', async () => {
    const { client, voicePhone, ctx, account } = await start({ FACTOR_MAX_SENDS: '2' });
    expect(code(await sendSms(client, voicePhone.value))).toBe(1200);
    expect(code(await sendSms(client, voicePhone.value))).toBe(1200);
    const body = expectFailureEnvelope(await sendSms(client, voicePhone.value), 200, 1491);
    expect(body.responseBaseInfo.status.message).toBe('Please try another method to verify your identity.');
    expect(await ctx.db.selectFrom('outbox').selectAll().where('channel', '=', 'sms').execute()).toHaveLength(
      2,
    );
    // The last code sent still works; the transaction goes on.
    expect(code(await check(client, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
    const row = await ctx.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    // Recovery's e-mail counters are separate.
    const recovery = await ctx.db
      .selectFrom('otp_counters')
      .selectAll()
      .where('account_id', '=', account.id)
      .where('channel', '=', 'email')
      .executeTakeFirst();
    expect(recovery).toBeUndefined();
  });

  test('e-mail sends past the limit do not block the account (the recovery rule is 3 sends)', async () => {
    const { client, email, ctx, account } = await start();
    for (let i = 0; i < 5; i++) expect(code(await sendEmail(client, email.value))).toBe(1200);
    expect(code(await sendEmail(client, email.value))).toBe(1491);
    const row = await ctx.db
      .selectFrom('accounts')
      .select('status')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    expect(code(await client.sessionLogin())).toBe(1201);
  });

  test('SMS_OUTAGE: text sends answer 1224 with ruleData.carrierOutage, and the code is still sent', async () => {
    const { client, voicePhone, ctx } = await start({ SMS_OUTAGE: 'true' });
    const r = await sendSms(client, voicePhone.value);
    expect(r.statusCode).toBe(200);
    const body = json(r);
    expect(body.responseBaseInfo.status).toEqual({
      code: 1224,
      message: 'There may be a problem texting a code to your number at this time',
    });
    expect(body.ruleData).toEqual({ carrierOutage: true });
    expect(body.errorType).toBeUndefined();
    expect(code(await check(client, 'sms', (await latestMessage(ctx.db, NUMBER)).code!))).toBe(1200);
    // Voice is not affected.
    expect(
      code(
        await sendVoice(
          await atFactor((await h.start({ SMS_OUTAGE: 'true' })).app, 'allfactor1'),
          voicePhone.value,
        ),
      ),
    ).toBe(1200);
  });

  test('representative code without a code issued: 1428, counted as a wrong try (the console issues codes: console.test.ts)', async () => {
    const { client, account, ctx } = await start();
    const body = expectFailureEnvelope(await check(client, 'rep', '123456'), 200, 1428);
    expect(body.responseBaseInfo.status.message).toBe(NOT_RECOGNIZED);
    const counters = await ctx.db
      .selectFrom('otp_counters')
      .select(['channel', 'wrong_tries'])
      .where('account_id', '=', account.id)
      .execute();
    expect(counters).toEqual([{ channel: 'factor:rep', wrong_tries: 1 }]);
    expectFailureEnvelope(await check(new Client((await h.start()).app), 'rep', '123456'), 401, 4401);
  });

  test('without a session whose factor is due: 401 on text and voice; the password step is not enough', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const anonymous = new Client(app);
    expectFailureEnvelope(await sendSms(anonymous, '00000000-0000-4000-8000-000000000000'), 401, 4401);
    expectFailureEnvelope(await check(anonymous, 'voice', '123456'), 401, 4401);
    const early = new Client(app);
    await early.signInPassword('allfactor1', PASSWORD);
    expectFailureEnvelope(await sendVoice(early, '00000000-0000-4000-8000-000000000000'), 401, 4401);
    // CSRF as everywhere.
    const client = await atFactor(app, 'allfactor1');
    const refused = await client.request({
      method: 'PUT',
      url: '/api/user/factor/otp/sms/authentication',
      body: { securityCode: '123456' },
      csrf: false,
    });
    expectFailureEnvelope(refused, 403, 4403);
  });

  test('step-up: a signed-in session proves a factor again: 1200, a new token, steppedUpAt on the session', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'stepuser01', demoContacts('stepuser01', ctx.clock.now()), {
      secondFactor: false,
    });
    const client = new Client(app);
    await client.signIn('stepuser01', PASSWORD);
    const signedIn = client.cookies.get('ET')!;
    const before = await sessionRow(signedIn);
    expect(json(await client.session()).successData).not.toHaveProperty('steppedUpAt');

    h.clock.advance(60_000);
    const phone = (await contacts(client)).phone[0]!;
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const r = await check(client, 'sms', (await latestMessage(ctx.db, NUMBER)).code!, true);
    expect(code(r)).toBe(1200);
    const data = json<{ steppedUpAt: string }>(r).successData!;
    expect(data).toMatchObject({ authenticated: true, factor: 'OTP-SMS' });
    const steppedUp = new Date(data.steppedUpAt).getTime();
    expect(steppedUp).toBeLessThanOrEqual(h.clock.now().getTime());
    expect(steppedUp).toBeGreaterThan(h.clock.now().getTime() - 10_000);
    const token = client.cookies.get('ET')!;
    expect(token).not.toBe(signedIn);
    expect((await sessionRow(signedIn)).end_reason).toBe('rotated');
    const after = await sessionRow(token);
    expect(after.ended_at).toBeNull();
    expect(await sessionFactors(token)).toEqual(['login:password', 'stepup:OTP-SMS']);
    // The sign-in time and the absolute limit stay those of the sign-in.
    expect(new Date(after.created_at).getTime()).toBe(new Date(before.created_at).getTime());
    expect(new Date(after.absolute_expires_at).getTime()).toBe(
      new Date(before.absolute_expires_at).getTime(),
    );
    // bindDevice is ignored in step-up (login journey only).
    expect(await ctx.db.selectFrom('trusted_devices').selectAll().execute()).toEqual([]);

    const guard = await client.session();
    expect(code(guard)).toBe(1200);
    expect(json<{ steppedUpAt: string }>(guard).successData!.steppedUpAt).toBe(data.steppedUpAt);
    // Wrong codes in step-up: 1428, then 1491, and the signed-in session stays.
    expect(code(await sendSms(client, phone.value))).toBe(1200);
    const right = (await latestMessage(ctx.db, NUMBER)).code!;
    for (let i = 0; i < 4; i++) expect(code(await check(client, 'sms', wrongCode(right)))).toBe(1428);
    expect(code(await check(client, 'sms', wrongCode(right)))).toBe(1491);
    expect(code(await client.session())).toBe(1200);
  });

  test('recovery keeps its own behaviour beside the factor: a live GH_RECOVERY flow decides the e-mail path', async () => {
    const { client, ctx } = await start();
    // The portal's skip path: identify first (a recovery flow), then the e-mail calls are recovery's.
    expect(code(await client.post('/api/user/identity/username', { username: 'allfactor1' }))).toBe(1200);
    const masked = json<{ email: Array<{ value: string }> }>(
      await client.get('/api/user/identity/attributes?attributes=email'),
    ).successData!.email[0]!.value;
    const sent = await sendEmail(client, masked);
    expect(json(sent).responseBaseInfo.status.code).toBe(1200);
    expect(json(sent).responseBaseInfo.status.message).toMatch(/^A validation code has been emailed to you/);
    const mail = await latestMessage(ctx.db, 'allfactor1@example.com');
    expect(json(await check(client, 'email', mail.code!)).responseBaseInfo.status).toEqual({
      code: 1200,
      message: 'Your one-time code is confirmed.',
    });
    // The login transaction did not move: its factor is still due.
    expect(code(await client.sessionLogin())).toBe(1201);
  });
});
