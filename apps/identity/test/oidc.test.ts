import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '@gatehouse/contract';
import fc from 'fast-check';
import * as openid from 'openid-client';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { cleanUp } from '../src/services/cleanup.ts';
import {
  api,
  auditTrail,
  Client,
  createAccount,
  onOwnPGlite,
  productionMail,
  productionSecret,
  targets,
  useHarness,
} from './support/harness.ts';
import {
  authorize,
  codeOf,
  codeRequest,
  injectFetch,
  jwtPayload,
  oidcEnv,
  pathOf,
  providerPost,
  redeem,
  spa,
  webApp,
} from './support/oidc.ts';

const PASSWORD = 'Harbor7Lights';

/**
 * The OpenID Provider (issue 27; decision 048) through HTTP: discovery, the refusals RFC 9700 asks
 * for, single sign-on from the portal session, step-up by acr_values, refresh rotation with reuse
 * detection, logout ending the portal session.
 */
describe.each(targets)('OpenID Provider ($name)', (target) => {
  const h = useHarness(target);

  /** An app with the test clients, and a browser signed in to the portal as a password-only account. */
  async function signedIn(env: Record<string, string> = {}) {
    const started = await h.start({ ...oidcEnv, ...env });
    const account = await createAccount(started.ctx, { username: 'alexdemo1', password: PASSWORD });
    const browser = new Client(started.app);
    await browser.signIn('alexdemo1', PASSWORD);
    return { ...started, account, browser };
  }

  async function signedInWithClock() {
    const started = await signedIn();
    return { ...started, clock: h.clock };
  }

  /** A code for the web app through the signed-in browser (single sign-on: no widget). */
  async function codeFor(
    browser: Client,
    extra: Record<string, string> = {},
    client: typeof webApp | typeof spa = webApp,
  ) {
    const { secrets, params } = codeRequest(client, extra);
    const { location } = await authorize(browser, params);
    return { code: codeOf(location, secrets.state), secrets };
  }

  test('discovery names the issuer, code flow with S256 only, ES256, the step-up levels; the JWKS holds public keys only', async () => {
    const { app } = await h.start(oidcEnv);
    const discovery = await app.inject({ url: '/oidc/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(200);
    const doc = discovery.json();
    expect(doc).toMatchObject({
      issuer: 'http://localhost/oidc',
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['ES256'],
      acr_values_supported: [
        'urn:gatehouse:acr:password',
        'urn:gatehouse:acr:mfa',
        'urn:gatehouse:acr:phishing-resistant',
      ],
      backchannel_logout_supported: true,
    });
    expect(doc.grant_types_supported).not.toContain('implicit');
    const root = await app.inject({ url: '/.well-known/openid-configuration' });
    expect(root.statusCode).toBe(308);
    expect(root.headers.location).toBe('/oidc/.well-known/openid-configuration');
    const jwks = (await app.inject({ url: '/oidc/jwks' })).json() as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  test('an unregistered redirect URI is refused on the provider, never redirected to', async () => {
    const { browser } = await signedIn();
    for (const redirect of [
      'https://attacker.example/callback',
      'https://web.bank.example/callback/',
      'https://web.bank.example/callback?x=1',
      'https://WEB.bank.example/callback',
    ]) {
      const { params } = codeRequest(webApp, { redirect_uri: redirect });
      const response = await browser.get(`/oidc/auth?${new URLSearchParams(params)}`);
      expect(response.statusCode, redirect).toBe(400);
      expect(response.headers.location, redirect).toBeUndefined();
      expect(response.body).toContain('<h1>We couldn&#39;t complete the sign-in</h1>');
      expect(response.body).toContain('<code>invalid_redirect_uri</code>');
      expect(response.body).not.toMatch(/at .*\.js:\d+/);
    }
  });

  test("the provider's error page speaks the browser's language", async () => {
    const { app } = await h.start(oidcEnv);
    const { params } = codeRequest(webApp, { redirect_uri: 'https://attacker.example/cb' });
    const response = await app.inject({
      url: `/oidc/auth?${new URLSearchParams(params)}`,
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<html lang="es">');
    expect(response.body).toContain('No pudimos completar el inicio de sesión');
  });

  test('state, nonce and a PKCE challenge are required: each missing one is invalid_request at the client', async () => {
    const { browser } = await signedIn();
    for (const missing of ['state', 'nonce', 'code_challenge']) {
      const { params } = codeRequest(webApp);
      delete (params as Record<string, string>)[missing];
      const { location } = await authorize(browser, params);
      const url = new URL(location!);
      expect(`${url.origin}${url.pathname}`, missing).toBe(webApp.redirect);
      expect(url.searchParams.get('error'), missing).toBe('invalid_request');
      expect(url.searchParams.get('code'), missing).toBeNull();
    }
    // plain is a downgrade: refused.
    const { params } = codeRequest(webApp, { code_challenge_method: 'plain' });
    const { location } = await authorize(browser, params);
    expect(new URL(location!).searchParams.get('error')).toBe('invalid_request');
  });

  test('a code redeemed without its PKCE verifier, or with another, is refused', async () => {
    const { app, browser } = await signedIn();
    const first = await codeFor(browser);
    const without = await redeem(app, first.code, undefined);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ error: 'invalid_grant' });
    const second = await codeFor(browser);
    const wrong = await redeem(app, second.code, codeRequest(webApp).secrets.verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('a code is used once: its second redemption is refused and revokes the tokens the first gave', async () => {
    const { app, browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const first = await redeem(app, code, secrets.verifier);
    expect(first.statusCode).toBe(200);
    const { access_token, refresh_token } = first.json();
    const me = await app.inject({ url: '/oidc/me', headers: { authorization: `Bearer ${access_token}` } });
    expect(me.statusCode).toBe(200);
    const again = await redeem(app, code, secrets.verifier);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_grant' });
    const after = await app.inject({ url: '/oidc/me', headers: { authorization: `Bearer ${access_token}` } });
    expect(after.statusCode).toBe(401);
    const refresh = await providerPost(app, '/token', { grant_type: 'refresh_token', refresh_token });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('a burst of 20 redemptions of one code at once: exactly one gets tokens', async () => {
    const { app, browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(app, code, secrets.verifier)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(19);
  });

  test('refresh tokens rotate; the old one used after rotation is refused and ends the whole family', async () => {
    const { app, browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    const rotated = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json();
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    // The stolen (old) token, replayed by an attacker after the client rotated it.
    const stolen = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ error: 'invalid_grant' });
    // The family is revoked: the client's current refresh token and access token too.
    const current = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
    });
    expect(current.json()).toMatchObject({ error: 'invalid_grant' });
    const introspected = await providerPost(app, '/token/introspection', { token: next.access_token });
    expect(introspected.json()).toEqual({ active: false });
  });

  test('revocation: a revoked refresh token ends its grant; introspection says so', async () => {
    const { app, browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    expect(
      (await providerPost(app, '/token/introspection', { token: tokens.access_token })).json(),
    ).toMatchObject({
      active: true,
      client_id: webApp.id,
    });
    const revoked = await providerPost(app, '/token/revocation', {
      token: tokens.refresh_token,
      token_type_hint: 'refresh_token',
    });
    expect(revoked.statusCode).toBe(200);
    const refresh = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await providerPost(app, '/token/introspection', { token: tokens.access_token })).json()).toEqual({
      active: false,
    });
  });

  test('a burst of 20 refreshes with one refresh token: one rotation, and the replays revoke the family', async () => {
    const { app, browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        providerPost(app, '/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
      ),
    );
    const won = answers.filter((a) => a.statusCode === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400).map((a) => a.json().error)).toEqual(
      Array(19).fill('invalid_grant'),
    );
    // A concurrent reuse is a reuse: the winner's new refresh token is revoked with the grant.
    const after = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: won[0]!.json().refresh_token,
    });
    expect(after.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('the relying party refuses an ID token whose nonce is not the one it sent', async () => {
    const { app, browser } = await signedIn();
    const { secrets, params } = codeRequest(webApp);
    const { location } = await authorize(browser, params);
    const config = await openid.discovery(
      new URL('http://localhost/oidc'),
      webApp.id,
      webApp.secret,
      undefined,
      {
        [openid.customFetch]: injectFetch(app) as never,
        execute: [openid.allowInsecureRequests],
      },
    );
    const refused = await openid
      .authorizationCodeGrant(config, new URL(location!), {
        pkceCodeVerifier: secrets.verifier,
        expectedState: secrets.state,
        expectedNonce: 'not-the-nonce-that-was-sent',
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toMatchObject({
      code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
      cause: { message: 'unexpected ID Token "nonce" claim value', cause: { claim: 'nonce' } },
    });
  });

  test('openid-client signs in: the ID token verifies against the JWKS and carries acr, amr and auth_time; userinfo answers', async () => {
    const { app, browser } = await signedIn();
    const { secrets, params } = codeRequest(webApp);
    const { location } = await authorize(browser, params);
    const config = await openid.discovery(
      new URL('http://localhost/oidc'),
      webApp.id,
      webApp.secret,
      undefined,
      {
        [openid.customFetch]: injectFetch(app) as never,
        execute: [openid.allowInsecureRequests],
      },
    );
    const tokens = await openid.authorizationCodeGrant(config, new URL(location!), {
      pkceCodeVerifier: secrets.verifier,
      expectedState: secrets.state,
      expectedNonce: secrets.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ acr: 'urn:gatehouse:acr:password', amr: ['pwd'], aud: webApp.id });
    expect(typeof claims.auth_time).toBe('number');
    const info = await openid.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, preferred_username: 'alexdemo1', name: 'alexdemo1' });
  });

  test('a second client signs in on the same browser without a sign-in; a browser without a portal session goes to the widget', async () => {
    const { app, browser } = await signedIn();
    await codeFor(browser);
    const second = await codeFor(browser, {}, spa);
    const tokens = await redeem(app, second.code, second.secrets.verifier, 'spa');
    expect(tokens.statusCode).toBe(200);
    expect(jwtPayload(tokens.json().id_token)).toMatchObject({ aud: spa.id, amr: ['pwd'] });

    const stranger = new Client(app);
    const { params } = codeRequest(webApp);
    const { location } = await authorize(stranger, params);
    expect(location).toMatch(/^\/#\/oidc\/login\/[A-Za-z0-9_-]+$/);
  });

  test('acr_values above the session, prompt=login and max_age send the browser to the widget (STEPUP, LOGIN)', async () => {
    const { app, browser, clock } = await signedInWithClock();
    const stepUp = await authorize(
      browser,
      codeRequest(webApp, { acr_values: 'urn:gatehouse:acr:mfa' }).params,
    );
    expect(stepUp.location).toMatch(/^\/#\/oidc\/stepup\/[A-Za-z0-9_-]+$/);
    // Back from the widget with nothing more proved: the client hears so, no second round.
    const uid = stepUp.location!.split('/').pop()!;
    const back = await browser.get(`/oidc/interaction/${uid}?from=portal`);
    expect(back.statusCode).toBe(303);
    const followed = await browser.get(pathOf(back.headers.location as string));
    const error = new URL(followed.headers.location as string);
    expect(`${error.origin}${error.pathname}`).toBe(webApp.redirect);
    expect(error.searchParams.get('error')).toBe('unmet_authentication_requirements');

    const login = await authorize(browser, codeRequest(webApp, { prompt: 'login' }).params);
    expect(login.location).toMatch(/^\/#\/oidc\/login\//);
    // max_age: met by a recent sign-in, the widget once it is older.
    const recent = await authorize(browser, codeRequest(webApp, { max_age: '600' }).params);
    expect(recent.location).toMatch(/^https:\/\/web\.bank\.example\/callback\?code=/);
    // Another browser whose sign-in is 601 seconds old.
    const other = new Client(app);
    await other.signIn('alexdemo1', PASSWORD);
    clock.advance(601_000);
    const old = await authorize(other, codeRequest(webApp, { max_age: '600' }).params);
    expect(old.location).toMatch(/^\/#\/oidc\/login\//);
  });

  test("an interaction of another browser, or none, shows the widget's /ssoerror screen", async () => {
    const { app, browser } = await signedIn();
    const stepUp = await authorize(
      browser,
      codeRequest(webApp, { acr_values: 'urn:gatehouse:acr:mfa' }).params,
    );
    const uid = stepUp.location!.split('/').pop()!;
    const other = new Client(app);
    const answer = await other.get(`/oidc/interaction/${uid}`);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/#/oidc/error');
  });

  test('RP-initiated logout ends the portal session and the refresh tokens', async () => {
    const { app, ctx, browser, account } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    const end = await browser.get(
      `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: webApp.logout })}`,
    );
    expect(end.statusCode).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(end.body)![1]!;
    const confirm = await browser.request({
      method: 'POST',
      url: '/oidc/session/end/confirm',
      payload: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      csrf: false,
    });
    expect(confirm.statusCode).toBe(303);
    expect(confirm.headers.location).toBe(webApp.logout);
    expect((await browser.session()).statusCode).toBe(401);
    await expect.poll(async () => auditTrail(ctx.db, account.id)).toContain('oidc-logout:success');
    const refresh = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('the token endpoint is rate-limited per client address (429 with Retry-After)', async () => {
    const { app } = await h.start({ ...oidcEnv, OIDC_TOKEN_RATE_MAX: '3' });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(
        await providerPost(
          app,
          '/token',
          {
            grant_type: 'authorization_code',
            code: 'x',
            redirect_uri: webApp.redirect,
            code_verifier: 'y'.repeat(43),
          },
          'web',
          '203.0.113.9',
        ),
      );
    }
    expect(answers.slice(0, 3).map((a) => a.statusCode)).toEqual([400, 400, 400]);
    expect(answers[3]!.statusCode).toBe(429);
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
  });

  test("only the provider's own endpoints go without the portal's CSRF token: a path that looks like one does not", async () => {
    const { browser } = await signedIn();
    for (const url of [
      '/oidc/../api/user/session/extend',
      '/oidc/%2e%2e/api/user/session/extend',
      '/oidc/interaction/x/../../../api/user/session/extend',
    ]) {
      const response = await browser.request({ method: 'POST', url, body: {}, csrf: false });
      expect(response.statusCode, url).not.toBe(200);
      expect(response.statusCode, url).toBeLessThan(500);
    }
  });

  test('a spoofed X-Forwarded-For does not escape the token limit; X-Forwarded-Host does not move the endpoints', async () => {
    const { app } = await h.start({ ...oidcEnv, OIDC_TOKEN_RATE_MAX: '2' });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/oidc/token',
        remoteAddress: '203.0.113.7',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `198.51.100.${i}`,
          'x-gatehouse-client-ip': `198.51.100.${i}`,
        },
        payload: 'grant_type=authorization_code&code=x',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([400, 400, 429]);
    const discovery = await app.inject({
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(discovery.json().token_endpoint).toBe('http://localhost/oidc/token');
  });

  test('a portal sign-out ends single sign-on: the next request shows the widget', async () => {
    const { browser } = await signedIn();
    await codeFor(browser);
    expect((await browser.delete(api(paths.sessionLogout))).statusCode).toBe(204);
    const { location } = await authorize(browser, codeRequest(webApp).params);
    expect(location).toMatch(/^\/#\/oidc\/login\//);
  });

  test("a portal session that ended without a sign-out, replaced by a new sign-in: the next ID token says the new sign-in's auth_time, not the old one's", async () => {
    const { app, ctx, browser } = await signedIn();
    const idToken = async () => {
      const { code, secrets } = await codeFor(browser);
      const tokens = (await redeem(app, code, secrets.verifier)).json();
      return JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url').toString('utf8')) as {
        auth_time: number;
        acr: string;
      };
    };
    const first = await idToken();
    // The portal session ends by itself (an idle end: no sign-out call), and later the customer
    // signs in again on the same browser.
    await ctx.sessions.endByToken(browser.cookies.get(ctx.cookieNames.session), 'idle');
    h.clock.advance(120_000);
    await browser.signIn('alexdemo1', PASSWORD);
    const second = await idToken();
    expect(second.auth_time).toBeGreaterThanOrEqual(first.auth_time + 120);
    expect(second.acr).toBe('urn:gatehouse:acr:password');
  });

  test("every session of the account ended (a change of password, a lock, a staff action): the applications' refresh tokens end too", async () => {
    const { app, ctx, browser, account } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    await ctx.sessions.endAllForAccount(account.id, 'password-changed');
    const refresh = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await providerPost(app, '/token/introspection', { token: tokens.access_token })).json()).toEqual({
      active: false,
    });
  });

  test("a portal sign-out ends the refresh and access tokens of that browser's sign-in; another browser's stay", async () => {
    const { app, browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    // The same customer signed in on another browser, with its own tokens.
    const elsewhere = new Client(app);
    await elsewhere.signIn('alexdemo1', PASSWORD);
    const kept = await codeFor(elsewhere);
    const otherTokens = (await redeem(app, kept.code, kept.secrets.verifier)).json();

    expect((await browser.delete(api(paths.sessionLogout))).statusCode).toBe(204);
    const refresh = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await providerPost(app, '/token/introspection', { token: tokens.access_token })).json()).toEqual({
      active: false,
    });
    const stays = await providerPost(app, '/token', {
      grant_type: 'refresh_token',
      refresh_token: otherTokens.refresh_token,
    });
    expect(stays.statusCode).toBe(200);
  });

  test('a code issued by one instance is redeemed at another (storage in the database)', async () => {
    const { browser } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const other = await h.start(oidcEnv, { db: await h.another() });
    const tokens = await redeem(other.app, code, secrets.verifier);
    expect(tokens.statusCode).toBe(200);
  });

  test('grants, refreshes and refusals are audit events', async () => {
    const { app, ctx, browser, account } = await signedIn();
    const { code, secrets } = await codeFor(browser);
    const tokens = (await redeem(app, code, secrets.verifier)).json();
    await providerPost(app, '/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    await redeem(app, code, secrets.verifier);
    await expect
      .poll(async () => auditTrail(ctx.db, account.id))
      .toEqual(
        expect.arrayContaining([
          'oidc-consent-implied:success',
          'oidc-authorized:success',
          'oidc-token-issued:success',
        ]),
      );
    // The replayed code: refused, and its grant revoked (no account is loaded for a refusal).
    const events = async () =>
      (await ctx.db.selectFrom('audit_events').select(['event', 'outcome', 'detail']).execute()).map(
        (e) => `${e.event}:${e.outcome}:${(e.detail as { client?: string }).client}`,
      );
    await expect
      .poll(events)
      .toEqual(
        expect.arrayContaining([
          'oidc-token-refused:failure:bank-web',
          'oidc-grant-revoked:success:bank-web',
        ]),
      );
    expect(
      (await auditTrail(ctx.db, account.id)).filter((e) => e === 'oidc-token-issued:success'),
    ).toHaveLength(2);
  });
});

describe.each(targets)('OpenID Provider in development ($name)', (target) => {
  const h = useHarness(target);

  test('the demo relying party at /oidc-demo/ signs a demo account in and shows the claims it received', async () => {
    const { app } = await h.start({ SEED_DEMO: 'true', PUBLIC_ORIGIN: 'http://localhost' });
    const browser = new Client(app);
    await browser.signIn('alexdemo1', 'Harbor7Lights');
    let response = await browser.get('/oidc-demo/login');
    for (let hop = 0; hop < 8 && response.headers.location; hop++) {
      response = await browser.get(pathOf(response.headers.location as string));
    }
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<caption>ID token claims</caption>');
    expect(response.body).toContain('urn:gatehouse:acr:password');
    expect(response.body).toContain('&#34;preferred_username&#34;: &#34;alexdemo1&#34;');
  });

  test('expired provider rows go with the clean-up', async () => {
    const { app, ctx } = await h.start(oidcEnv);
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const browser = new Client(app);
    await browser.signIn('alexdemo1', PASSWORD);
    await authorize(browser, codeRequest(webApp).params);
    await ctx.db
      .updateTable('oidc_payloads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const before = await ctx.db.selectFrom('oidc_payloads').select('id').execute();
    expect(before.length).toBeGreaterThan(0);
    expect((await cleanUp(ctx)).oidc).toBe(before.length);
    expect(await ctx.db.selectFrom('oidc_payloads').select('id').execute()).toEqual([]);
  });

  test('hostile input at the provider: never a 500, never a stack', async () => {
    const { app } = await h.start(oidcEnv);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/token',
          '/token/introspection',
          '/token/revocation',
          '/auth',
          '/me',
          '/session/end/confirm',
          '/request',
        ),
        fc.string({ maxLength: 300 }),
        fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'),
        async (path, body, type) => {
          const response = await app.inject({
            method: 'POST',
            url: `/oidc${path}`,
            headers: { 'content-type': type },
            payload: body,
          });
          expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          expect(response.body).not.toMatch(/at .+\.(js|ts):\d+/);
        },
      ),
      { numRuns: 60 },
    );
    const query = await app.inject({ url: `/oidc/auth?${'client_id=%zz&'.repeat(3)}` });
    expect(query.statusCode).toBeLessThan(500);
  });
});

describe.each(targets)('OpenID Provider in production mode ($name)', (target) => {
  const h = useHarness(target);
  const key = (kid: string) => ({
    ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
    kid,
  });

  test('signs with the first key of OIDC_SIGNING_KEYS and publishes the next one (rotation)', async () => {
    const current = key('2026-11');
    const next = key('2027-01');
    const { app, ctx } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      ...productionMail,
      PUBLIC_ORIGIN: 'https://portal.bank.example',
      OIDC_CLIENTS: oidcEnv.OIDC_CLIENTS,
      OIDC_SIGNING_KEYS: JSON.stringify({ keys: [current, next] }),
    });
    const jwks = (await app.inject({ url: '/oidc/jwks' })).json() as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.map((k) => k.kid)).toEqual(['2026-11', '2027-01']);
    for (const k of jwks.keys) expect(k).not.toHaveProperty('d');
    expect(await ctx.db.selectFrom('oidc_signing_keys').select('kid').execute()).toEqual([]);

    await createAccount(ctx, { username: 'alexprod01', password: PASSWORD });
    const browser = new Client(app, { origin: 'https://portal.bank.example' });
    await browser.signIn('alexprod01', PASSWORD);
    const { secrets, params } = codeRequest(webApp);
    const { location } = await authorize(browser, params);
    const tokens = (await redeem(app, codeOf(location, secrets.state), secrets.verifier)).json();
    const header = JSON.parse(Buffer.from(tokens.id_token.split('.')[0], 'base64url').toString('utf8'));
    expect(header).toMatchObject({ alg: 'ES256', kid: '2026-11' });
    expect(jwtPayload(tokens.id_token)).toMatchObject({ iss: 'https://portal.bank.example/oidc' });
  });
});

describe('OpenID Provider: database faults (PGlite)', () => {
  test('the database gone under the provider: 503 with Retry-After, temporarily_unavailable, never a stack', async () => {
    await onOwnPGlite(
      async ({ pglite, app, logs }) => {
        expect((await app.inject({ url: '/oidc/jwks' })).statusCode).toBe(200);
        await pglite.close();
        const token = await providerPost(app, '/token', {
          grant_type: 'refresh_token',
          refresh_token: 'x'.repeat(43),
        });
        expect(token.statusCode).toBe(503);
        expect(token.headers['retry-after']).toBe('5');
        expect(token.json()).toEqual({
          error: 'temporarily_unavailable',
          error_description: 'the service is unavailable; retry later',
        });
        expect(logs.some((l) => l.includes('database error under the OpenID Provider'))).toBe(true);
      },
      { env: oidcEnv },
    );
  });
});

describe('OIDC_CLIENTS', () => {
  const client = (over: Record<string, unknown>) =>
    JSON.stringify([
      {
        id: 'bank-web',
        secret: 'a-web-app-secret-of-thirty-two-chars!!',
        firstParty: true,
        redirectUris: ['https://web.bank.example/cb'],
        ...over,
      },
    ]);
  const production = { NODE_ENV: 'production', SESSION_SECRET: productionSecret, ...productionMail };

  test('production refuses http redirect URIs except loopback; wildcards always; clients not first-party', () => {
    expect(() =>
      loadConfig({ ...production, OIDC_CLIENTS: client({ redirectUris: ['http://web.bank.example/cb'] }) }),
    ).toThrow(/OIDC_CLIENTS.*must be https:\/\/ in production mode/);
    expect(() =>
      loadConfig({
        ...production,
        OIDC_CLIENTS: client({ redirectUris: ['http://127.0.0.1:7000/cb'] }),
        OIDC_SIGNING_KEYS: '',
      }),
    ).toThrow(/OIDC_SIGNING_KEYS/);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: client({ redirectUris: ['https://*.bank.example/cb'] }) }),
    ).toThrow(/wildcards are not allowed/);
    expect(() => loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: client({ firstParty: false }) })).toThrow(
      /first-party clients only/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: client({ secret: undefined }) })).toThrow(
      /either a secret or "public": true/,
    );
    expect(loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: client({}) }).oidc.clients[0]).toMatchObject({
      id: 'bank-web',
      public: false,
    });
  });

  test('OIDC_CLIENTS may name a file of JSON; a missing file or bad JSON stops the start with the setting named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oidc-clients-'));
    const file = join(dir, 'clients.json');
    writeFileSync(file, client({ id: 'from-file' }));
    expect(loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: file }).oidc.clients.map((c) => c.id)).toEqual([
      'from-file',
    ]);
    expect(() => loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: join(dir, 'none.json') })).toThrow(
      /OIDC_CLIENTS: no file at/,
    );
    writeFileSync(file, '[{ not json');
    expect(() => loadConfig({ NODE_ENV: 'test', OIDC_CLIENTS: file })).toThrow(
      /OIDC_CLIENTS: is neither JSON nor a file of JSON/,
    );
    rmSync(dir, { recursive: true });
  });
});
