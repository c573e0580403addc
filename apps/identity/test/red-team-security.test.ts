import { type AuthenticatorEnrollmentData, securityPaths } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { Secret } from 'otpauth';
import { describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { cleanUp } from '../src/services/cleanup.ts';
import { addApp, appClock, totpCheck, wrongOf } from './support/app-codes.ts';
import { factorAccount, PASSWORD } from './support/factors.ts';
import {
  api,
  Client,
  code,
  expectFailureEnvelope,
  json,
  rememberSecret,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * Red-team findings on the portal's security page (each test names its finding). Models
 * security-page.test.ts. Before: the portal's security page on the server (issue 12; docs/decisions/025-security-page-api.md):
 * every call behind a step-up within SECURITY_STEPUP_MINUTES; an authenticator app added by a code
 * computed from the secret the call gave; contacts confirmed by the code from the outbox; removals
 * under the last-factor rule; trusted browsers and sessions ended; the activity; audit rows and
 * e-mail notices; hostile input; a database fault.
 */

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const _FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

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

const _overviewOf = (client: Client) => client.get(api(securityPaths.securityOverview));
const enroll = (client: Client) => client.post(api(securityPaths.securityAuthenticatorEnrollment), {});
const confirmApp = (client: Client, enrollmentId: string, securityCode: string, name?: string) =>
  client.post(api(securityPaths.securityAuthenticatorConfirmation), {
    enrollmentId,
    securityCode,
    ...(name ? { name } : {}),
  });
const removeCredential = (client: Client, id: string) =>
  client.post(api(securityPaths.securityCredentialRemove), { id });
const _addContact = (client: Client, kind: 'phone' | 'email', value: string, voice?: boolean) =>
  client.post(api(securityPaths.securityContacts), {
    kind,
    value,
    ...(voice === undefined ? {} : { voice }),
  });
const _confirmContact = (client: Client, confirmationId: string, securityCode: string) =>
  client.post(api(securityPaths.securityContactConfirmation), { confirmationId, securityCode });
const _removeContact = (client: Client, id: string) =>
  client.post(api(securityPaths.securityContactRemove), { id });
const revoke = (client: Client, body: unknown) =>
  client.post(api(securityPaths.securityTrustedBrowserRevoke), body);
const endSession = (client: Client, body: unknown) =>
  client.post(api(securityPaths.securitySessionEnd), body);

/** The test clock runs with real time: `at` is `expected` or up to 5 s before it. */
const data = <T>(r: LightMyRequestResponse) => {
  expect(code(r), r.body).toBe(1200);
  return json<T>(r).successData!;
};

describe.each(targets)('red team: the security page ($name)', (target) => {
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

  test('the pending secret is wiped once the enrollment is confirmed or exhausted', async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '1000' });
    const { secret } = await account(ctx, 'rtwipe001');
    const browser = await signIn(app, 'rtwipe001', secret);
    await stepUp(browser, secret);
    const pendingRow = (id: string) =>
      h.db
        .selectFrom('security_confirmations')
        .select(['secret', 'secret_key_id', 'outcome'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    // Confirmed: the credential holds the secret now; the pending copy is gone.
    const started = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(started.secret);
    const added = Secret.fromBase32(started.secret).bytes;
    expect((await pendingRow(started.enrollmentId)).secret).not.toBeNull();
    data(await confirmApp(browser, started.enrollmentId, codeOf(added)));
    expect(await pendingRow(started.enrollmentId)).toEqual({
      secret: null,
      secret_key_id: null,
      outcome: 'confirmed',
    });

    // Exhausted: ended, the secret is gone too.
    const other = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(other.secret);
    const wrong = wrongOf(codeOf(Secret.fromBase32(other.secret).bytes));
    for (let i = 0; i < 5; i++) await confirmApp(browser, other.enrollmentId, wrong);
    expect(await pendingRow(other.enrollmentId)).toEqual({
      secret: null,
      secret_key_id: null,
      outcome: 'exhausted',
    });

    // Expired: cleanup wipes its secret at once (the row goes a day later).
    const late = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(late.secret);
    h.clock.advance(10 * 60_000 + 1000);
    await cleanUp(ctx);
    expect(await pendingRow(late.enrollmentId)).toEqual({ secret: null, secret_key_id: null, outcome: null });
  });

  test('control and bidi characters in an authenticator name are a 400', async () => {
    const { app, ctx } = await h.start();
    const { secret } = await account(ctx, 'rtname001');
    const browser = await signIn(app, 'rtname001', secret);
    await stepUp(browser, secret);
    const started = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(started.secret);
    const added = Secret.fromBase32(started.secret).bytes;
    for (const name of ['My\nphone', 'a\u0007b', 'evil\u202Eenohp', 'x\u2066y', 'tab\there', 'del\u007F']) {
      const r = await confirmApp(browser, started.enrollmentId, codeOf(added), name);
      expectFailureEnvelope(r, 400, 4400);
    }
    // An ordinary unicode name is fine.
    const ok = data<{ authenticator: { name: string } }>(
      await confirmApp(browser, started.enrollmentId, codeOf(added), 'Téléphone de Zoë 📱'),
    );
    expect(ok.authenticator.name).toBe('Téléphone de Zoë 📱');
  });

  test('a database fault on the audit row of a change leaves nothing half-written (503, no credential, no notice)', async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '1000' });
    const { account: row, secret, app: firstApp } = await account(ctx, 'rtfault01');
    const browser = await signIn(app, 'rtfault01', secret);
    await stepUp(browser, secret);
    const started = data<AuthenticatorEnrollmentData>(await enroll(browser));
    rememberSecret(started.secret);
    const added = Secret.fromBase32(started.secret).bytes;

    // The fault: the audit insert of a security change times out (57014, a 503) after the change.
    await sql`create or replace function rt_fail_audit() returns trigger language plpgsql as $$
      begin
        if new.event in ('security.authenticator-added', 'security.credential-removed') then
          raise exception 'injected fault' using errcode = '57014';
        end if;
        return new;
      end $$`.execute(h.db);
    await sql`create trigger rt_fail_audit before insert on audit_events
      for each row execute function rt_fail_audit()`.execute(h.db);
    try {
      expectFailureEnvelope(await confirmApp(browser, started.enrollmentId, codeOf(added)), 503, 5003);
      expect((await ctx.credentials.list(row.id, 'totp')).length).toBe(1);
      expectFailureEnvelope(await removeCredential(browser, firstApp.id), 503, 5003);
      expect((await ctx.credentials.list(row.id, 'totp')).map((c) => c.id)).toEqual([firstApp.id]);
      expect(await notices('rtfault01@example.com')).toHaveLength(0);
    } finally {
      await sql`drop trigger rt_fail_audit on audit_events`.execute(h.db);
      await sql`drop function rt_fail_audit()`.execute(h.db);
    }
    // The enrollment is still pending: confirmed now, with its audit row and notice.
    nextStep();
    data(await confirmApp(browser, started.enrollmentId, codeOf(added)));
    expect((await auditEvents(row.id)).map((e) => e.event)).toContain('security.authenticator-added');
    expect(await notices('rtfault01@example.com')).toHaveLength(1);
  });

  test('ending every other session audits in its own transaction; nothing ended or revoked sends no notice', async () => {
    const { app, ctx } = await h.start({ SECURITY_RATE_MAX: '1000' });
    const { account: row, secret } = await account(ctx, 'rtends01');
    const browser = await signIn(app, 'rtends01', secret);
    await stepUp(browser, secret);
    // Nothing trusted and no other session: answered, and no e-mail about a change that did not happen.
    expect(code(await revoke(browser, { all: true }))).toBe(1200);
    expect(code(await endSession(browser, { allOthers: true }))).toBe(1200);
    expect(await notices('rtends01@example.com')).toHaveLength(0);

    const other = await signIn(app, 'rtends01', secret);
    await sql`create or replace function rt_fail_audit() returns trigger language plpgsql as $$
      begin
        if new.event = 'security.session-ended' then
          raise exception 'injected fault' using errcode = '57014';
        end if;
        return new;
      end $$`.execute(h.db);
    await sql`create trigger rt_fail_audit before insert on audit_events
      for each row execute function rt_fail_audit()`.execute(h.db);
    try {
      expectFailureEnvelope(await endSession(browser, { allOthers: true }), 503, 5003);
      // The audit row failed, so the ending did not happen either.
      expect(code(await other.session())).toBe(1200);
      expect(await notices('rtends01@example.com')).toHaveLength(0);
    } finally {
      await sql`drop trigger rt_fail_audit on audit_events`.execute(h.db);
      await sql`drop function rt_fail_audit()`.execute(h.db);
    }
    expect(code(await endSession(browser, { allOthers: true }))).toBe(1200);
    expect(code(await other.session())).not.toBe(1200);
    const ended = (await auditEvents(row.id)).filter((e) => e.event === 'security.session-ended');
    expect(ended.map((e) => e.detail)).toEqual([
      { ended: 0, allOthers: true },
      { ended: 1, allOthers: true },
    ]);
    expect(await notices('rtends01@example.com')).toHaveLength(1);
  });
});
