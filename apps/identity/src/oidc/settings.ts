import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../factors/settings-kit.ts';

/**
 * The OpenID Provider's settings (docs/oidc.md; decision 048): the registered clients
 * (OIDC_CLIENTS), the ID token signing keys (OIDC_SIGNING_KEYS) and the token endpoint's limit.
 */

/** The scopes a client may be allowed (docs/oidc.md "Scopes and claims"). */
export const oidcScopes = ['openid', 'profile', 'email', 'offline_access'] as const;

const uri = z.string().min(1).max(2000);

const clientSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3 to 64 letters, digits, dots, dashes or underscores'),
    name: z.string().min(1).max(100).optional(),
    /** A confidential client's secret (client_secret_basic or _post); absent with `public: true`. */
    secret: z.string().min(32, 'must be at least 32 characters').optional(),
    /** A public client (a browser or native app): no secret, PKCE S256 required. */
    public: z.boolean().default(false),
    /** First-party clients only (decision 048): a client not marked so is refused. */
    firstParty: z.literal(true, { message: 'must be true: the provider serves first-party clients only' }),
    redirectUris: z.array(uri).min(1),
    postLogoutRedirectUris: z.array(uri).default([]),
    scopes: z.array(z.enum(oidcScopes)).default(['openid', 'profile', 'email']),
    backchannelLogoutUri: uri.optional(),
  })
  .strict();

export type OidcClientSetting = z.infer<typeof clientSchema>;

export type OidcSettings = {
  clients: OidcClientSetting[];
  /** Private JWKs (EC P-256, ES256) by order: the first signs, the others are published. */
  signingKeys: Record<string, unknown>[] | null;
  tokenRate: { max: number; windowMs: number };
};

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect or logout URI is refused, or null. */
export function redirectUriProblem(value: string, production: boolean): string | null {
  if (value.includes('*')) return 'wildcards are not allowed (exact URIs only)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash) return 'must not carry a fragment';
  if (url.protocol === 'http:') {
    if (production && !LOOPBACK.has(url.hostname))
      return 'must be https:// in production mode (http:// only to a loopback address)';
  } else if (url.protocol !== 'https:' && !/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) {
    // A native app's private-use scheme is reverse-DNS (com.bank.app:/callback, RFC 8252 §7.1).
    return 'must be https://, http:// to a loopback address, or a reverse-domain private scheme';
  }
  return null;
}

function readJsonSetting(name: string, raw: string): unknown {
  const text = raw.trim().startsWith('[') || raw.trim().startsWith('{') ? raw : readSettingFile(name, raw);
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError(`Invalid setting ${name}: is neither JSON nor a file of JSON`);
  }
}

function readSettingFile(name: string, path: string): string {
  if (!existsSync(path)) throw new ConfigError(`Invalid setting ${name}: no file at ${path}`);
  return readFileSync(path, 'utf8');
}

/** The development demo client (docs/oidc.md "Try it"): the demo relying party at /oidc-demo/. */
export function demoClient(publicOrigin: string): OidcClientSetting {
  return {
    id: 'gatehouse-demo',
    name: 'Gatehouse demo application',
    secret: 'demo-client-secret-for-development-only',
    public: false,
    firstParty: true,
    redirectUris: [`${publicOrigin}/oidc-demo/callback`],
    postLogoutRedirectUris: [`${publicOrigin}/oidc-demo/`],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
  };
}

export function readOidcSettings(
  env: Record<string, string | undefined>,
  options: { production: boolean; publicOrigin: string; seedDemo: boolean },
): OidcSettings {
  const clients: OidcClientSetting[] = [];
  if (env.OIDC_CLIENTS) {
    const parsed = z.array(clientSchema).safeParse(readJsonSetting('OIDC_CLIENTS', env.OIDC_CLIENTS));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ConfigError(`Invalid setting OIDC_CLIENTS: [${issue.path.join('.')}] ${issue.message}`);
    }
    clients.push(...parsed.data);
  } else if (options.seedDemo && !options.production) {
    clients.push(demoClient(options.publicOrigin));
  }
  const ids = new Set<string>();
  for (const client of clients) {
    const where = `OIDC_CLIENTS: client ${client.id}`;
    if (ids.has(client.id)) throw new ConfigError(`Invalid setting ${where} is listed twice`);
    ids.add(client.id);
    if (client.public === !!client.secret) {
      throw new ConfigError(`Invalid setting ${where} needs either a secret or "public": true (not both)`);
    }
    if (!client.scopes.includes('openid'))
      throw new ConfigError(`Invalid setting ${where} must allow the openid scope`);
    for (const value of [...client.redirectUris, ...client.postLogoutRedirectUris]) {
      const problem = redirectUriProblem(value, options.production);
      if (problem) throw new ConfigError(`Invalid setting ${where}: ${value} ${problem}`);
    }
    if (client.backchannelLogoutUri) {
      const problem = redirectUriProblem(client.backchannelLogoutUri, options.production);
      if (problem)
        throw new ConfigError(`Invalid setting ${where}: ${client.backchannelLogoutUri} ${problem}`);
    }
  }

  let signingKeys: Record<string, unknown>[] | null = null;
  if (env.OIDC_SIGNING_KEYS) {
    const value = readJsonSetting('OIDC_SIGNING_KEYS', env.OIDC_SIGNING_KEYS) as
      | { keys?: unknown }
      | unknown[];
    const keys = Array.isArray(value) ? value : (value as { keys?: unknown }).keys;
    if (!Array.isArray(keys) || keys.length === 0) {
      throw new ConfigError(
        'Invalid setting OIDC_SIGNING_KEYS: must be a JWK Set ({ "keys": [...] }) or an array of JWKs',
      );
    }
    for (const key of keys as Array<Record<string, unknown>>) {
      if (
        key?.kty !== 'EC' ||
        key.crv !== 'P-256' ||
        typeof key.d !== 'string' ||
        typeof key.kid !== 'string'
      ) {
        throw new ConfigError(
          'Invalid setting OIDC_SIGNING_KEYS: every key must be a private EC P-256 JWK (ES256) with a kid',
        );
      }
    }
    signingKeys = keys as Record<string, unknown>[];
  } else if (options.production && clients.length) {
    throw new ConfigError(
      'Invalid setting OIDC_SIGNING_KEYS: is required in production mode when OIDC_CLIENTS lists clients (private EC P-256 JWKs)',
    );
  }
  const max = Number(env.OIDC_TOKEN_RATE_MAX ?? 60);
  const windowSeconds = Number(env.OIDC_TOKEN_RATE_WINDOW_SECONDS ?? 60);
  if (!Number.isInteger(max) || max < 1 || max > 100_000) {
    throw new ConfigError('Invalid setting OIDC_TOKEN_RATE_MAX: must be an integer from 1 to 100000');
  }
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 86_400) {
    throw new ConfigError(
      'Invalid setting OIDC_TOKEN_RATE_WINDOW_SECONDS: must be an integer from 1 to 86400',
    );
  }
  return { clients, signingKeys, tokenRate: { max, windowMs: windowSeconds * 1000 } };
}
