import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { acrLevels } from './assurance.ts';
import { html } from './html.ts';
import { demoClient } from './settings.ts';

const DEMO = '/oidc-demo';
const TX = 'GH_DEMO_RP_TX';
const RESULT = 'GH_DEMO_RP';
const b64url = (b: Buffer) => b.toString('base64url');

/**
 * The development demo relying party (docs/oidc.md "Try it"): a page at /oidc-demo/ that signs in
 * with the demo client (code + PKCE S256, state, nonce), shows the ID token's claims and userinfo,
 * asks for a step-up (acr_values) and signs out (RP-initiated logout). Development mode only; its
 * calls to the provider go through the app itself (inject), so it works on any port.
 */
export async function demoRelyingParty(app: FastifyInstance, ctx: Context) {
  const client = demoClient(ctx.config.publicOrigin);
  const cookie = { path: DEMO, httpOnly: true, sameSite: 'lax' as const, secure: ctx.config.cookieSecure };

  app.get(`${DEMO}/`, async (request, reply) => {
    let shown = '<p>Not signed in.</p>';
    const saved = request.cookies[RESULT];
    if (saved) {
      try {
        const { claims, userinfo } = JSON.parse(Buffer.from(saved, 'base64url').toString('utf8'));
        const rows = Object.entries(claims as Record<string, unknown>)
          .map(([k, v]) => `<tr><th scope="row">${html(k)}</th><td>${html(JSON.stringify(v))}</td></tr>`)
          .join('');
        shown = `<table><caption>ID token claims</caption><tbody>${rows}</tbody></table><h2>Userinfo</h2><pre>${html(JSON.stringify(userinfo, null, 2))}</pre>`;
      } catch {
        shown = '<p>Not signed in.</p>';
      }
    }
    reply.type('text/html').header('Cache-Control', 'no-store');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo relying party</title></head><body><main><h1>Demo relying party</h1>${shown}<ul><li><a href="${DEMO}/login">Sign in</a></li><li><a href="${DEMO}/login?stepup=1">Sign in with a second factor</a></li><li><a href="${DEMO}/logout">Sign out</a></li></ul></main></body></html>`;
  });

  app.get<{ Querystring: { stepup?: string } }>(`${DEMO}/login`, async (request, reply) => {
    const state = b64url(randomBytes(16));
    const nonce = b64url(randomBytes(16));
    const verifier = b64url(randomBytes(32));
    const challenge = b64url(createHash('sha256').update(verifier).digest());
    reply.setCookie(TX, `${state}.${nonce}.${verifier}`, { ...cookie, maxAge: 600 });
    const url = new URLSearchParams({
      client_id: client.id,
      response_type: 'code',
      redirect_uri: client.redirectUris[0]!,
      scope: 'openid profile email offline_access',
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...(request.query.stepup ? { acr_values: acrLevels.mfa } : {}),
    });
    return reply.redirect(`/oidc/auth?${url}`, 303);
  });

  app.get<{ Querystring: { code?: string; state?: string; error?: string } }>(
    `${DEMO}/callback`,
    async (request, reply) => {
      const [state, nonce, verifier] = (request.cookies[TX] ?? '').split('.');
      reply.clearCookie(TX, cookie);
      if (!state || request.query.state !== state || !request.query.code) {
        reply.type('text/html').code(400);
        return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo relying party</title></head><body><main><h1>Sign-in failed</h1><p>${html(request.query.error ?? 'state mismatch')}</p><a href="${DEMO}/">Back</a></main></body></html>`;
      }
      const token = await app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code: request.query.code,
          redirect_uri: client.redirectUris[0]!,
          code_verifier: verifier ?? '',
        }).toString(),
      });
      const tokens = token.json() as { id_token?: string; access_token?: string };
      const claims = tokens.id_token
        ? JSON.parse(Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString('utf8'))
        : {};
      if (!tokens.id_token || claims.nonce !== nonce) {
        reply.type('text/html').code(400);
        return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo relying party</title></head><body><main><h1>Sign-in failed</h1><p>The tokens were refused.</p><a href="${DEMO}/">Back</a></main></body></html>`;
      }
      const userinfo = await app.inject({
        method: 'GET',
        url: '/oidc/me',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      reply.setCookie(
        RESULT,
        Buffer.from(JSON.stringify({ claims, userinfo: userinfo.json(), idToken: tokens.id_token })).toString(
          'base64url',
        ),
        cookie,
      );
      return reply.redirect(`${DEMO}/`, 303);
    },
  );

  app.get(`${DEMO}/logout`, async (request, reply) => {
    let hint = '';
    try {
      hint =
        JSON.parse(Buffer.from(request.cookies[RESULT] ?? '', 'base64url').toString('utf8')).idToken ?? '';
    } catch {}
    reply.clearCookie(RESULT, cookie);
    const url = new URLSearchParams({
      client_id: client.id,
      post_logout_redirect_uri: client.postLogoutRedirectUris[0]!,
      ...(hint ? { id_token_hint: hint } : {}),
    });
    return reply.redirect(`/oidc/session/end?${url}`, 303);
  });
}
