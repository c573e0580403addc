import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Client } from './harness.ts';

/** Test clients of the provider (OIDC_CLIENTS): a confidential web app and a public SPA. */
export const webApp = {
  id: 'bank-web',
  secret: 'a-web-app-secret-of-thirty-two-chars!!',
  redirect: 'https://web.bank.example/callback',
  logout: 'https://web.bank.example/',
};
export const spa = {
  id: 'bank-spa',
  redirect: 'https://spa.bank.example/cb',
  logout: 'https://spa.bank.example/',
};

export const oidcEnv = {
  PUBLIC_ORIGIN: 'http://localhost',
  OIDC_CLIENTS: JSON.stringify([
    {
      id: webApp.id,
      secret: webApp.secret,
      firstParty: true,
      redirectUris: [webApp.redirect],
      postLogoutRedirectUris: [webApp.logout],
      scopes: ['openid', 'profile', 'email', 'offline_access'],
    },
    {
      id: spa.id,
      public: true,
      firstParty: true,
      redirectUris: [spa.redirect],
      postLogoutRedirectUris: [spa.logout],
      scopes: ['openid', 'profile', 'offline_access'],
    },
  ]),
};

const b64url = (b: Buffer) => b.toString('base64url');

/** A fresh authorization request's secrets: state, nonce, PKCE verifier and its S256 challenge. */
export function requestSecrets() {
  const verifier = b64url(randomBytes(32));
  return {
    state: b64url(randomBytes(12)),
    nonce: b64url(randomBytes(12)),
    verifier,
    challenge: b64url(createHash('sha256').update(verifier).digest()),
  };
}

/** The path and query of a Location on the service (its tests' PUBLIC_ORIGINs), else the Location. */
export const pathOf = (location: string) => {
  const url = new URL(location, 'http://localhost');
  return ['http://localhost', 'https://portal.bank.example'].includes(url.origin)
    ? `${url.pathname}${url.search}${url.hash}`
    : location;
};

/**
 * Follows the browser's redirects within the service from an authorization request; stops at the
 * first Location outside it (the client's redirect URI) or inside the portal (#/oidc/…), or at an
 * answer that is no redirect. Returns the last response and where it points.
 */
export async function authorize(
  browser: Client,
  params: Record<string, string>,
): Promise<{ response: LightMyRequestResponse; location: string | undefined }> {
  let url = `/oidc/auth?${new URLSearchParams(params)}`;
  for (let hop = 0; hop < 10; hop++) {
    const response = await browser.get(url);
    const location = response.headers.location as string | undefined;
    if (!location || response.statusCode < 300 || response.statusCode >= 400) return { response, location };
    const next = pathOf(location);
    if (!next.startsWith('/oidc/')) return { response, location: next };
    url = next;
  }
  throw new Error('too many redirects');
}

/** Authorization parameters of a client with fresh secrets. */
export function codeRequest(client: { id: string; redirect: string }, extra: Record<string, string> = {}) {
  const secrets = requestSecrets();
  return {
    secrets,
    params: {
      client_id: client.id,
      response_type: 'code',
      redirect_uri: client.redirect,
      scope: 'openid profile offline_access',
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: secrets.challenge,
      code_challenge_method: 'S256',
      ...extra,
    },
  };
}

/** The code of a redirect to the client, checking its state. */
export function codeOf(location: string | undefined, state: string): string {
  const url = new URL(location ?? 'about:blank');
  if (url.searchParams.get('state') !== state) throw new Error(`state mismatch in ${location}`);
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

/** POST to a provider endpoint with a form body, as the web app (client_secret_basic) or a public client. */
export function providerPost(
  app: FastifyInstance,
  path: string,
  form: Record<string, string>,
  as: 'web' | 'spa' = 'web',
  remoteAddress?: string,
) {
  return app.inject({
    method: 'POST',
    url: `/oidc${path}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(as === 'web'
        ? { authorization: `Basic ${Buffer.from(`${webApp.id}:${webApp.secret}`).toString('base64')}` }
        : {}),
    },
    payload: new URLSearchParams(as === 'spa' ? { client_id: spa.id, ...form } : form).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** Redeems a code at the token endpoint. */
export function redeem(
  app: FastifyInstance,
  code: string,
  verifier: string | undefined,
  as: 'web' | 'spa' = 'web',
) {
  return providerPost(
    app,
    '/token',
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: as === 'web' ? webApp.redirect : spa.redirect,
      ...(verifier !== undefined ? { code_verifier: verifier } : {}),
    },
    as,
  );
}

export const jwtPayload = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** openid-client's fetch, answered by the app in-process (inject): the relying party's calls. */
export function injectFetch(app: FastifyInstance) {
  return async (
    url: string,
    options: { method?: string; headers?: Record<string, string>; body?: unknown },
  ) => {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await app.inject({
      method: (options.method ?? 'GET') as 'GET',
      url: `${target.pathname}${target.search}`,
      headers,
      ...(options.body !== undefined && options.body !== null ? { payload: String(options.body) } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const v of value) out.append(name, String(v));
      else if (value !== undefined) out.set(name, String(value));
    }
    return new Response(response.statusCode === 204 ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: out,
    });
  };
}
