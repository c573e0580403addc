import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { paths } from '@gatehouse/contract';
import * as openid from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { freePort, latestMail, type RunningServer, startServer } from './support/server.ts';

type DemoAccount = { username: string; password: string };
const accounts = JSON.parse(
  readFileSync(new URL('../demo/accounts.json', import.meta.url), 'utf8'),
) as DemoAccount[];
/** A password-only account with an e-mail address: signs in with the password, steps up by an e-mail code. */
const alex = accounts.find((a) => a.username === 'alexdemo1')!;

/** The relying parties' pages, served by the test (a loopback http server: allowed outside production). */
let rpOrigin = '';
const webApp = {
  id: 'e2e-web',
  secret: 'an-e2e-web-app-secret-of-32-chars!!',
  get redirect() {
    return `${rpOrigin}/web/callback`;
  },
  get logout() {
    return `${rpOrigin}/web/`;
  },
};
const spa = {
  id: 'e2e-spa',
  get redirect() {
    return `${rpOrigin}/spa/cb`;
  },
  get logout() {
    return `${rpOrigin}/spa/`;
  },
};

/**
 * The identity service as an OpenID Provider (issue 27) end to end: openid-client plays two
 * relying parties (a confidential web app and a public single-page app) while Chromium is the
 * customer's browser. Discovery, code + PKCE through the widget in the portal, the ID token verified
 * against the JWKS, userinfo, single sign-on for the second client, acr_values forcing a second
 * factor (amr shows it), refresh rotation with reuse refused, RP-initiated logout ending the portal
 * session and reaching the web app's back-channel logout URI.
 */
const databases = process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

describe.each(databases)(
  'OpenID Connect on %s: two relying parties, the widget as the sign-in',
  (database) => {
    let server: RunningServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let backchannel: Server;
    const logoutTokens: string[] = [];
    /** The last URL the browser was sent to at a relying party (its redirect or logout URI). */
    let arrived: string | undefined;

    beforeAll(async () => {
      // The relying parties' side: their pages (the browser arrives there) and the web app's
      // back-channel logout URI.
      backchannel = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          if (request.method === 'POST' && request.url === '/web/backchannel') {
            const token = new URLSearchParams(body).get('logout_token');
            if (token) logoutTokens.push(token);
            response.writeHead(200).end();
            return;
          }
          if (request.url !== '/favicon.ico') arrived = `${rpOrigin}${request.url}`;
          response
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<!doctype html><html lang="en"><title>App</title><main><h1>App</h1></main></html>');
        });
      });
      const rpPort = await freePort();
      await new Promise<void>((resolve) => backchannel.listen(rpPort, '127.0.0.1', resolve));
      rpOrigin = `http://127.0.0.1:${rpPort}`;
      const port = await freePort();
      server = await startServer(
        {
          OIDC_CLIENTS: JSON.stringify([
            {
              id: webApp.id,
              secret: webApp.secret,
              firstParty: true,
              redirectUris: [webApp.redirect],
              postLogoutRedirectUris: [webApp.logout],
              scopes: ['openid', 'profile', 'email', 'offline_access'],
              backchannelLogoutUri: `${rpOrigin}/web/backchannel`,
            },
            {
              id: spa.id,
              public: true,
              firstParty: true,
              redirectUris: [spa.redirect],
              postLogoutRedirectUris: [spa.logout],
              scopes: ['openid', 'profile'],
            },
          ]),
        },
        { port, database },
      );
      browser = await launchBrowser();
      context = await browser.newContext();
      page = await context.newPage();
    }, 60_000);

    afterAll(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
      await new Promise((resolve) => backchannel?.close(resolve));
    });

    const heading = (name: string) => page.getByRole('heading', { name, exact: true });

    async function discover(client: { id: string; secret?: string }) {
      const config = await openid.discovery(
        new URL(`${server.origin}/oidc`),
        client.id,
        client.secret,
        client.secret ? undefined : openid.None(),
        { execute: [openid.allowInsecureRequests] },
      );
      // The ID token's signature is checked against the provider's JWKS, not only its claims.
      openid.enableNonRepudiationChecks(config);
      return config;
    }

    /** Starts an authorization request in the browser; returns what the callback needs. */
    async function start(config: openid.Configuration, redirect: string, extra: Record<string, string> = {}) {
      const verifier = openid.randomPKCECodeVerifier();
      const state = openid.randomState();
      const nonce = openid.randomNonce();
      const url = openid.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope:
          config.clientMetadata().client_id === spa.id
            ? 'openid profile'
            : 'openid profile email offline_access',
        code_challenge: await openid.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...extra,
      });
      arrived = undefined;
      await page.goto(url.href);
      return { verifier, state, nonce };
    }

    async function callback(
      config: openid.Configuration,
      request: { verifier: string; state: string; nonce: string },
    ) {
      await expect.poll(() => arrived, { timeout: 20_000 }).toBeTruthy();
      // The browser is at the client's page (its navigation done) before the next one starts.
      await page.waitForURL(arrived!);
      return openid.authorizationCodeGrant(config, new URL(arrived!), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
    }

    it('signs in through the widget, then a second client without a sign-in, steps up on acr_values, rotates refresh tokens and logs out', {
      timeout: 180_000,
    }, async () => {
      const web = await discover(webApp);
      expect(web.serverMetadata().issuer).toBe(`${server.origin}/oidc`);
      expect(web.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);

      // 1. The web app: no portal session, so the widget's LOGIN journey in the portal.
      const first = await start(web, webApp.redirect);
      await page.getByRole('textbox', { name: /Username/ }).waitFor();
      expect(page.url()).toMatch(/#\/oidc\/login\/[A-Za-z0-9_-]+$/);
      await expectNoAxeViolations(page, 'OpenID sign-in (LOGIN)');
      await page.getByRole('textbox', { name: /Username/ }).fill(alex.username);
      await page.getByLabel('Password', { exact: true }).fill(alex.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      const tokens = await callback(web, first);
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({
        iss: `${server.origin}/oidc`,
        aud: webApp.id,
        acr: 'urn:gatehouse:acr:password',
        amr: ['pwd'],
      });
      expect(typeof claims.auth_time).toBe('number');
      const info = await openid.fetchUserInfo(web, tokens.access_token, claims.sub);
      expect(info).toMatchObject({
        sub: claims.sub,
        preferred_username: alex.username,
        email: `${alex.username}@example.com`,
      });

      // 2. The single-page app, in the same browser: no sign-in at all (no portal page on the way).
      const spaConfig = await discover(spa);
      const visited: string[] = [];
      const onNavigate = (frame: { url(): string }) => visited.push(frame.url());
      page.on('framenavigated', onNavigate);
      const second = await start(spaConfig, spa.redirect);
      const spaTokens = await callback(spaConfig, second);
      page.off('framenavigated', onNavigate);
      expect(visited.filter((u) => u.includes('#/oidc/'))).toEqual([]);
      expect(spaTokens.claims()).toMatchObject({ sub: claims.sub, aud: spa.id, amr: ['pwd'] });

      // 3. acr_values asks for a second factor: the widget's STEPUP journey, an e-mail code.
      const third = await start(web, webApp.redirect, { acr_values: 'urn:gatehouse:acr:mfa' });
      await page.waitForURL(/#\/oidc\/stepup\//);
      await heading('Verify your identity').waitFor();
      await expectNoAxeViolations(page, 'OpenID step-up (STEPUP)');
      await page.getByRole('button', { name: 'Email me the code' }).click();
      const textbox = page.getByRole('textbox', { name: /Security code/ });
      await textbox.waitFor();
      await textbox.fill((await latestMail(server, `${alex.username}@example.com`)).code);
      await page.getByRole('button', { name: 'Submit' }).click();
      const stepped = await callback(web, third);
      const steppedClaims = stepped.claims()!;
      expect(steppedClaims).toMatchObject({ sub: claims.sub, acr: 'urn:gatehouse:acr:mfa' });
      expect(steppedClaims.amr).toEqual(expect.arrayContaining(['pwd', 'otp', 'mfa']));
      expect(steppedClaims.auth_time as number).toBeGreaterThanOrEqual(claims.auth_time as number);

      // 4. Refresh tokens rotate; the rotated-out one is refused, and with it the whole family.
      const refreshed = await openid.refreshTokenGrant(web, stepped.refresh_token!);
      expect(refreshed.refresh_token).toBeTruthy();
      expect(refreshed.refresh_token).not.toBe(stepped.refresh_token);
      await expect(openid.refreshTokenGrant(web, stepped.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(openid.refreshTokenGrant(web, refreshed.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });

      // 5. RP-initiated logout: back at the web app's logout URI, the portal session ended, and the
      // web app's back-channel logout URI told (a logout token for this subject).
      const fresh = await start(web, webApp.redirect);
      const last = await callback(web, fresh);
      const signedInBefore = await page.request.get(`${server.origin}/api${paths.sessionLogin}`);
      expect(signedInBefore.status()).toBe(200);
      arrived = undefined;
      await page.goto(
        openid.buildEndSessionUrl(web, {
          id_token_hint: last.id_token!,
          post_logout_redirect_uri: webApp.logout,
        }).href,
      );
      await expect.poll(() => arrived, { timeout: 20_000 }).toBe(webApp.logout);
      const signedInAfter = await page.request.get(`${server.origin}/api${paths.sessionLogin}`);
      expect(signedInAfter.status()).toBe(401);
      await expect.poll(() => logoutTokens.length, { timeout: 20_000 }).toBeGreaterThan(0);
      const logoutToken = JSON.parse(
        Buffer.from(logoutTokens[0]!.split('.')[1]!, 'base64url').toString('utf8'),
      );
      expect(logoutToken).toMatchObject({ sub: claims.sub, aud: webApp.id, iss: `${server.origin}/oidc` });
      expect(logoutToken.events).toHaveProperty(['http://schemas.openid.net/event/backchannel-logout']);

      // And the next authorization request needs the widget again.
      await start(web, webApp.redirect);
      await page.waitForURL(/#\/oidc\/login\//);
    });

    it("an interaction this browser does not hold shows the widget's /ssoerror screen; Cancel in the widget is access_denied at the client", {
      timeout: 120_000,
    }, async () => {
      const web = await discover(webApp);
      // Another browser (no cookies of the first) opens the first one's interaction address.
      await start(web, webApp.redirect);
      await page.waitForURL(/#\/oidc\/login\//);
      const uid = page.url().split('/').pop()!;
      const stranger = await browser.newContext();
      try {
        const other = await stranger.newPage();
        await other.goto(`${server.origin}/oidc/interaction/${uid}`);
        await other.waitForURL(/#\/oidc\/error$/);
        await other.getByRole('heading', { name: "We couldn't complete this action", exact: true }).waitFor();
        await expectNoAxeViolations(other, 'OpenID sign-in error (/ssoerror)');
        // The provider's own error page (an unregistered redirect URI: never redirected to).
        await other.goto(
          `${server.origin}/oidc/auth?${new URLSearchParams({ client_id: webApp.id, response_type: 'code', redirect_uri: 'https://attacker.example/cb', scope: 'openid' })}`,
        );
        await other.getByRole('heading', { name: "We couldn't complete the sign-in", exact: true }).waitFor();
        expect(await other.title()).toBe("We couldn't complete the sign-in");
        await expectNoAxeViolations(other, "the provider's error page");
      } finally {
        await stranger.close();
      }
      // This browser signs in to its own interaction; then declines a step-up in the widget (its
      // Cancel): the client hears access_denied.
      await page.getByRole('textbox', { name: /Username/ }).fill(alex.username);
      await page.getByLabel('Password', { exact: true }).fill(alex.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect.poll(() => arrived, { timeout: 20_000 }).toMatch(/code=/);
      await page.waitForURL(arrived!);
      await start(web, webApp.redirect, { acr_values: 'urn:gatehouse:acr:mfa' });
      await heading('Verify your identity').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => arrived, { timeout: 20_000 }).toBeTruthy();
      const answer = new URL(arrived!);
      expect(`${answer.origin}${answer.pathname}`).toBe(webApp.redirect);
      expect(answer.searchParams.get('error')).toBe('access_denied');
    });
  },
);
