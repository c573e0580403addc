import { paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  json,
  productionMail,
  productionSecret,
  targets,
  useHarness,
} from './support/harness.ts';

const PASSWORD = 'Harbor7Lights';
const WRONG = 'Harbor7Lightz';

describe.each(targets)('CSRF and origin ($name)', (target) => {
  const h = useHarness(target);

  test('a state-changing call without the X-XSRF-TOKEN header: 403', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app);
    await client.get(api(paths.health));
    expect(client.cookies.get('XSRF-TOKEN')).toBeTruthy();
    const r = await client.request({
      method: 'POST',
      url: api(paths.passwordAuthentication),
      body: { username: 'alexdemo1', password: PASSWORD },
      csrf: false,
    });
    const body = expectFailureEnvelope(r, 403, 4403);
    expect(body.responseBaseInfo.status.message).toBe(
      'The request could not be verified. Reload the page and try again.',
    );
    expect(r.cookies.find((c) => c.name === 'ET')).toBeUndefined();
    // The same call with the header goes through.
    expect(code(await client.signInPassword('alexdemo1', PASSWORD))).toBe(1200);
  });

  test('a forged token: 403', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    await client.get(api(paths.health));
    const real = client.cookies.get('XSRF-TOKEN')!;
    const [nonce] = real.split('.');
    for (const forged of [
      'x',
      `${nonce}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      `${real}.extra`,
      `${nonce}.`,
    ]) {
      // A naive double submit would accept a cookie and header that agree: this one does not.
      client.cookies.set('XSRF-TOKEN', forged);
      const r = await client.signInPassword('alexdemo1', PASSWORD);
      expectFailureEnvelope(r, 403, 4403);
    }
  });

  test('a token copied from another session: 403', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await createAccount(ctx, { username: 'mallory01', password: PASSWORD });
    const victim = new Client(app);
    await victim.signIn('alexdemo1', PASSWORD);
    const attacker = new Client(app);
    await attacker.signIn('mallory01', PASSWORD);

    // The attacker's request carries the victim's (valid) token in cookie and header.
    attacker.cookies.set('XSRF-TOKEN', victim.cookies.get('XSRF-TOKEN')!);
    expectFailureEnvelope(await attacker.post(api(paths.sessionExtend)), 403, 4403);
    // (The refusal set a fresh token of the attacker's own session; copy the victim's again.)
    attacker.cookies.set('XSRF-TOKEN', victim.cookies.get('XSRF-TOKEN')!);
    expectFailureEnvelope(await attacker.delete(api(paths.sessionLogout)), 403, 4403);
    expect((await attacker.session()).statusCode).toBe(200);

    // A token issued before sign-in is not valid for the signed-in session.
    const client = new Client(app);
    await client.get(api(paths.health));
    const anonymousToken = client.cookies.get('XSRF-TOKEN')!;
    await client.signIn('alexdemo1', PASSWORD);
    expect(client.cookies.get('XSRF-TOKEN')).not.toBe(anonymousToken);
    client.cookies.set('XSRF-TOKEN', anonymousToken);
    expectFailureEnvelope(await client.post(api(paths.sessionExtend)), 403, 4403);
  });

  test('a foreign Origin: 403 even with a valid token; the own and allowed origins pass', async () => {
    const { app, ctx } = await h.start({
      PUBLIC_ORIGIN: 'https://signin.bank.example',
      ALLOWED_ORIGINS: 'https://portal.bank.example',
    });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const evil = new Client(app, { origin: 'https://evil.example' });
    const r = await evil.signInPassword('alexdemo1', PASSWORD);
    const body = expectFailureEnvelope(r, 403, 4403);
    expect(body.responseBaseInfo.status.message).toBe('Requests from this origin are not accepted.');
    expect(
      code(
        await new Client(app, { origin: 'https://signin.bank.example' }).signInPassword(
          'alexdemo1',
          PASSWORD,
        ),
      ),
    ).toBe(1200);
    expect(
      code(
        await new Client(app, { origin: 'https://portal.bank.example' }).signInPassword(
          'alexdemo1',
          PASSWORD,
        ),
      ),
    ).toBe(1200);
    expectFailureEnvelope(
      await new Client(app, { origin: 'https://portal.bank.example.evil.example' }).signInPassword(
        'alexdemo1',
        PASSWORD,
      ),
      403,
      4403,
    );
    expectFailureEnvelope(
      await new Client(app, { origin: 'null' }).signInPassword('alexdemo1', PASSWORD),
      403,
      4403,
    );
  });

  test('safe methods need no token', async () => {
    const { app } = await h.start();
    const r = await app.inject({ method: 'GET', url: api(paths.health) });
    expect(r.statusCode).toBe(200);
  });
});

describe.each(targets)('a portal on another host: CORS and connect-src ($name)', (target) => {
  const h = useHarness(target);
  const portal = 'https://portal.dev.primeservices.example';
  const service = 'https://identity.dev.primeservices.example';

  test('a configured portal origin gets CORS with credentials; others get none', async () => {
    const { app } = await h.start({ CORS_ORIGINS: portal });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: api(paths.passwordAuthentication),
      headers: {
        origin: portal,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-xsrf-token,appid,session_ctx',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(portal);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(String(preflight.headers['access-control-allow-methods'])).toMatch(/PUT/);
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('x-xsrf-token');

    const foreign = await app.inject({
      method: 'OPTIONS',
      url: api(paths.passwordAuthentication),
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const get = await app.inject({
      method: 'GET',
      url: api(paths.health),
      headers: { origin: 'https://evil.example' },
    });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();

    // Without CORS_ORIGINS nobody gets CORS headers.
    const { app: plain } = await h.start();
    const none = await plain.inject({ method: 'GET', url: api(paths.health), headers: { origin: portal } });
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('the portal signs in across origins with the token from the response header; CSRF still holds', async () => {
    const { app, ctx } = await h.start({ CORS_ORIGINS: portal });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    const client = new Client(app, { origin: portal });
    const first = await client.get(api(paths.health));
    expect(first.headers['access-control-allow-origin']).toBe(portal);
    expect(String(first.headers['access-control-expose-headers'])).toContain('X-XSRF-TOKEN');
    // The page cannot read this host's cookie; the header carries the same token.
    expect(first.headers['x-xsrf-token']).toBe(client.cookies.get('XSRF-TOKEN'));
    const r = await client.signInPassword('alexdemo1', PASSWORD);
    expect(code(r)).toBe(1200);
    expect(r.headers['access-control-allow-origin']).toBe(portal);
    // The token is re-bound to the new session: the header has the new one.
    expect(r.headers['x-xsrf-token']).toBe(client.cookies.get('XSRF-TOKEN'));
    // Without the token the same origin is refused.
    const refused = await client.request({ method: 'POST', url: api(paths.sessionLogin), csrf: false });
    expectFailureEnvelope(refused, 403, 4403);
  });

  test("CONNECT_SRC adds the environments' services to the pages' connect-src; a bad entry stops the start", async () => {
    const { app } = await h.start({ CONNECT_SRC: service });
    const r = await app.inject({ method: 'GET', url: api(paths.apiDocs) });
    expect(String(r.headers['content-security-policy'])).toMatch(
      new RegExp(`connect-src 'self' ${service.replace(/\./g, '\\.')}(;|$)`),
    );
    await expect(h.start({ CONNECT_SRC: 'identity.dev.primeservices.example' })).rejects.toThrow(
      /^Invalid setting CONNECT_SRC \(got "identity.dev.primeservices.example"\): each entry must be an origin/,
    );
  });
});

describe.each(targets)('rate limits ($name)', (target) => {
  const h = useHarness(target);

  test('per account: 429 with Retry-After past RATE_LIMIT_ACCOUNT_MAX, from any address', async () => {
    const { app } = await h.start({ RATE_LIMIT_ACCOUNT_MAX: '3', RATE_LIMIT_ACCOUNT_WINDOW_SECONDS: '900' });
    for (let i = 0; i < 3; i++) {
      const r = await new Client(app, { remoteAddress: `10.0.0.${i + 1}` }).signInPassword(
        'target001',
        WRONG,
      );
      expect(code(r)).toBe(1403);
    }
    const limited = await new Client(app, { remoteAddress: '10.0.0.99' }).signInPassword('target001', WRONG);
    const body = expectFailureEnvelope(limited, 429, 4429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(body.responseBaseInfo.status.message).toBe(
      `Too many attempts. Please wait ${retryAfter} seconds and try again.`,
    );
    // Another account from the same address is not limited.
    expect(
      code(await new Client(app, { remoteAddress: '10.0.0.99' }).signInPassword('other0001', WRONG)),
    ).toBe(1403);
    // The window passes: allowed again.
    h.clock.advance(901_000);
    expect(
      code(await new Client(app, { remoteAddress: '10.0.0.99' }).signInPassword('target001', WRONG)),
    ).toBe(1403);
  });

  test('per client address: 429 with Retry-After past RATE_LIMIT_CLIENT_MAX, for any account', async () => {
    const { app } = await h.start({ RATE_LIMIT_CLIENT_MAX: '4', RATE_LIMIT_CLIENT_WINDOW_SECONDS: '300' });
    const client = new Client(app, { remoteAddress: '192.0.2.7' });
    for (let i = 0; i < 4; i++) expect(code(await client.signInPassword(`user0000${i}`, WRONG))).toBe(1403);
    const limited = await client.signInPassword('user00009', WRONG);
    expectFailureEnvelope(limited, 429, 4429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    // Another address is not limited.
    expect(
      code(await new Client(app, { remoteAddress: '192.0.2.8' }).signInPassword('user00009', WRONG)),
    ).toBe(1403);
  });

  test('by default one shared address (a branch, an office, a call centre) takes 150 sign-in attempts for different customers in 5 minutes; each account still stops at 10 attempts in 15 minutes', async () => {
    // The defaults, not the harness's generous limits.
    const { app } = await h.start({
      RATE_LIMIT_CLIENT_MAX: undefined,
      RATE_LIMIT_ACCOUNT_MAX: undefined,
    } as unknown as Record<string, string>);
    const office = new Client(app, { remoteAddress: '198.51.100.20' });
    const answers: number[] = [];
    for (let i = 0; i < 150; i++) answers.push(code(await office.signInPassword(`branch${1000 + i}`, WRONG)));
    expect(answers.filter((c) => c === 4429)).toEqual([]);
    expect(new Set(answers)).toEqual(new Set([1403]));
    // The per-account limit is as before: 10 per 15 minutes, from any address.
    for (let i = 0; i < 10; i++) {
      const from = new Client(app, { remoteAddress: `203.0.113.${i + 1}` });
      expect(code(await from.signInPassword('teller0001', WRONG))).toBe(1403);
    }
    expectFailureEnvelope(
      await new Client(app, { remoteAddress: '203.0.113.99' }).signInPassword('teller0001', WRONG),
      429,
      4429,
    );
  });

  test('a rate-limited right password does not sign in', async () => {
    const { app, ctx } = await h.start({ RATE_LIMIT_ACCOUNT_MAX: '2' });
    await createAccount(ctx, { username: 'alexdemo1', password: PASSWORD });
    await new Client(app).signInPassword('alexdemo1', WRONG);
    await new Client(app).signInPassword('alexdemo1', WRONG);
    const r = await new Client(app).signInPassword('alexdemo1', PASSWORD);
    expect(r.statusCode).toBe(429);
    expect(r.cookies.find((c) => c.name === 'ET')).toBeUndefined();
  });

  test('two instances on the same database share the counts', async () => {
    const env = { RATE_LIMIT_ACCOUNT_MAX: '4' };
    const one = await h.start(env);
    const two = await h.start(env, { db: await h.another() });
    expect(code(await new Client(one.app).signInPassword('shared001', WRONG))).toBe(1403);
    expect(code(await new Client(two.app).signInPassword('shared001', WRONG))).toBe(1403);
    expect(code(await new Client(one.app).signInPassword('shared001', WRONG))).toBe(1403);
    expect(code(await new Client(two.app).signInPassword('shared001', WRONG))).toBe(1403);
    expect((await new Client(one.app).signInPassword('shared001', WRONG)).statusCode).toBe(429);
    expect((await new Client(two.app).signInPassword('shared001', WRONG)).statusCode).toBe(429);
  });

  test('simultaneous attempts are all counted', async () => {
    const { app } = await h.start({ RATE_LIMIT_ACCOUNT_MAX: '5' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        new Client(app, { remoteAddress: `10.1.0.${i + 1}` }).signInPassword('burst0001', WRONG),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 429).length).toBe(3);
    expect(answers.filter((r) => r.statusCode === 200).length).toBe(5);
  });
});

describe.each(targets)('security headers ($name)', (target) => {
  const h = useHarness(target);

  const csp = (header: unknown) =>
    Object.fromEntries(
      String(header)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name!, values]),
    ) as Record<string, string[]>;

  test('development: CSP without unsafe script sources, frame-ancestors, nosniff, referrer policy, no HSTS', async () => {
    const { app } = await h.start({
      FRAME_ANCESTORS: 'https://portal.bank.example, https://www.bank.example',
    });
    // Documents: the API reference page, and any path outside the API.
    for (const url of [api('/docs'), '/nope']) {
      const r = await app.inject({ method: 'GET', url });
      const policy = csp(r.headers['content-security-policy']);
      expect(policy['script-src'], url).toEqual(["'self'"]);
      expect(policy['default-src']).toEqual(["'self'"]);
      expect(policy['object-src']).toEqual(["'none'"]);
      expect(policy['frame-ancestors']).toEqual([
        "'self'",
        'https://portal.bank.example',
        'https://www.bank.example',
      ]);
      expect(String(r.headers['content-security-policy'])).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(r.headers['strict-transport-security']).toBeUndefined();
      // frame-ancestors decides framing when hosts are listed.
      expect(r.headers['x-frame-options']).toBeUndefined();
      expect(r.headers['cache-control']).toBe('no-store');
    }
    // API answers: nothing may load or frame them, whatever FRAME_ANCESTORS lists.
    for (const url of [api(paths.health), api('/nope')]) {
      const r = await app.inject({ method: 'GET', url });
      expect(csp(r.headers['content-security-policy']), url).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      expect(r.headers['x-frame-options'], url).toBe('DENY');
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
      expect(r.headers['referrer-policy'], url).toBe('no-referrer');
      expect(r.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(r.headers['strict-transport-security'], url).toBeUndefined();
      expect(r.headers['cache-control'], url).toBe('no-store');
      for (const documentOnly of [
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
      ]) {
        expect(r.headers[documentOnly], `${url} ${documentOnly}`).toBeUndefined();
      }
    }
  });

  test('without FRAME_ANCESTORS only the own origin may frame the pages', async () => {
    const { app } = await h.start();
    const r = await app.inject({ method: 'GET', url: api(paths.apiDocs) });
    expect(csp(r.headers['content-security-policy'])['frame-ancestors']).toEqual(["'self'"]);
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  test('production: HSTS', async () => {
    const { app } = await h.start({
      NODE_ENV: 'production',
      SESSION_SECRET: productionSecret,
      ...productionMail,
    });
    for (const url of [api(paths.health), api(paths.apiDocs)]) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.headers['strict-transport-security'], url).toMatch(/^max-age=31536000; includeSubDomains/);
      expect(String(r.headers['content-security-policy']), url).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
  });

  test('every response carries a request id; a well-formed given one is kept', async () => {
    const { app } = await h.start();
    const r = await app.inject({ method: 'GET', url: api('/nope') });
    expect(r.headers['x-request-id']).toMatch(/^REQ[A-Za-z0-9]{32}$/);
    expect(json(r).responseBaseInfo.requestId).toBe(r.headers['x-request-id']);
    const given = `REQ${'a1B2'.repeat(8)}`;
    const kept = await app.inject({ method: 'GET', url: api('/nope'), headers: { 'x-request-id': given } });
    expect(kept.headers['x-request-id']).toBe(given);
    expect(json(kept).responseBaseInfo.requestId).toBe(given);
    const bad = await app.inject({
      method: 'GET',
      url: api('/nope'),
      headers: { 'x-request-id': 'REQ<script>' },
    });
    expect(bad.headers['x-request-id']).toMatch(/^REQ[A-Za-z0-9]{32}$/);
  });
});
