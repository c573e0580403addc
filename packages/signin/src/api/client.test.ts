import { headers, paths } from '@gatehouse/contract/client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiClient } from './client.ts';

/** Portal spec §7 environments: the service on another host than the page. */
const service = 'https://identity.dev.primeservices.example';

type Seen = {
  url: string;
  csrf: string | null;
  language: string | null;
  credentials: RequestCredentials | undefined;
};

function fakeService(tokens: string[]) {
  const seen: Seen[] = [];
  let next = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const sent = new Headers(init.headers);
      seen.push({
        url,
        csrf: sent.get(headers.csrf),
        language: sent.get('accept-language'),
        credentials: init.credentials,
      });
      const token = tokens[Math.min(next++, tokens.length - 1)]!;
      return new Response(
        JSON.stringify({
          responseBaseInfo: { requestId: 'REQx', status: { code: 1200, message: 'Success' } },
        }),
        {
          status: 200,
          headers: { 'content-type': 'application/json', [headers.csrf]: token },
        },
      );
    }),
  );
  return seen;
}

afterEach(() => {
  vi.unstubAllGlobals();
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server clearing the CSRF cookie.
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('the call helper and the CSRF token', () => {
  test('a service on another host: the token of its X-XSRF-TOKEN header, in memory, follows each answer', async () => {
    const seen = fakeService(['from-health', 'after-sign-in', 'later']);
    const client = new ApiClient({ endpoint: service, appId: 'app', appName: 'App' });
    await client.request('POST', paths.passwordAuthentication, { body: { username: 'a', password: 'b' } });
    expect(seen[0]!.url).toBe(`${service}/api${paths.health}`);
    expect(seen[1]).toMatchObject({
      url: `${service}/api${paths.passwordAuthentication}`,
      csrf: 'from-health',
    });
    expect(seen[1]!.credentials).toBe('include');
    // The sign-in answer re-bound the token: the next call sends the new one.
    await client.request('POST', paths.sessionLogin);
    expect(seen[2]!.csrf).toBe('after-sign-in');
    // Never in web storage.
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toMatch(/after-sign-in|from-health/);
  });

  test("the page's own origin: the XSRF-TOKEN cookie, not a header", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the CSRF cookie.
    document.cookie = 'XSRF-TOKEN=from-cookie';
    const seen = fakeService(['from-header']);
    const client = new ApiClient({ endpoint: '', appId: 'app', appName: 'App' });
    await client.request('POST', paths.sessionLogin);
    await client.request('POST', paths.sessionLogin);
    expect(seen.map((s) => s.csrf)).toEqual(['from-cookie', 'from-cookie']);
  });
});

describe('the language of the service messages', () => {
  test("every call asks for the page's language, English by default, not the browser's", async () => {
    const seen = fakeService(['t']);
    await new ApiClient({ endpoint: '', appId: 'app', appName: 'App' }).request(
      'GET',
      paths.rememberUsername,
    );
    await new ApiClient({ endpoint: '', appId: 'app', appName: 'App', language: 'es' }).request(
      'POST',
      paths.sessionLogin,
    );
    expect(seen.filter((s) => !s.url.endsWith(paths.health)).map((s) => s.language)).toEqual(['en', 'es']);
  });
});
