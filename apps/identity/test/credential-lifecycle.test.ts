import { randomBytes } from 'node:crypto';
import { paths, type SecurityOverviewData, securityPaths } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { maskEmail } from '../src/lib/mask.ts';
import { addApp, appClock, totpCheck, wrongOf } from './support/app-codes.ts';
import { DeviceApp, prepared, pushSendBody, TestDevice } from './support/device.ts';
import { DAY, factorAccount, PASSWORD } from './support/factors.ts';
import { api, Client, code, expectFailureEnvelope, json, targets, useHarness } from './support/harness.ts';
import { attributes, checkCode, identify, latestCode, putPassword, sendCode } from './support/recovery.ts';

/**
 * The credential lifecycle (issue 22 findings 1, 2 and 8's device cap; docs/decisions/030): a
 * credential is recent for CONTACT_WAIT_DAYS after it is added, then established. Adding one needs
 * the security page's step-up proved by an established factor; a recent one signs in but cannot
 * satisfy that step-up, receive recovery codes or take pushes from an established device; removing
 * the last established one is refused; caps per account hold under bursts; the owner hears of every
 * change by every established contact, in the account's language.
 */

const NEW_PASSWORD = 'Cedar5Brook';

const data = <T>(r: LightMyRequestResponse) => {
  expect(code(r), r.body).toBe(1200);
  return json<T>(r).successData!;
};
const overviewOf = (client: Client) => client.get(api(securityPaths.securityOverview));
const enroll = (client: Client) => client.post(api(securityPaths.securityAuthenticatorEnrollment), {});
const addContact = (client: Client, kind: 'phone' | 'email', value: string) =>
  client.post(api(securityPaths.securityContacts), { kind, value });
const confirmContact = (client: Client, confirmationId: string, securityCode: string) =>
  client.post(api(securityPaths.securityContactConfirmation), { confirmationId, securityCode });
const removeContact = (client: Client, id: string) =>
  client.post(api(securityPaths.securityContactRemove), { id });
const removeCredential = (client: Client, id: string) =>
  client.post(api(securityPaths.securityCredentialRemove), { id });
const sendPush = (client: Client) => client.post(api(paths.pushAuthentication), pushSendBody);
const pollPush = (client: Client, id: string) => client.post(api(paths.pushStatus), { id });
const authenticatorsOf = async (client: Client) =>
  data<{ authenticators: Array<{ type: string }>; recent?: string[] }>(
    await client.get(api(paths.authenticators)),
  );
const register = async (client: Client, device: TestDevice, name = 'My phone') =>
  client.post(api(paths.deviceRegister), {
    publicKey: device.publicKey,
    name,
    proof: await device.proof('register'),
  });

describe.each(targets)('the credential lifecycle ($name)', (target) => {
  const h = useHarness(target);

  const { codeOf, nextStep } = appClock(h);

  /** The owner's account: an established e-mail (also the account row's), app and push device. */
  async function owner(ctx: Context, username: string, options: { secondFactor?: boolean } = {}) {
    const account = await factorAccount(
      ctx,
      username,
      { emails: [{ value: `${username}@example.com` }] },
      { secondFactor: options.secondFactor ?? true },
    );
    const { secret } = await addApp(ctx, account.id);
    const device = await TestDevice.create(h.clock);
    await device.enrol(ctx, account.id, "Owner's phone");
    return { account, secret, device };
  }

  /** A signed-in browser (the app's code when a factor is due). */
  async function signIn(
    app: FastifyInstance,
    username: string,
    secret: Uint8Array,
    browser = new Client(app),
  ) {
    expect(code(await browser.signInPassword(username, PASSWORD))).toBe(1200);
    const login = await browser.sessionLogin();
    if (code(login) === 1201) {
      nextStep();
      expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
    } else expect(code(login)).toBe(1200);
    return browser;
  }

  /** The security page's step-up with the app (a STEPUP journey). */
  async function stepUp(browser: Client, secret: Uint8Array) {
    nextStep();
    const r = await totpCheck(browser, codeOf(secret));
    expect(code(r), r.body).toBe(1200);
  }

  const emailsTo = async (to: string) =>
    h.db
      .selectFrom('outbox')
      .select(['channel', 'text', 'code'])
      .where('recipient', '=', to)
      .orderBy('sent_at')
      .execute();
  const credentialIds = async (accountId: string) =>
    (
      await h.db
        .selectFrom('credentials')
        .select(['id', 'kind'])
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute()
    ).map((c) => `${c.kind}:${c.id}`);

  test("a client holding only the owner's session cookie, minutes after sign-in, cannot take the account: every step is refused and the owner's password still works", async () => {
    const { app, ctx } = await h.start();
    const { account, secret, device } = await owner(ctx, 'victim001');
    const ownerBrowser = await signIn(app, 'victim001', secret);
    const before = await credentialIds(account.id);

    // The thief: its own browser with the owner's session cookie only, two minutes after sign-in.
    h.clock.advance(2 * 60_000);
    const thief = new Client(app, { remoteAddress: '203.0.113.66' });
    thief.cookies.set('ET', ownerBrowser.cookies.get('ET')!);
    const thiefDevice = await TestDevice.create(h.clock);
    const thiefPhone = new DeviceApp(app, thiefDevice);

    // 1. It registers its own push device: refused, audited, no credential.
    const registered = await register(thief, thiefDevice, 'Pixel');
    expectFailureEnvelope(registered, 200, 1403);
    expect(json(registered).responseBaseInfo.status.message).toMatch(/verify your identity again/);

    // 2. It starts the security page's step-up by push: the push goes to the owner's device, and
    //    its own key can neither read it nor answer it.
    const sent = data<{ id: string }>(await sendPush(thief));
    expectFailureEnvelope(await thiefPhone.pushes(), 200, 1403);
    expectFailureEnvelope(await thiefPhone.answer(sent.id, 'APPROVE'), 200, 1403);
    const onOwnersDevice = data<{ pushes: Array<{ id: string }> }>(await new DeviceApp(app, device).pushes());
    expect(onOwnersDevice.pushes.map((p) => p.id)).toContain(sent.id);
    expect(json<{ status: string }>(await pollPush(thief, sent.id)).successData!.status).toBe('PENDING');
    expectFailureEnvelope(await overviewOf(thief), 403, 1412);

    // 3. It adds an authenticator app and its own e-mail address: refused.
    expectFailureEnvelope(await enroll(thief), 403, 1412);
    expectFailureEnvelope(await addContact(thief, 'email', 'thief@evil.example'), 403, 1412);

    // 4. It removes the owner's e-mail address (its id learnt somehow): refused.
    const ownerEmail = (await ctx.credentials.list(account.id, 'email'))[0]!;
    expectFailureEnvelope(await removeContact(thief, ownerEmail.id), 403, 1412);

    // 5. It recovers the account by its own address: that address is not on file, nothing is sent.
    const recovery = new Client(app, { remoteAddress: '203.0.113.66' });
    expect(code(await identify(recovery, 'victim001'))).toBe(1200);
    const onFile = data<{ email: Array<{ value: string }> }>(await attributes(recovery)).email.map(
      (e) => e.value,
    );
    expect(onFile).toEqual([maskEmail('victim001@example.com')]);
    expectFailureEnvelope(await sendCode(recovery, maskEmail('thief@evil.example')), 200, 1403);
    expect(await emailsTo('thief@evil.example')).toEqual([]);

    // 6. It resets the password without a confirmed recovery: refused.
    const reset = await putPassword(recovery, { username: 'victim001', newPassword: NEW_PASSWORD });
    expectFailureEnvelope(reset, 401, 4401);

    // Nothing of the account changed; the owner's password still signs in.
    expect(await credentialIds(account.id)).toEqual(before);
    expect(code(await new Client(app).signInPassword('victim001', PASSWORD))).toBe(1200);
    expectFailureEnvelope(await new Client(app).signInPassword('victim001', NEW_PASSWORD), 200, 1403);
    const refusal = await h.db
      .selectFrom('audit_events')
      .select(['event', 'outcome'])
      .where('account_id', '=', account.id)
      .where('event', '=', 'device-registered')
      .execute();
    expect(refusal).toEqual([{ event: 'device-registered', outcome: 'failure' }]);
  });

  test('a recently added e-mail address receives no recovery code until CONTACT_WAIT_DAYS have passed, and the only established address cannot be removed while it waits', async () => {
    const { app, ctx } = await h.start();
    const { account, secret } = await owner(ctx, 'waiter001', { secondFactor: false });
    const browser = await signIn(app, 'waiter001', secret);
    await stepUp(browser, secret);

    // The owner (or whoever holds the session and the app) adds a new address.
    const started = data<{ confirmationId: string }>(
      await addContact(browser, 'email', 'new.place@example.net'),
    );
    const added = data<{ email: { id: string; recentlyAdded: boolean } }>(
      await confirmContact(browser, started.confirmationId, await latestCode(h.db, 'new.place@example.net')),
    );
    expect(added.email.recentlyAdded).toBe(true);

    // Recovery: only the established address is on file; the new one gets no code.
    const recovery = new Client(app);
    expect(code(await identify(recovery, 'waiter001'))).toBe(1200);
    const listed = () =>
      attributes(recovery).then((r) =>
        data<{ email: Array<{ value: string }> }>(r).email.map((e) => e.value),
      );
    expect(await listed()).toEqual([maskEmail('waiter001@example.com')]);
    const before = (await emailsTo('new.place@example.net')).length;
    expectFailureEnvelope(await sendCode(recovery, maskEmail('new.place@example.net')), 200, 1403);
    expect(await emailsTo('new.place@example.net')).toHaveLength(before);

    // The owner's only established address cannot be removed while the new one waits.
    const ownerEmail = (await ctx.credentials.list(account.id, 'email')).find(
      (c) => c.publicPart === 'waiter001@example.com',
    )!;
    const refused = await removeContact(browser, ownerEmail.id);
    expectFailureEnvelope(refused, 200, 1403);
    expect(json(refused).responseBaseInfo.status.message).toMatch(/only email address/);
    expect(await ctx.credentials.get(ownerEmail.id)).toBeDefined();

    // Once the wait is over the new address is established: it is on file for recovery.
    h.clock.advance(2 * DAY + 60_000);
    expect(code(await identify(recovery, 'waiter001'))).toBe(1200);
    expect(await listed()).toEqual([maskEmail('waiter001@example.com'), maskEmail('new.place@example.net')]);
    expect(code(await sendCode(recovery, maskEmail('new.place@example.net')))).toBe(1200);
    expect(code(await checkCode(recovery, await latestCode(h.db, 'new.place@example.net')))).toBe(1200);
  });

  test('a burst of 100 device registrations onto an account holding 9 devices leaves exactly 10', async () => {
    const { app, ctx } = await h.start();
    const { account, secret } = await owner(ctx, 'capuser01', { secondFactor: false });
    for (let i = 0; i < 8; i++) await (await TestDevice.create(h.clock)).enrol(ctx, account.id, `Phone ${i}`);
    expect(await ctx.credentials.list(account.id, 'push')).toHaveLength(9);
    const browser = await signIn(app, 'capuser01', secret);
    await stepUp(browser, secret);
    const devices = await Promise.all(Array.from({ length: 100 }, () => TestDevice.create(h.clock)));
    const calls = await Promise.all(
      devices.map(async (d) =>
        prepared(app, browser, api(paths.deviceRegister), {
          publicKey: d.publicKey,
          name: 'Burst phone',
          proof: await d.proof('register'),
        }),
      ),
    );
    const results = await Promise.all(calls.map((call) => call()));
    const codes = results.map(code);
    expect(codes.filter((c) => c === 1200)).toHaveLength(1);
    expect(codes.filter((c) => c === 1491)).toHaveLength(99);
    const refusal = results.find((r) => code(r) === 1491)!;
    expect(json(refusal).responseBaseInfo.status.message).toBe(
      'This account already has 10 mobile devices, the most it can hold. Remove one on the security page or in its device app before you add this one.',
    );
    expect(await ctx.credentials.list(account.id, 'push')).toHaveLength(10);
  });

  test('contacts and apps are capped per account (CREDENTIAL_MAX_CONTACTS, CREDENTIAL_MAX_APPS): the refusal says so', async () => {
    const { app, ctx } = await h.start({ CREDENTIAL_MAX_CONTACTS: '2', CREDENTIAL_MAX_APPS: '1' });
    const { secret } = await owner(ctx, 'capuser02', { secondFactor: false });
    const browser = await signIn(app, 'capuser02', secret);
    await stepUp(browser, secret);
    // One e-mail held: one more fits, the third is refused before any code is sent.
    const started = data<{ confirmationId: string }>(
      await addContact(browser, 'email', 'second@example.net'),
    );
    expect(
      code(
        await confirmContact(browser, started.confirmationId, await latestCode(h.db, 'second@example.net')),
      ),
    ).toBe(1200);
    const third = await addContact(browser, 'email', 'third@example.net');
    expectFailureEnvelope(third, 200, 1491);
    expect(json(third).responseBaseInfo.status.message).toBe(
      'You already have 2 phone numbers and email addresses, the most an account can hold. Remove one before you add another.',
    );
    expect(await emailsTo('third@example.net')).toEqual([]);
    // One app held: a second enrollment is refused.
    const second = await enroll(browser);
    expectFailureEnvelope(second, 200, 1491);
    expect(json(second).responseBaseInfo.status.message).toBe(
      'You already have 1 authenticator and token apps, the most an account can hold. Remove one before you add another.',
    );
  });

  test("the owner hears of a device registered and removed, a removed address and a blocked factor by every established contact, in the account's language; a recent contact hears nothing", async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(
      ctx,
      'notice001',
      {
        phones: [{ value: '2025550143' }],
        emails: [
          { value: 'notice001@example.com' },
          { value: 'second@example.org' },
          { value: 'fresh@example.org', addedAt: h.clock.now() },
        ],
      },
      { secondFactor: false },
    );
    await h.db.updateTable('accounts').set({ language: 'es' }).where('id', '=', account.id).execute();
    const { secret } = await addApp(ctx, account.id);
    const browser = await signIn(app, 'notice001', secret);
    await stepUp(browser, secret);

    const device = await TestDevice.create(h.clock);
    expect(code(await register(browser, device))).toBe(1200);
    const told = async (to: string, text: RegExp) => (await emailsTo(to)).filter((m) => text.test(m.text));
    const deviceNotice = /se agregó un dispositivo móvil/i;
    for (const to of ['notice001@example.com', 'second@example.org']) {
      const [mail] = await told(to, deviceNotice);
      expect(mail, to).toMatchObject({ channel: 'email', code: null });
      expect(mail!.text).toMatch(/¿Olvidó su nombre de usuario\?/);
      expect(mail!.text).toMatch(/1-800-555-0100/);
    }
    const [text] = await told('+12025550143', deviceNotice);
    expect(text).toMatchObject({ channel: 'sms', code: null });
    expect(text!.text).toMatch(/Si no fue usted, recupere su cuenta en línea o llame al 1-800-555-0100/);
    expect(await emailsTo('fresh@example.org')).toEqual([]);

    // The device app removes its registration: told too.
    const [registration] = await ctx.credentials.list(account.id, 'push');
    const removed = await new DeviceApp(app, device).client.post(api(paths.deviceRemove), {
      id: registration!.id,
      proof: await device.proof(`remove:${registration!.id}`),
    });
    expect(code(removed)).toBe(1200);
    expect(await told('notice001@example.com', /se quitó un dispositivo móvil/i)).toHaveLength(1);
    expect(await told('+12025550143', /se quitó un dispositivo móvil/i)).toHaveLength(1);

    // A removed established address is told too (it may be the owner's, removed by someone else).
    const second = (await ctx.credentials.list(account.id, 'email')).find(
      (c) => c.publicPart === 'second@example.org',
    )!;
    expect(code(await removeContact(browser, second.id))).toBe(1200);
    expect(await told('second@example.org', /se quitó un número de teléfono o una dirección/i)).toHaveLength(
      1,
    );
    expect(
      await told('notice001@example.com', /se quitó un número de teléfono o una dirección/i),
    ).toHaveLength(1);

    // A factor blocked after too many wrong codes (a sign-in by someone with the password).
    await h.db.updateTable('accounts').set({ second_factor: true }).where('id', '=', account.id).execute();
    const stranger = new Client(app);
    expect(code(await stranger.signInPassword('notice001', PASSWORD))).toBe(1200);
    expect(code(await stranger.sessionLogin())).toBe(1201);
    const wrong = wrongOf(codeOf(secret));
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(code(await totpCheck(stranger, wrong)));
    expect(answers).toEqual([1428, 1428, 1428, 1428, 1491]);
    // A try refused during the block tells no one again.
    const again = new Client(app);
    expect(code(await again.signInPassword('notice001', PASSWORD))).toBe(1200);
    expect(code(await again.sessionLogin())).toBe(1201);
    expect(code(await totpCheck(again, wrong))).toBe(1491);
    expect(await told('notice001@example.com', /demasiados códigos incorrectos/)).toHaveLength(1);
    expect(await told('+12025550143', /se bloqueó un método de verificación/i)).toHaveLength(1);
    expect(await emailsTo('fresh@example.org')).toEqual([]);
  });

  test('a fraud report on the device reaches every established contact', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'fraud0001', { emails: [{ value: 'fraud0001@example.com' }] });
    const device = await TestDevice.create(h.clock);
    await device.enrol(ctx, account.id);
    const browser = new Client(app);
    expect(code(await browser.signInPassword('fraud0001', PASSWORD))).toBe(1200);
    expect(code(await browser.sessionLogin())).toBe(1201);
    const sent = data<{ id: string }>(await sendPush(browser));
    expect(code(await new DeviceApp(app, device).answer(sent.id, 'FRAUD'))).toBe(1200);
    const [mail] = (await emailsTo('fraud0001@example.com')).filter((m) => /reported as fraud/.test(m.text));
    expect(mail!.text).toMatch(/Forgot username\?/);
  });

  test('an authenticator app added recently signs in but cannot satisfy the step-up; the widget is told why; once established it can', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'recent001', {
      emails: [{ value: 'recent001@example.com', addedAt: h.clock.now() }],
    });
    const { secret } = await addApp(ctx, account.id, h.clock.now());
    // LOGIN: the recent app is offered and signs in.
    const browser = await signIn(app, 'recent001', secret);
    // STEPUP: not offered, named as recent, and its code does not step up.
    const offered = await authenticatorsOf(browser);
    expect(offered.authenticators.map((a) => a.type)).not.toContain('TOTPAUTHN');
    expect(offered.recent).toEqual(['TOTPAUTHN']);
    nextStep();
    // Not offered, so unavailable (to the representative page), never compared.
    expectFailureEnvelope(await totpCheck(browser, codeOf(secret)), 200, 1204);
    expectFailureEnvelope(await overviewOf(browser), 403, 1412);
    // The wait over: it steps up, and the page lists it as established.
    h.clock.advance(2 * DAY);
    const later = await signIn(app, 'recent001', secret);
    expect((await authenticatorsOf(later)).authenticators.map((a) => a.type)).toContain('TOTPAUTHN');
    await stepUp(later, secret);
    const page = data<SecurityOverviewData>(await overviewOf(later));
    expect(page.authenticators[0]).toMatchObject({ recentlyAdded: false });
  });

  test('pushes go to the newest established device; a recent device takes sign-in pushes only while none is established, and never a step-up', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'pushpol01');
    const old = await TestDevice.create(h.clock);
    await old.enrol(ctx, account.id, 'Old phone');
    const fresh = await TestDevice.create(h.clock);
    const freshCredential = await fresh.enrol(ctx, account.id, 'New phone', h.clock.now());
    const pushesOf = async (d: TestDevice) =>
      data<{ pushes: Array<{ id: string }> }>(await new DeviceApp(app, d).pushes()).pushes.map((p) => p.id);

    // Sign-in: the established device gets it, not the newer recent one.
    const login = new Client(app);
    expect(code(await login.signInPassword('pushpol01', PASSWORD))).toBe(1200);
    expect(code(await login.sessionLogin())).toBe(1201);
    const first = data<{ id: string; number?: string }>(await sendPush(login));
    expect(await pushesOf(old)).toContain(first.id);
    expect(await pushesOf(fresh)).not.toContain(first.id);
    // Number matching is on by default (decision 032): the customer types the sign-in screen's number.
    expect(code(await new DeviceApp(app, old).answer(first.id, 'APPROVE', first.number))).toBe(1200);
    expect(json<{ status: string }>(await pollPush(login, first.id)).successData!.status).toBe(
      'COMPLETED_SUCCESSFUL',
    );

    // Step-up: the established device again; with only the recent one left, push is not offered.
    const stepPush = data<{ id: string }>(await sendPush(login));
    expect(await pushesOf(old)).toContain(stepPush.id);
    await h.db
      .deleteFrom('credentials')
      .where('kind', '=', 'push')
      .where('id', '!=', freshCredential.id)
      .execute();
    const offered = await authenticatorsOf(login);
    expect(offered.authenticators.map((a) => a.type)).not.toContain('PUSH');
    expect(offered.recent).toContain('PUSH');
    expectFailureEnvelope(await sendPush(login), 200, 1403);

    // Sign-in with only the recent device: it takes the push.
    const again = new Client(app);
    expect(code(await again.signInPassword('pushpol01', PASSWORD))).toBe(1200);
    expect(code(await again.sessionLogin())).toBe(1201);
    const third = data<{ id: string }>(await sendPush(again));
    expect(await pushesOf(fresh)).toContain(third.id);
  });

  test('a recent token, phone or e-mail: the token signs in but is left out of a step-up; the contacts wait for everything', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'kinds0001', {
      phones: [{ value: '2025550178', addedAt: h.clock.now() }],
      emails: [{ value: 'kinds0001@example.com', addedAt: h.clock.now() }],
    });
    await ctx.credentials.add({
      accountId: account.id,
      kind: 'token',
      name: 'Token',
      publicPart: 'VSST12345678',
      secret: randomBytes(20),
      data: { algorithm: 'SHA1', digits: 6, period: 30 },
      createdAt: h.clock.now(),
    });
    const { secret } = await addApp(ctx, account.id);
    const login = new Client(app);
    expect(code(await login.signInPassword('kinds0001', PASSWORD))).toBe(1200);
    const due = json<{ authenticators: Array<{ type: string }> }>(await login.sessionLogin()).successData!;
    expect(due.authenticators.map((a) => a.type)).toContain('TOTPSVIP');
    const state = data<{ phone: Array<{ enable: boolean }>; email: Array<{ enable: boolean }> }>(
      await login.get(`${api(paths.otpState)}?timestamp=1`),
    );
    expect([...state.phone, ...state.email].map((c) => c.enable)).toEqual([false, false]);
    nextStep();
    expect(code(await totpCheck(login, codeOf(secret)))).toBe(1200);
    const stepUpOffer = await authenticatorsOf(login);
    expect(stepUpOffer.authenticators.map((a) => a.type)).not.toContain('TOTPSVIP');
    expect(stepUpOffer.recent).toEqual(['TOTPSVIP']);
    // Recovery: the recent address is not on file; the account row's own address is.
    const recovery = new Client(app);
    expect(code(await identify(recovery, 'kinds0001'))).toBe(1200);
    const onFile = data<{ email: Array<{ value: string }>; phone: unknown[] }>(
      await attributes(recovery, 'email,phone'),
    );
    expect(onFile.email.map((e) => e.value)).toEqual([maskEmail('kinds0001@example.com')]);
    expect(onFile.phone).toEqual([]);
  });

  test('the last established second factor cannot be removed while only a recent one would be left; after the wait it can', async () => {
    const { app, ctx } = await h.start();
    const account = await factorAccount(ctx, 'remove001', {}, { secondFactor: false });
    const { secret, credential: established } = await addApp(ctx, account.id);
    await addApp(ctx, account.id, h.clock.now());
    const browser = await signIn(app, 'remove001', secret);
    await stepUp(browser, secret);
    const refused = await removeCredential(browser, established.id);
    expectFailureEnvelope(refused, 200, 1403);
    expect(await ctx.credentials.get(established.id)).toBeDefined();
    // Two days on, the other app is established too: the old one may go.
    h.clock.advance(2 * DAY);
    const later = await signIn(app, 'remove001', secret);
    await stepUp(later, secret);
    expect(code(await removeCredential(later, established.id))).toBe(1200);
    expect(await ctx.credentials.get(established.id)).toBeUndefined();
  });
});
