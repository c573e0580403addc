import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { DB } from '../db/database.ts';

type Jwk = Record<string, unknown>;

/**
 * The ID token signing keys (ES256): OIDC_SIGNING_KEYS when set (the first key signs, the others
 * are published in the JWKS: a new key is added second, published, and moved first once clients
 * have fetched it; docs/oidc.md "Keys and rotation"). Outside production, when unset, one key is
 * made once and kept in `oidc_signing_keys`, so every instance and every restart signs with it.
 */
export async function signingKeys(db: DB, configured: Jwk[] | null): Promise<Jwk[]> {
  if (configured) return configured.map((k) => ({ alg: 'ES256', use: 'sig', ...k }));
  const existing = await db.selectFrom('oidc_signing_keys').select('jwk').orderBy('created_at').execute();
  if (existing.length) return existing.map((r) => parse(r.jwk));
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: `dev-${randomUUID()}`,
    alg: 'ES256',
    use: 'sig',
  };
  // Two instances starting together: one key wins, both read it.
  await db
    .insertInto('oidc_signing_keys')
    .values({ kid: 'development', jwk: JSON.stringify(jwk) })
    .onConflict((oc) => oc.column('kid').doNothing())
    .execute();
  const row = await db
    .selectFrom('oidc_signing_keys')
    .select('jwk')
    .where('kid', '=', 'development')
    .executeTakeFirstOrThrow();
  return [parse(row.jwk)];
}

const parse = (value: unknown): Jwk => (typeof value === 'string' ? JSON.parse(value) : (value as Jwk));
