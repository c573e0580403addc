import {
  type AuthenticatorEnrollmentData,
  type ContactAddData,
  headers as headerNames,
  limits,
  paths,
  type SecurityOverviewData,
  securityPaths,
} from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Secret } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { Context } from '../src/context.ts';
import { TestClock } from '../src/lib/clock.ts';
import { readDemoAccounts } from '../src/seed.ts';
import { addApp, appClock, STEP, totpCheck, wrongOf } from './support/app-codes.ts';
import { atFactor, contacts, DAY, factorAccount, latestMessage, PASSWORD } from './support/factors.ts';
import {
  api,
  Client,
  code,
  expectFailureEnvelope,
  json,
  onOwnPGlite,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * The portal's security page on the server (issue 12; docs/decisions/025-security-page-api.md):
 * every call behind a step-up within SECURITY_STEPUP_MINUTES; an authenticator app added by a code
 * computed from the secret the call gave; contacts confirmed by the code from the outbox; removals
 * under the last-factor rule; trusted browsers and sessions ended; the activity; audit rows and
 * e-mail notices; hostile input; a database fault.
 */

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

/** A browser with its own User-Agent (and address). */
class Browser extends Client {
  constructor(
    app: FastifyInstance,
    private readonly userAgent = CHROME_WINDOWS,
    remoteAddress?: string,
  ) {
    super(app, remoteAddress ? { remoteAddress } : {});
  }
  override request(input: Parameters<Client['request']>[0]): Promise<LightMyRequestResponse> {
    return super.request({ ...input, headers: { 'user-agent': this.userAgent, ...(input.headers ?? {}) } });
  }
}

const overviewOf = (client: Client) => client.get(api(securityPaths.securityOverview));
const enroll = (client: Client) => client.post(api(securityPaths.securityAuthenticatorEnrollment), {});
const confirmApp = (client: Client, enrollmentId: string, securityCode: string, name?: string) =>
  client.post(api(securityPaths.securityAuthenticatorConfirmation), {
    enrollmentId,
    securityCode,
    ...(name ? { name } : {}),
  });
const removeCredential = (client: Client, id: string) =>
  client.post(api(securityPaths.securityCredentialRemove), { id });
const addContact = (client: Client, kind: 'phone' | 'email', value: string, voice?: boolean) =>
  client.post(api(securityPaths.securityContacts), {
    kind,
    value,
    ...(voice === undefined ? {} : { voice }),
  });
const confirmContact = (client: Client, confirmationId: string, securityCode: string) =>
  client.post(api(securityPaths.securityContactConfirmation), { confirmationId, securityCode });
const removeContact = (client: Client, id: string) =>
  client.post(api(securityPaths.securityContactRemove), { id });
const revoke = (client: Client, body: unknown) =>
  client.post(api(securityPaths.securityTrustedBrowserRevoke), body);
const endSession = (client: Client, body: unknown) =>
  client.post(api(securityPaths.securitySessionEnd), body);

/** The test clock runs with real time: `at` is `expected` or up to 5 s before it. */
const expectNear = (at: number, expected: number) => {
  expect(at).toBeLessThanOrEqual(expected);
  expect(at).toBeGreaterThan(expected - 5_000);
};

const data = <T>(r: LightMyRequestResponse) => {
  expect(code(r), r.body).toBe(1200);
  return json<T>(r).successData!;
};

describe.each(targets)('the security page ($name)', (target) => {
  const h = useHarness(target);

  const { codeOf, nextStep } = appClock(h);

  /**
   * An account with an authenticator app (its secret, for step-ups and sign-ins) and an e-mail
   * contact (old unless `recentEmail`); a second factor due at sign-in unless `secondFactor` false.
   */
  async function account(
    ctx: Context,
    username: string,
    options: { secondFactor?: boolean; recentEmail?: boolean } = {},
  ) {
    const row = await factorAccount(
      ctx,
      username,
      {
        emails: [
          { value: `${username}@example.com`, ...(options.recentEmail ? { addedAt: ctx.clock.now() } : {}) },
        ],
      },
      { secondFactor: options.secondFactor ?? false },
    );
    const { secret, credential: app } = await addApp(ctx, row.id);
    return { account: row, secret, app };
  }

  /** Signs in (with the app's code when a factor is due). */
  async function signIn(
    app: FastifyInstance,
    username: string,
    secret: Uint8Array,
    browser = new Browser(app),
  ) {
    const first = await browser.signInPassword(username, PASSWORD);
    expect(code(first)).toBe(1200);
    const login = await browser.sessionLogin();
    if (code(login) === 1201) {
      nextStep();
      expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
    } else {
      expect(code(login)).toBe(1200);
    }
    return browser;
  }

  /** A step-up with the app: the session proves the factor again (and rotates). */
  async function stepUp(browser: Client, secret: Uint8Array) {
    nextStep();
    const r = await totpCheck(browser, codeOf(secret));
    expect(code(r), r.body).toBe(1200);
    expect(json<{ steppedUpAt?: string }>(r).successData!.steppedUpAt).toBeDefined();
  }

  const auditEvents = async (accountId: string) =>
    (
      await h.db
        .selectFrom('audit_events')
        .select(['event', 'outcome', 'detail'])
        .where('account_id', '=', accountId)
        .orderBy('at')
        .execute()
    ).map((e) => ({ ...e, detail: typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail }));
  const notices = async (to: string) =>
    (
      await h.db
        .selectFrom('outbox')
        .select(['text', 'code'])
        .where('recipient', '=', to)
        .orderBy('sent_at')
        .execute()
    ).filter((m) => m.text.includes('A change was made to your security settings'));

  test('step-up: none (401), a sign-in factor or a trusted device (1412, HTTP 403); a step-up opens it for SECURITY_STEPUP_MINUTES', async () => {
    const { app, ctx } = await h.start();
    const { secret } = await account(ctx, 'stepsec01', { secondFactor: true });
    const anonymous = new Browser(app);
    expectFailureEnvelope(await overviewOf(anonymous), 401, 4401);

    // Signed in with the app's code at sign-in (a LOGIN factor), and the browser trusted.
    const browser = new Browser(app);
    expect(code(await browser.signInPassword('stepsec01', PASSWORD))).toBe(1200);
    expect(code(await browser.sessionLogin())).toBe(1201);
    nextStep();
    expect(code(await totpCheck(browser, codeOf(secret), true))).toBe(1200);
    let refused = await overviewOf(browser);
    const body = expectFailureEnvelope(refused, 403, 1412);
    expect(body.responseBaseInfo.status.message).toBe('Please verify your identity to continue.');
    expectFailureEnvelope(await enroll(browser), 403, 1412);

    // Signed in again on the trusted browser (no factor asked): still a step-up to do.
    await browser.delete(api(paths.sessionLogout));
    expect(code(await browser.signInPassword('stepsec01', PASSWORD))).toBe(1200);
    expect(code(await browser.sessionLogin())).toBe(1200);
    expectFailureEnvelope(await overviewOf(browser), 403, 1412);

    await stepUp(browser, secret);
    const steppedAt = h.clock.now().getTime();
    const opened = data<SecurityOverviewData>(await overviewOf(browser));
    const expires = new Date(opened.stepUpExpiresAt).getTime();
    expect(expires).toBeGreaterThan(steppedAt + 10 * 60_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(steppedAt + 10 * 60_000);
    h.clock.advance(9 * 60_000);
    expect(code(await overviewOf(browser))).toBe(1200);
    h.clock.advance(2 * 60_000);
    refused = await overviewOf(browser);
    expectFailureEnvelope(refused, 403, 1412);
    // A new step-up opens it again.
    await stepUp(browser, secret);
    expect(code(await overviewOf(browser))).toBe(1200);
  });

  test('SECURITY_STEPUP_MINUTES moves the window', async () => {
    const { app, ctx } = await h.start({ SECURITY_STEPUP_MINUTES: '2' });
    const { secret } = await account(ctx, 'stepsec02');
    const browser = await signIn(app, 'stepsec02', secret);
    await stepUp(browser, secret);
    h.clock.advance(60_000);
    expect(code(await overviewOf(browser))).toBe(1200);
    h.clock.advance(61_000);
    expectFailureEnvelope(await overviewOf(browser), 403, 1412);
  });

  test('the overview says how long the step-up has left and when the page warns; no call stretches it, only a new step-up', async () => {
    const { app, ctx } = await h.start({ TIME_LIMIT_WARNING_SECONDS: '45' });
    const { secret } = await account(ctx, 'stepsec03');
    const browser = await signIn(app, 'stepsec03', secret);
    await stepUp(browser, secret);
    let opened = data<SecurityOverviewData>(await overviewOf(browser));
    expect(opened.warningSeconds).toBe(45);
    expect(opened.stepUpEndsInSeconds).toBeGreaterThan(10 * 60 - 5);
    expect(opened.stepUpEndsInSeconds).toBeLessThanOrEqual(10 * 60);
    // Calls of the page (reads, a refused change) are activity, yet the window does not move: a
    // step-up proves a factor at one moment (docs/decisions/049-time-limit-warnings.md).
    h.clock.advance(4 * 60_000);
    await browser.post(api(securityPaths.securityCredentialRemove), { id: 'no-such-credential' });
    opened = data<SecurityOverviewData>(await overviewOf(browser));
    const left = opened.stepUpEndsInSeconds;
    expect(left).toBeLessThanOrEqual(6 * 60);
    expect(left).toBeGreaterThan(6 * 60 - 5);
    // The widget's extend-session call (the step-up's first call) moves the session's idle limit,
    // not the step-up's window.
    expect((await browser.post(api(paths.sessionExtend), {})).statusCode).toBe(204);
    expect(data<SecurityOverviewData>(await overviewOf(browser)).stepUpEndsInSeconds).toBe(left);
    h.clock.advance(left * 1000 + 1000);
    expectFailureEnvelope(await overviewOf(browser), 403, 1412);
    // 'Verify again' before the end: a new step-up, a new full window.
    await stepUp(browser, secret);
    expect(data<SecurityOverviewData>(await overviewOf(browser)).stepUpEndsInSeconds).toBeGreaterThan(
      10 * 60 - 5,
    );
  });

  test('TIME_LIMIT_WARNING_SECONDS below the 20 s WCAG 2.2.1 asks for stops the start', () => {
    expect(() => loadConfig({ TIME_LIMIT_WARNING_SECONDS: '19' })).toThrow(/TIME_LIMIT_WARNING_SECONDS/);
    expect(loadConfig({}).security.warningMs).toBe(120_000);
  });

  test("the demo accounts' seeded credentials were added at a believable date, and stay established under the longest CONTACT_WAIT_DAYS but for the phone seeded as just added", async () => {
    const demo = readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url));
    for (const a of demo) rememberSecret(a.password);
    const { app } = await h.start({
      SEED_DEMO: 'true',
      CONTACT_WAIT_DAYS: String(limits.contactWaitMaxDays),
    });
    const seededBy = h.clock.now().getTime();
    // Every credential of every demo account (the portal and the device app show its 'Added').
    const rows = await h.db
      .selectFrom('credentials as c')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .select(['a.username', 'c.kind', 'c.created_at'])
      .where(
        'a.username',
        'in',
        demo.map((a) => a.username),
      )
      .execute();
    expect(rows.length).toBeGreaterThan(demo.length);
    for (const row of rows) {
      const added = new Date(row.created_at).getTime();
      expect(added, `${row.username} ${row.kind}`).toBeGreaterThan(Date.UTC(2000, 0, 1));
      expect(added, `${row.username} ${row.kind}`).toBeLessThanOrEqual(seededBy);
    }

    // allfactors1 steps up with its seeded authenticator app: a STEPUP takes only an established one.
    const all = demo.find((a) => a.username === 'allfactors1')!;
    const secret = Secret.fromBase32(all.totp!.secret).bytes;
    const browser = new Browser(app);
    expect(code(await browser.signInPassword(all.username, all.password))).toBe(1200);
    expect(code(await browser.sessionLogin())).toBe(1201);
    nextStep();
    expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
    await stepUp(browser, secret);
    const overview = data<SecurityOverviewData>(await overviewOf(browser));
    const items = Object.values(overview.credentials).flat();
    // An authenticator app, a token, a push device, two phones and an e-mail address.
    expect(items).toHaveLength(6);
    for (const item of items) {
      expect(new Date(item.createdAt).getTime(), item.name).toBeGreaterThan(Date.UTC(2000, 0, 1));
    }
    expect(items.filter((i) => i.recentlyAdded).map((i) => i.name)).toEqual([
      overview.phones.find((p) => p.masked.endsWith('78'))!.masked,
    ]);
    expect(overview.phones.map((p) => p.recentlyAdded).sort()).toEqual([false, true]);
  });

  test('authenticator app: enrolled, confirmed with a computed code, stored encrypted; the code is not taken again; it signs in', async () => {
    const { app, ctx } = await h.start();
    const { account: row, secret } = await account(ctx, 'addapp001', { secondFactor: true });
    const browser = await signIn(app, 'addapp001', secret);
    await stepUp(browser, secret);

    const started = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(started.secret);
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.otpauthUri).toBe(
      `otpauth://totp/Prime%20Portal:addapp001?secret=${started.secret}&issuer=Prime%20Portal&algorithm=SHA1&digits=6&period=30`,
    );
    expectNear(new Date(started.expiresAt).getTime(), h.clock.now().getTime() + 10 * 60_000);
    const added = Secret.fromBase32(started.secret).bytes;
    // Pending: not a credential yet, and its secret is sealed at rest.
    expect((await ctx.credentials.list(row.id, 'totp')).length).toBe(1);
    const pending = await h.db
      .selectFrom('security_confirmations')
      .selectAll()
      .where('id', '=', started.enrollmentId)
      .executeTakeFirstOrThrow();
    const raw = Buffer.from(pending.secret!);
    expect(raw.includes(Buffer.from(added))).toBe(false);
    expect(raw.toString('latin1')).not.toContain(started.secret);
    expect(JSON.stringify(pending)).not.toContain(started.secret);

    // A wrong code: 1428, counted.
    const wrong = await confirmApp(browser, started.enrollmentId, wrongOf(codeOf(added)));
    expectFailureEnvelope(wrong, 200, 1428);
    const right = codeOf(added);
    const confirmed = data<{ authenticator: { id: string; name: string } }>(
      await confirmApp(browser, started.enrollmentId, right, 'My phone'),
    );
    expect(confirmed.authenticator.name).toBe('My phone');
    // Done: the same enrollment answers 1404; the credential's secret is encrypted too.
    expectFailureEnvelope(await confirmApp(browser, started.enrollmentId, right), 200, 1404);
    const stored = await h.db
      .selectFrom('credentials')
      .selectAll()
      .where('id', '=', confirmed.authenticator.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret!).includes(Buffer.from(added))).toBe(false);
    expect(JSON.stringify(stored)).not.toContain(started.secret);
    const list = data<SecurityOverviewData>(await overviewOf(browser)).authenticators;
    expect(list.map((a) => a.name)).toEqual(['Authenticator app', 'My phone']);

    // The confirming code never signs in (its time step is taken); the next step's code does.
    const other = await atFactor(app, 'addapp001', new Browser(app, FIREFOX_MAC));
    expectFailureEnvelope(await totpCheck(other, right), 200, 1428);
    nextStep();
    expect(code(await totpCheck(other, codeOf(added)))).toBe(1200);
    expect(code(await other.session())).toBe(1200);

    // Audit rows and a notice without the secret or a code.
    const events = await auditEvents(row.id);
    expect(events.map((e) => `${e.event}:${e.outcome}`)).toEqual(
      expect.arrayContaining([
        'security.authenticator-failed:failure',
        'security.authenticator-added:success',
      ]),
    );
    expect(JSON.stringify(events)).not.toContain(started.secret);
    const mail = await notices('addapp001@example.com');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('an authenticator app was added');
    expect(mail[0]!.text).toContain("If this wasn't you, call 1-800-555-0100.");
    expect(mail[0]!.code).toBeNull();
    expect(mail[0]!.text).not.toContain(started.secret);
    expect(mail[0]!.text).not.toContain(right);
  });

  test('authenticator app: a burst of wrong codes is counted exactly (SECURITY_CONFIRM_MAX_TRIES); the enrollment ends; an expired one is 1404', async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '1000' });
    const { secret } = await account(ctx, 'burstapp1');
    const browser = await signIn(app, 'burstapp1', secret);
    await stepUp(browser, secret);
    const started = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(started.secret);
    const added = Secret.fromBase32(started.secret).bytes;
    const wrong = wrongOf(codeOf(added));

    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        app.inject({
          method: 'POST',
          url: api(securityPaths.securityAuthenticatorConfirmation),
          headers: {
            cookie,
            [headerNames.csrf]: browser.cookies.get('XSRF-TOKEN')!,
            'content-type': 'application/json',
          },
          payload: JSON.stringify({ enrollmentId: started.enrollmentId, securityCode: wrong }),
        }),
      ),
    );
    const codes = answers.map((r) => code(r));
    expect(codes.filter((c) => c === 1428)).toHaveLength(4);
    expect(codes.filter((c) => c === 1491)).toHaveLength(1);
    expect(codes.filter((c) => c === 1404)).toHaveLength(7);
    const row = await h.db
      .selectFrom('security_confirmations')
      .select(['wrong_tries', 'outcome'])
      .where('id', '=', started.enrollmentId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ wrong_tries: 5, outcome: 'exhausted' });
    // Ended: even the right code is refused.
    expectFailureEnvelope(await confirmApp(browser, started.enrollmentId, codeOf(added)), 200, 1404);

    // An enrollment past SECURITY_ENROLLMENT_MINUTES: 1404.
    const late = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(late.secret);
    h.clock.advance(10 * 60_000 + 1000);
    await stepUp(browser, secret);
    expectFailureEnvelope(
      await confirmApp(browser, late.enrollmentId, codeOf(Secret.fromBase32(late.secret).bytes)),
      200,
      1404,
    );
  });

  test("removal: the account's own only (another's id is 1404), never the last usable or last established factor nor the last e-mail", async () => {
    const { app, ctx } = await h.start();
    const { account: row, secret, app: firstApp } = await account(ctx, 'remove001', { recentEmail: true });
    const { app: foreignApp } = await account(ctx, 'remove002');
    const browser = await signIn(app, 'remove001', secret);
    await stepUp(browser, secret);

    expectFailureEnvelope(await removeCredential(browser, foreignApp.id), 200, 1404);
    expect(await ctx.credentials.get(foreignApp.id)).toBeDefined();
    // The app is the only usable factor: the e-mail was added just now.
    let r = await removeCredential(browser, firstApp.id);
    expectFailureEnvelope(r, 200, 1403);
    expect(json(r).responseBaseInfo.status.message).toBe(
      "You can't remove your last way to verify your identity. Add another one first.",
    );
    const email = data<SecurityOverviewData>(await overviewOf(browser)).emails[0]!;
    expect(email.recentlyAdded).toBe(true);
    r = await removeContact(browser, email.id);
    expectFailureEnvelope(r, 200, 1403);
    expect(json(r).responseBaseInfo.status.message).toBe(
      "You can't remove your only email address: we send security notices to it.",
    );
    // A contact's id is not a credential of this call, nor the app's of the contact call.
    expectFailureEnvelope(await removeCredential(browser, email.id), 200, 1404);
    expectFailureEnvelope(await removeContact(browser, firstApp.id), 200, 1404);

    // A second app: recent, so the first (the last established factor) still stays (decision 030);
    // once the second is established, the first can go.
    const started = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(started.secret);
    const second = Secret.fromBase32(started.secret).bytes;
    expect(code(await confirmApp(browser, started.enrollmentId, codeOf(second)))).toBe(1200);
    expectFailureEnvelope(await removeCredential(browser, firstApp.id), 200, 1403);
    h.clock.advance(2 * DAY);
    const later = await signIn(app, 'remove001', secret);
    await stepUp(later, second);
    expect(code(await removeCredential(later, firstApp.id))).toBe(1200);
    expect(await ctx.credentials.get(firstApp.id)).toBeUndefined();
    expectFailureEnvelope(await removeCredential(later, firstApp.id), 200, 1404);
    const events = (await auditEvents(row.id)).map((e) => e.event);
    expect(events).toContain('security.credential-removed');
    expect((await notices('remove001@example.com')).map((m) => m.text)).toEqual([
      expect.stringContaining('an authenticator app was added'),
      expect.stringContaining('a verification method was removed'),
    ]);
  });

  test('contacts: a phone and an address confirmed by the code sent; the widget lists a new one disabled until CONTACT_WAIT_DAYS pass', async () => {
    const { app, ctx } = await h.start();
    const { account: row, secret } = await account(ctx, 'contact01', { secondFactor: true });
    const browser = await signIn(app, 'contact01', secret);
    await stepUp(browser, secret);

    expectFailureEnvelope(await addContact(browser, 'phone', '12'), 200, 1400);
    expectFailureEnvelope(await addContact(browser, 'email', 'not-an-address'), 200, 1400);
    expectFailureEnvelope(await addContact(browser, 'email', 'CONTACT01@example.com'), 200, 1409);

    const sent = data<ContactAddData>(await addContact(browser, 'phone', '(202) 555-0123', true));
    expect(sent.masked).toBe('(XXX) XXX-0123');
    const message = await latestMessage(h.db, '+12025550123');
    expect(message.code).toMatch(/^\d{6}$/);
    expect(message.text).toContain(message.code!);
    // Stored as an HMAC only.
    const pending = await h.db
      .selectFrom('security_confirmations')
      .selectAll()
      .where('id', '=', sent.confirmationId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(pending)).not.toContain(message.code!);
    expectFailureEnvelope(
      await confirmContact(browser, sent.confirmationId, wrongOf(message.code!)),
      200,
      1428,
    );
    const phone = data<{ kind: string; phone: { id: string; recentlyAdded: boolean; usableFrom: string } }>(
      await confirmContact(browser, sent.confirmationId, message.code!),
    );
    expect(phone.kind).toBe('phone');
    expect(phone.phone.recentlyAdded).toBe(true);
    expectNear(new Date(phone.phone.usableFrom).getTime(), h.clock.now().getTime() + 2 * DAY);
    expectFailureEnvelope(await confirmContact(browser, sent.confirmationId, message.code!), 200, 1404);
    // The same number again: already on the account.
    expectFailureEnvelope(await addContact(browser, 'phone', '+1 202 555 0123'), 200, 1409);

    const mailSent = data<ContactAddData>(await addContact(browser, 'email', 'New.Address@Example.com'));
    const mail = await latestMessage(h.db, 'new.address@example.com');
    expect(code(await confirmContact(browser, mailSent.confirmationId, mail.code!))).toBe(1200);

    const view = data<SecurityOverviewData>(await overviewOf(browser));
    expect(view.phones).toEqual([
      expect.objectContaining({ masked: '(XXX) XXX-0123', voice: true, recentlyAdded: true }),
    ]);
    expect(view.emails.map((e) => [e.masked, e.recentlyAdded])).toEqual([
      ['c****1@example.com', false],
      ['n****s@example.com', true],
    ]);

    // The widget's contact list (the OTP state of a sign-in): the new ones with enable false.
    const signing = await atFactor(app, 'contact01', new Browser(app));
    let listed = await contacts(signing);
    expect(listed.phone).toEqual([expect.objectContaining({ label: '(XXX) XXX-0123', enable: false })]);
    expect(listed.email.map((e) => e.enable)).toEqual([true, false]);
    h.clock.advance(2 * DAY + 1000);
    const later = await atFactor(app, 'contact01', new Browser(app));
    listed = await contacts(later);
    expect(listed.phone).toEqual([expect.objectContaining({ label: '(XXX) XXX-0123', enable: true })]);
    expect(listed.email.map((e) => e.enable)).toEqual([true, true]);

    const events = await auditEvents(row.id);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'security.contact-code-sent',
        'security.contact-failed',
        'security.contact-added',
      ]),
    );
    expect(JSON.stringify(events)).not.toContain(message.code!);
    expect(JSON.stringify(events)).not.toContain('2025550123');
    const mails = await notices('contact01@example.com');
    expect(mails).toHaveLength(2);
    for (const m of mails) {
      expect(m.text).toContain('a phone number or email address was added');
      expect(m.text).not.toContain(message.code!);
      expect(m.text).not.toContain(mail.code!);
    }

    // Removal of the new phone (a new session and step-up: the old one is past its limit).
    const again = await signIn(app, 'contact01', secret);
    await stepUp(again, secret);
    expect(code(await removeContact(again, phone.phone.id))).toBe(1200);
    expect(data<SecurityOverviewData>(await overviewOf(again)).phones).toEqual([]);
  });

  test('trusted browsers: listed with browser and OS; revoking one makes it do the second factor again; revoking all', async () => {
    const { app, ctx } = await h.start();
    const { account: row, secret } = await account(ctx, 'trusted01', { secondFactor: true });
    const trust = async (browser: Browser) => {
      expect(code(await browser.signInPassword('trusted01', PASSWORD))).toBe(1200);
      expect(code(await browser.sessionLogin())).toBe(1201);
      nextStep();
      expect(code(await totpCheck(browser, codeOf(secret), true))).toBe(1200);
    };
    const chrome = new Browser(app, CHROME_WINDOWS, '203.0.113.7');
    const firefox = new Browser(app, FIREFOX_MAC, '198.51.100.9');
    await trust(chrome);
    await trust(firefox);
    // Signed in again on the trusted browser: no factor (its use is recorded).
    await chrome.delete(api(paths.sessionLogout));
    expect(code(await chrome.signInPassword('trusted01', PASSWORD))).toBe(1200);
    expect(code(await chrome.sessionLogin())).toBe(1200);
    await stepUp(chrome, secret);

    const browsers = data<SecurityOverviewData>(await overviewOf(chrome)).trustedBrowsers;
    expect(browsers).toHaveLength(2);
    const mine = browsers.find((b) => b.current)!;
    const theirs = browsers.find((b) => !b.current)!;
    expect(mine).toMatchObject({ browser: 'Chrome', os: 'Windows' });
    expect(mine.lastUsedAt).not.toBeNull();
    expect(theirs).toMatchObject({ browser: 'Firefox', os: 'macOS', lastUsedAt: null });

    expectFailureEnvelope(await revoke(chrome, { id: row.id }), 200, 1404);
    const one = await revoke(chrome, { id: theirs.id });
    expect(json(one).responseBaseInfo.status.message).toBe('This browser is no longer trusted.');
    expect(data<{ revoked: number }>(one).revoked).toBe(1);
    // Firefox must pass the factor again.
    await firefox.delete(api(paths.sessionLogout));
    expect(code(await firefox.signInPassword('trusted01', PASSWORD))).toBe(1200);
    expect(code(await firefox.sessionLogin())).toBe(1201);

    const all = await revoke(chrome, { all: true });
    expect(data<{ revoked: number }>(all).revoked).toBe(1);
    expect(data<SecurityOverviewData>(await overviewOf(chrome)).trustedBrowsers).toEqual([]);
    await chrome.delete(api(paths.sessionLogout));
    expect(code(await chrome.signInPassword('trusted01', PASSWORD))).toBe(1200);
    expect(code(await chrome.sessionLogin())).toBe(1201);

    expect(
      (await auditEvents(row.id)).filter((e) => e.event === 'security.trusted-browser-revoked'),
    ).toHaveLength(2);
    expect((await notices('trusted01@example.com')).map((m) => m.text)).toEqual([
      expect.stringContaining('a trusted browser was removed'),
      expect.stringContaining('every trusted browser was removed'),
    ]);
  });

  test('sessions: listed with browser, OS and address; ending one makes its cookie 401; allOthers keeps this one; activity lists the events', async () => {
    const { app, ctx } = await h.start();
    const { account: row, secret } = await account(ctx, 'session01');
    const other = await signIn(app, 'session01', secret, new Browser(app, CHROME_WINDOWS, '203.0.113.7'));
    const mine = await signIn(app, 'session01', secret, new Browser(app, FIREFOX_MAC, '198.51.100.9'));
    await stepUp(mine, secret);

    const view = data<SecurityOverviewData>(await overviewOf(mine));
    expect(view.sessions).toHaveLength(2);
    const current = view.sessions.find((s) => s.current)!;
    const them = view.sessions.find((s) => !s.current)!;
    expect(current).toMatchObject({ browser: 'Firefox', os: 'macOS', address: '198.51.100.9' });
    expect(them).toMatchObject({ browser: 'Chrome', os: 'Windows', address: '203.0.113.7' });
    // The id is neither the token nor its hash.
    const rows = await h.db.selectFrom('sessions').select('id').where('account_id', '=', row.id).execute();
    for (const s of view.sessions) {
      expect(rows.map((r) => r.id)).not.toContain(s.id);
      for (const token of [other.cookies.get('ET'), mine.cookies.get('ET')]) expect(s.id).not.toBe(token);
    }

    expectFailureEnvelope(await endSession(mine, { id: current.id }), 200, 1403);
    expectFailureEnvelope(await endSession(mine, { id: row.id }), 200, 1404);
    expect(code(await other.session())).toBe(1200);
    expect(code(await endSession(mine, { id: them.id }))).toBe(1200);
    expectFailureEnvelope(await other.session(), 401, 4401);
    expect(code(await mine.session())).toBe(1200);

    const second = await signIn(app, 'session01', secret);
    const third = await signIn(app, 'session01', secret);
    const all = await endSession(mine, { allOthers: true });
    expect(json(all).responseBaseInfo.status.message).toBe('Your other sessions were ended.');
    expect(data<{ ended: number }>(all).ended).toBe(2);
    expectFailureEnvelope(await second.session(), 401, 4401);
    expectFailureEnvelope(await third.session(), 401, 4401);
    expect(code(await mine.session())).toBe(1200);

    const activity = data<SecurityOverviewData>(await overviewOf(mine)).activity;
    expect(activity.length).toBeLessThanOrEqual(20);
    expect(activity[0]).toMatchObject({
      event: 'security.session-ended',
      outcome: 'success',
      description: 'Signed-in session ended',
      browser: 'Firefox',
      os: 'macOS',
      address: '198.51.100.9',
    });
    expect(activity.map((a) => a.event)).toEqual(expect.arrayContaining(['sign-in', 'step-up']));
    // In the page's language: the Spanish page reads every line in Spanish, from the catalog.
    const spanish = data<SecurityOverviewData>(
      await mine.get(api(securityPaths.securityOverview), { 'accept-language': 'es' }),
    ).activity;
    expect(spanish[0]!.description).toBe('Se cerró una sesión iniciada');
    expect(spanish.find((a) => a.event === 'sign-in')!.description).toBe('Inicio de sesión');
    expect(spanish.find((a) => a.event === 'step-up')!.description).toBe('Identidad verificada de nuevo');
    const times = activity.map((a) => new Date(a.at).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await notices('session01@example.com')).map((m) => m.text)).toEqual([
      expect.stringContaining('a signed-in session was ended'),
      expect.stringContaining('your other signed-in sessions were ended'),
    ]);
  });

  test('hostile input: bad ids, over-long values, wrong types, NUL: the 400 envelope', async () => {
    const { app, ctx } = await h.start();
    const { secret } = await account(ctx, 'hostile01');
    const browser = await signIn(app, 'hostile01', secret);
    await stepUp(browser, secret);
    const cases: Array<[string, unknown]> = [
      [securityPaths.securityCredentialRemove, { id: 'x' }],
      [securityPaths.securityCredentialRemove, { id: 42 }],
      [securityPaths.securityCredentialRemove, { id: "1' or '1'='1" }],
      [securityPaths.securityCredentialRemove, {}],
      [securityPaths.securityContactRemove, { id: `${'a'.repeat(5000)}` }],
      [securityPaths.securityContacts, { kind: 'fax', value: '2025550123' }],
      [securityPaths.securityContacts, { kind: 'phone', value: '2'.repeat(300) }],
      [securityPaths.securityContacts, { kind: 'email', value: 'a\u0000@example.com' }],
      [securityPaths.securityContacts, { kind: 'phone', value: '2025550123', voice: 'yes' }],
      [securityPaths.securityContactConfirmation, { confirmationId: 'nope', securityCode: '123456' }],
      [
        securityPaths.securityAuthenticatorConfirmation,
        { enrollmentId: crypto.randomUUID(), securityCode: '12345' },
      ],
      [
        securityPaths.securityAuthenticatorConfirmation,
        { enrollmentId: crypto.randomUUID(), securityCode: 123456 },
      ],
      [
        securityPaths.securityAuthenticatorConfirmation,
        { enrollmentId: crypto.randomUUID(), securityCode: '123456', name: 'n'.repeat(61) },
      ],
      [securityPaths.securityTrustedBrowserRevoke, { all: false }],
      [securityPaths.securityTrustedBrowserRevoke, { id: crypto.randomUUID(), all: true }],
      [securityPaths.securitySessionEnd, { allOthers: 'true' }],
      [securityPaths.securitySessionEnd, []],
      [securityPaths.securitySessionEnd, 'x'],
    ];
    for (const [path, body] of cases) {
      const r = await browser.post(api(path), body);
      const envelope = expectFailureEnvelope(r, 400, 4400);
      expect(
        envelope.responseBaseInfo.status.message,
        `${path} ${JSON.stringify(body).slice(0, 60)}`,
      ).toMatch(/^The request is not valid/);
    }
    // Unknown (well-formed) ids: 1404, nothing else.
    expectFailureEnvelope(await confirmContact(browser, crypto.randomUUID(), '123456'), 200, 1404);
    expectFailureEnvelope(await endSession(browser, { id: crypto.randomUUID() }), 200, 1404);
    // Without the CSRF header: 403.
    const forged = await browser.request({
      method: 'POST',
      url: api(securityPaths.securitySessionEnd),
      body: { allOthers: true },
      csrf: false,
    });
    expectFailureEnvelope(forged, 403, 4403);
  });

  test('rate limit: SECURITY_RATE_MAX enrollments and contact adds a window per account (429, Retry-After)', async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '3' });
    const { secret } = await account(ctx, 'ratelim01');
    const browser = await signIn(app, 'ratelim01', secret);
    await stepUp(browser, secret);
    for (let i = 0; i < 3; i++) {
      const r = await enroll(browser);
      rememberSecret(data<AuthenticatorEnrollmentData>(r).secret);
    }
    const limited = await addContact(browser, 'email', 'late@example.com');
    expectFailureEnvelope(limited, 429, 4429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the security page: a database fault (PGlite)', () => {
  test('a closed database: 503/5003 in the envelope', async () => {
    const clock = new TestClock();
    await onOwnPGlite(
      async ({ pglite, app, ctx }) => {
        const row = await factorAccount(ctx, 'dbfault01', {}, { secondFactor: false });
        // Established (added long ago): a recent app cannot step up (decision 030).
        const { secret } = await addApp(ctx, row.id);
        const browser = new Client(app);
        await browser.signIn('dbfault01', PASSWORD);
        clock.advance(STEP);
        const stepped = await totpCheck(browser, appClock({ clock }).codeOf(secret));
        expect(code(stepped)).toBe(1200);
        expect(code(await overviewOf(browser))).toBe(1200);
        await pglite.close();
        for (const r of [await overviewOf(browser), await endSession(browser, { allOthers: true })]) {
          const body = expectFailureEnvelope(r, 503, 5003);
          expect(body.errorType).toBe('SYSTEM_ERROR');
        }
      },
      { clock },
    );
  });
});
