import type { AuthenticatorItem, Contact } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { maskPhoneLabel } from '../src/lib/mask.ts';
import {
  atFactor,
  authenticators,
  contacts,
  DAY,
  demoContacts,
  factorAccount,
  otpState,
  PASSWORD,
} from './support/factors.ts';
import { Client, code, expectFailureEnvelope, json, targets, useHarness } from './support/harness.ts';

const types = (list: AuthenticatorItem[] | undefined) => list?.map((a) => a.type);

describe('phone masking', () => {
  test("US numbers '(XXX) XXX-' and the last 4 digits; other countries '+code XXXXXX' and the last 4", () => {
    expect(maskPhoneLabel('2025550143', '1')).toBe('(XXX) XXX-0143');
    expect(maskPhoneLabel('(202) 555-0143', null)).toBe('(XXX) XXX-0143');
    expect(maskPhoneLabel('7911123456', '44')).toBe('+44 XXXXXX3456');
  });
});

describe.each(targets)('allowed authenticators and OTP state ($name)', (target) => {
  const h = useHarness(target);

  test('session login 1201 lists them in the order SMS, VOICE, EMAIL, from the contacts', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    await factorAccount(ctx, 'textonly01', {
      phones: [{ value: '2025550101' }],
      emails: [{ value: 'textonly01@example.com' }],
    });
    await factorAccount(ctx, 'emailonly1', { emails: [{ value: 'emailonly1@example.com' }] });
    await factorAccount(ctx, 'phoneonly1', { phones: [{ value: '2025550102', voice: true }] });
    for (const [username, expected] of [
      ['allfactor1', ['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL']],
      ['textonly01', ['OTP-SMS', 'OTP-EMAIL']],
      ['emailonly1', ['OTP-EMAIL']],
      ['phoneonly1', ['OTP-SMS', 'OTP-VOICE']],
    ] as const) {
      const client = new Client(app);
      expect(code(await client.signInPassword(username, PASSWORD))).toBe(1200);
      const login = await client.sessionLogin();
      expect(code(login), username).toBe(1201);
      const data = json<{ authenticated: boolean; authenticators: AuthenticatorItem[] }>(login).successData!;
      expect(data.authenticated).toBe(false);
      expect(data.authenticators, username).toEqual(expected.map((type) => ({ type })));
      // Asked again (the widget's step-up path asks the server): the same list.
      const again = await authenticators(client);
      expect(again.statusCode).toBe(200);
      expect(types(json<{ authenticators: AuthenticatorItem[] }>(again).successData!.authenticators)).toEqual(
        expected,
      );
      // Session login again in the same transaction: still 1201 with the list.
      expect(
        types(
          json<{ authenticators: AuthenticatorItem[] }>(await client.sessionLogin()).successData!
            .authenticators,
        ),
      ).toEqual(expected);
    }
  });

  test('a factor due but no contact at all: 1201 with an empty list (the widget opens the representative page)', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'nocontact1');
    const client = new Client(app);
    await client.signInPassword('nocontact1', PASSWORD);
    const login = await client.sessionLogin();
    expect(code(login)).toBe(1201);
    expect(json<{ authenticators: AuthenticatorItem[] }>(login).successData!.authenticators).toEqual([]);
    expect(json<{ authenticators: AuthenticatorItem[] }>(await authenticators(client)).successData).toEqual({
      authenticators: [],
    });
  });

  test('GET authenticators and OTP state: 401 without a session, and in the password step', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'allfactor1', demoContacts('allfactor1', ctx.clock.now()));
    const anonymous = new Client(app);
    expectFailureEnvelope(await authenticators(anonymous), 401, 4401);
    expectFailureEnvelope(await otpState(anonymous), 401, 4401);
    // Password right, session login not called yet: no factor is due yet.
    const early = new Client(app);
    await early.signInPassword('allfactor1', PASSWORD);
    expectFailureEnvelope(await authenticators(early), 401, 4401);
    expectFailureEnvelope(await otpState(early), 401, 4401);
  });

  test('step-up: a signed-in session gets its authenticators and OTP state too', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(
      ctx,
      'stepuser01',
      { phones: [{ value: '2025550143', voice: true }], emails: [{ value: 'stepuser01@example.com' }] },
      { secondFactor: false },
    );
    const client = new Client(app);
    await client.signIn('stepuser01', PASSWORD);
    expect(
      types(
        json<{ authenticators: AuthenticatorItem[] }>(await authenticators(client)).successData!
          .authenticators,
      ),
    ).toEqual(['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL']);
    expect((await contacts(client)).phone).toHaveLength(1);
  });

  test('OTP state: opaque ids as values, masked labels, enable false for a contact newer than 2 days', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'allfactor1', {
      phones: [
        { value: '2025550143', voice: true },
        { value: '7911123456', countryCode: '44', addedAt: new Date(ctx.clock.now().getTime() - DAY) },
      ],
      emails: [{ value: 'allfactor1@example.com' }],
    });
    const client = await atFactor(app, 'allfactor1');
    const r = await otpState(client);
    expect(r.statusCode).toBe(200);
    expect(json(r).responseBaseInfo.status).toEqual({ code: 1200, message: 'Success' });
    const rows = await ctx.db
      .selectFrom('credentials')
      .select(['id', 'public_part'])
      .where('account_id', '=', account.id)
      .execute();
    const id = (value: string) => rows.find((row) => row.public_part === value)!.id;
    expect(json<{ phone: Contact[]; email: Contact[] }>(r).successData).toEqual({
      phone: [
        { type: 'TEXT', value: id('2025550143'), countryCode: '1', label: '(XXX) XXX-0143', enable: true },
        { type: 'TEXT', value: id('7911123456'), countryCode: '44', label: '+44 XXXXXX3456', enable: false },
      ],
      email: [
        { type: 'EMAIL', value: id('allfactor1@example.com'), label: 'a****1@example.com', enable: true },
      ],
    });
    // Nothing of the numbers or the address beyond the masks.
    expect(r.body).not.toContain('2025550143');
    expect(r.body).not.toContain('7911123456');
    expect(r.body).not.toContain('allfactor1@');

    // Two days after it was added, the new phone can be used (in a new login transaction).
    h.clock.advance(DAY);
    const later = await atFactor(app, 'allfactor1');
    expect((await contacts(later)).phone.map((p) => p.enable)).toEqual([true, true]);
  });

  test('CONTACT_WAIT_DAYS moves the wait; the timestamp query is optional and checked', async () => {
    const { app, ctx } = await h.start({ CONTACT_WAIT_DAYS: '5' });
    await factorAccount(ctx, 'allfactor1', {
      phones: [{ value: '2025550143', addedAt: new Date(ctx.clock.now().getTime() - 3 * DAY) }],
    });
    const client = await atFactor(app, 'allfactor1');
    expect((await contacts(client)).phone[0]!.enable).toBe(false);
    expectFailureEnvelope(await otpState(client, 'yesterday'), 400, 4400);
    h.clock.advance(2 * DAY);
    const later = await atFactor(app, 'allfactor1');
    expect((await contacts(later)).phone[0]!.enable).toBe(true);
    expect(code(await later.get('/api/user/factor/otp/state'))).toBe(1200);
  });
});
