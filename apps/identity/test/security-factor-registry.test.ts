import { randomUUID } from 'node:crypto';
import { type SecurityOverviewData, securityPaths, serverMessages } from '@gatehouse/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Context } from '../src/context.ts';
import { loadFactors } from '../src/factors/registry.ts';
import { factorSecurities, provideFactorSecurities } from '../src/security/factor-lookup.ts';
import type { FactorSecurityEntry } from '../src/security/factor-security.ts';
import { appItem } from '../src/security/service.ts';
import { addApp, appClock, totpCheck } from './support/app-codes.ts';
import { factorAccount, PASSWORD } from './support/factors.ts';
import { api, Client, code, expectFailureEnvelope, json, targets, useHarness } from './support/harness.ts';

/**
 * The security page through the factors' security parts (issue 24 point 1;
 * docs/decisions/036b-security-through-registry.md): a factor the page has never heard of, with a
 * credential kind of its own, is listed under `credentials.<key>` of the overview, removed through
 * the generic removal, and held by the same last-factor rule and owner notice as every factor,
 * with no change to the page, the policy or the contract.
 */

/** A factor of a new kind, for this file only: listed, removable, counted apart. */
const keyFob: FactorSecurityEntry = {
  key: 'keyfob',
  credentialKinds: ['keyfob'],
  security: {
    policy: {
      cap: { group: 'keyfobs', max: () => 2, message: 'capApps' },
      recentSignsIn: true,
      recovery: false,
    },
    overview: (ctx, credentials) => ({ items: credentials.map((c) => appItem(ctx, c)) }),
    remove: { route: 'generic', event: 'security.credential-removed', notice: 'credentialRemoved' },
  },
};

const overviewOf = (client: Client) => client.get(api(securityPaths.securityOverview));
const removeCredential = (client: Client, id: string) =>
  client.post(api(securityPaths.securityCredentialRemove), { id });
const removeContact = (client: Client, id: string) =>
  client.post(api(securityPaths.securityContactRemove), { id });
const data = <T>(r: LightMyRequestResponse) => {
  expect(code(r), r.body).toBe(1200);
  return json<T>(r).successData!;
};

describe.each(targets)('a factor the security page learns from its security part ($name)', (target) => {
  const h = useHarness(target);
  const { codeOf, nextStep } = appClock(h);
  let provided: ReturnType<typeof factorSecurities>;

  beforeAll(async () => {
    // The factors' security parts are provided when the registry loads (buildApp awaits it too).
    await loadFactors();
    provided = factorSecurities();
    provideFactorSecurities([...provided, keyFob]);
  });
  afterAll(() => provideFactorSecurities(provided));

  /** Signed in with the password (no factor due), then a step-up with the app: the page is open. */
  async function openPage(app: FastifyInstance, username: string, secret: Uint8Array) {
    const browser = new Client(app);
    expect(code(await browser.signInPassword(username, PASSWORD))).toBe(1200);
    expect(code(await browser.sessionLogin())).toBe(1200);
    nextStep();
    expect(code(await totpCheck(browser, codeOf(secret)))).toBe(1200);
    return browser;
  }

  async function addFob(ctx: Context, accountId: string, name: string) {
    // The store adds only the kinds the registry's modules declare (decision 036), and this factor
    // is the page's alone (no module): its row is written as the store writes one, then read back.
    const id = randomUUID();
    await ctx.db
      .insertInto('credentials')
      .values({ id, account_id: accountId, kind: 'keyfob', name, data: '{}', created_at: new Date(0) })
      .execute();
    return (await ctx.credentials.get(id, accountId))!;
  }

  test('its credentials are listed under credentials.<key>, removed through the generic call, under the last-factor rule, with a notice', async () => {
    const { app, ctx } = await h.start();
    // No phone or address: the app and the fob are its only second factors (notices go to the account's own address).
    const account = await factorAccount(ctx, 'fobowner1', {}, { secondFactor: false });
    const { secret, credential: authApp } = await addApp(ctx, account.id);
    const fob = await addFob(ctx, account.id, 'Front door fob');
    const browser = await openPage(app, 'fobowner1', secret);

    const before = data<SecurityOverviewData>(await overviewOf(browser));
    expect(before.credentials.keyfob).toEqual([
      {
        id: fob.id,
        name: 'Front door fob',
        createdAt: new Date(0).toISOString(),
        lastUsedAt: null,
        recentlyAdded: false,
        usableFrom: expect.any(String),
      },
    ]);
    // Every factor's entries are in the map too, and the typed lists are as they were.
    expect(before.credentials.totp?.map((c) => c.id)).toEqual([authApp.id]);
    expect(before.credentials.otp).toEqual([]);
    expect(before.authenticators.map((c) => c.id)).toEqual([authApp.id]);
    expect(before.tokens).toEqual([]);

    // Not a contact: the contacts' own removal does not know it.
    expectFailureEnvelope(await removeContact(browser, fob.id), 200, 1404);

    // The app goes (the fob, established, still signs in and proves a step-up) ...
    expect(code(await removeCredential(browser, authApp.id))).toBe(1200);
    // ... and the fob, now the account's last second factor, stays (the rule every factor is under).
    const kept = expectFailureEnvelope(await removeCredential(browser, fob.id), 200, 1403);
    expect(kept.responseBaseInfo.status.message).toBe(serverMessages.lastFactor);

    // With another fob beside it, it goes: audited by kind and name, and the owner is told.
    const spare = await addFob(ctx, account.id, 'Spare fob');
    expect(code(await removeCredential(browser, fob.id))).toBe(1200);
    const after = data<SecurityOverviewData>(await overviewOf(browser));
    expect(after.credentials.keyfob?.map((c) => c.id)).toEqual([spare.id]);
    expect(after.credentials.totp).toEqual([]);
    const audited = await h.db
      .selectFrom('audit_events')
      .select(['event', 'detail'])
      .where('account_id', '=', account.id)
      .where('event', '=', 'security.credential-removed')
      .orderBy('at')
      .execute();
    expect(
      audited.map((e) => (typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail)).at(-1),
    ).toEqual({ kind: 'keyfob', name: 'Front door fob' });
    const notices = await h.db
      .selectFrom('outbox')
      .select(['text'])
      .where('recipient', '=', 'fobowner1@example.com')
      .execute();
    expect(
      notices.filter((m) => m.text.includes('A change was made to your security settings')),
    ).toHaveLength(2);
    // Another account cannot remove it: 1404.
    const other = await factorAccount(ctx, 'fobother1', {}, { secondFactor: false });
    const otherApp = await addApp(ctx, other.id);
    const stranger = await openPage(app, 'fobother1', otherApp.secret);
    expectFailureEnvelope(await removeCredential(stranger, spare.id), 200, 1404);
  });
});
