import { randomBytes, randomInt, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { jwkThumbprint, limits } from '@gatehouse/contract';
import { Secret } from 'otpauth';
import { z } from 'zod';
import { contactCredential } from './credentials/contacts.ts';
import type { CredentialStore, NewCredential } from './credentials/store.ts';
import type { DB } from './db/database.ts';
import { canonicalJwk } from './factors/push/device-keys.ts';
import type { Clock } from './lib/clock.ts';
import type { PasswordHasher } from './lib/passwords.ts';
import { usernameKey } from './services/accounts.ts';

export const demoTags = [
  'password-only',
  'all-factors',
  'otp-only',
  'email-only',
  'expired-password',
  'temporary-password',
  'blocked',
  'locked',
  'forced-username-update',
  'prohibited-location',
  'push',
  'token',
  'authenticator',
] as const;

const demoAccount = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  tags: z.array(z.enum(demoTags)).min(1),
  about: z.string(),
  /** The demo token: its credential id and its RFC 6238 secret (base32), for any authenticator app. */
  token: z
    .object({ credentialId: z.string().regex(/^VSST\d{8}$/), secret: z.string().regex(/^[A-Z2-7]{16,}=*$/) })
    .optional(),
  /** The demo authenticator app's RFC 6238 secret (base32). */
  totp: z.object({ secret: z.string().regex(/^[A-Z2-7]{16,}=*$/) }).optional(),
});
export type DemoAccount = z.infer<typeof demoAccount>;

export function readDemoAccounts(file: URL | string): DemoAccount[] {
  return z.array(demoAccount).parse(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * How long before the seed its established credentials were added: past the longest
 * CONTACT_WAIT_DAYS a deployment may set, so they are established under any setting (decision
 * 030), and recent enough that the security page and the device app show a believable 'Added'
 * date (the epoch showed 'Jan 1, 1970').
 */
const seededAgeMs = (limits.contactWaitMaxDays + 60) * 86_400_000;

const factorTags = new Set(['all-factors', 'otp-only', 'email-only', 'push', 'token', 'authenticator']);

/** RFC 6238 defaults of the authenticator app and the token (design: SHA-1, 6 digits, 30 s). */
const totpParameters = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/**
 * The credentials of a demo account's app factors, by its tags: `authenticator` an authenticator app
 * (the account's `totp.secret` of demo/accounts.json, else a random 160-bit RFC 6238 secret),
 * `token` a VIP-style token (the account's `token.credentialId` and `token.secret`, else a random
 * credential id `VSST` + 8 digits and a random secret; drift 0), `push` a device whose public part
 * is a P-256 public key (JWK). The secrets are stored encrypted like any other (credential store). The device's private key is not kept anywhere: the device app will enrol its own key
 * pair; until then the demo device cannot sign (decision 021).
 */
export async function demoFactorCredentials(
  account: Pick<DemoAccount, 'tags'> & Partial<Pick<DemoAccount, 'token' | 'totp'>>,
): Promise<Array<Omit<NewCredential, 'accountId'>>> {
  const credentials: Array<Omit<NewCredential, 'accountId'>> = [];
  if (account.tags.includes('authenticator')) {
    credentials.push({
      kind: 'totp',
      name: 'Authenticator app',
      secret: account.totp ? Buffer.from(Secret.fromBase32(account.totp.secret).bytes) : randomBytes(20),
      data: { ...totpParameters },
    });
  }
  if (account.tags.includes('token')) {
    credentials.push({
      kind: 'token',
      name: 'VIP Access',
      publicPart: account.token?.credentialId ?? `VSST${String(randomInt(0, 100_000_000)).padStart(8, '0')}`,
      secret: account.token ? Buffer.from(Secret.fromBase32(account.token.secret).bytes) : randomBytes(20),
      data: { ...totpParameters, drift: 0 },
    });
  }
  if (account.tags.includes('push')) {
    const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    const { x, y } = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
    const key = { kty: 'EC', crv: 'P-256', x: x as string, y: y as string } as const;
    credentials.push({
      kind: 'push',
      name: 'Demo device',
      // The canonical JWK and its RFC 7638 thumbprint, by which the device app's calls find it.
      publicPart: canonicalJwk(key),
      data: { algorithm: 'ES256', platform: 'Gatehouse device (demo)', thumbprint: await jwkThumbprint(key) },
    });
  }
  return credentials;
}

/**
 * Seeds the demo accounts: an account that exists is left as it is, so a restart duplicates
 * nothing and keeps what happened to the accounts (a lockout, a changed password).
 */
export async function seedDemoAccounts(
  db: DB,
  hasher: PasswordHasher,
  clock: Clock,
  accounts: DemoAccount[],
  credentials: CredentialStore,
) {
  let created = 0;
  for (const a of accounts) {
    const exists = await db
      .selectFrom('accounts')
      .select('id')
      .where('username_key', '=', usernameKey(a.username))
      .executeTakeFirst();
    if (exists) continue;
    const has = (tag: (typeof demoTags)[number]) => a.tags.includes(tag);
    const now = clock.now();
    const established = new Date(now.getTime() - seededAgeMs);
    const email = `${a.username}@example.com`;
    await db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('accounts')
        .values({
          username: a.username,
          username_key: usernameKey(a.username),
          display_name: a.username,
          email,
          password_hash: await hasher.hash(a.password),
          password_changed_at: now,
          status: has('blocked') ? 'blocked' : has('locked') ? 'locked' : 'active',
          password_state: has('expired-password')
            ? 'expired'
            : has('temporary-password')
              ? 'temporary'
              : 'ok',
          require_username_update: has('forced-username-update'),
          maintenance: false,
          second_factor: a.tags.some((t) => factorTags.has(t)),
          prohibited: has('prohibited-location'),
          failed_logins: 0,
          tags: JSON.stringify(a.tags),
        })
        .onConflict((oc) => oc.column('username_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) return;
      const store = credentials.withDb(tx);
      const phones = has('all-factors') || has('otp-only');
      const contacts = [
        { contact: contactCredential({ kind: 'email', value: email }), at: established },
        ...(phones
          ? [
              {
                contact: contactCredential({
                  kind: 'phone',
                  value: '2025550143',
                  countryCode: '1',
                  voice: true,
                }),
                at: established,
              },
              // Added just now: shown but not usable during the wait (widget spec §5).
              {
                contact: contactCredential({
                  kind: 'phone',
                  value: '2025550178',
                  countryCode: '1',
                  voice: false,
                }),
                at: now,
              },
            ]
          : []),
      ];
      for (const { contact, at } of contacts) {
        await store.add({ accountId: row.id, ...contact, createdAt: at });
      }
      for (const credential of await demoFactorCredentials(a)) {
        await store.add({ accountId: row.id, ...credential, createdAt: established });
      }
      created++;
    });
  }
  return created;
}

/** Why production mode will not start: the published demo accounts or staff are in its database. */
export class PublishedDemoData extends Error {
  override name = 'PublishedDemoData';
}

/**
 * Production mode refuses to start while any account of demo/accounts.json or staff member of
 * demo/staff.json is in its database (issue 22 finding 8): their passwords and authenticator
 * secrets are published in the repository. Checked at start, after the migrations; names only, so
 * a demo account whose password was changed still counts (its username and factors are public).
 */
export async function refusePublishedDemoData(
  db: DB,
  demo: { accounts: Array<Pick<DemoAccount, 'username'>>; staff: Array<{ name: string }> },
): Promise<void> {
  const keys = demo.accounts.map((a) => usernameKey(a.username));
  const names = demo.staff.map((s) => s.name);
  const accounts = keys.length
    ? await db.selectFrom('accounts').select('username').where('username_key', 'in', keys).execute()
    : [];
  const staff = names.length
    ? await db.selectFrom('staff').select('name').where('name', 'in', names).execute()
    : [];
  if (!accounts.length && !staff.length) return;
  const found = [
    accounts.length ? `demo accounts ${accounts.map((a) => a.username).join(', ')}` : '',
    staff.length ? `demo staff ${staff.map((s) => s.name).join(', ')}` : '',
  ].filter(Boolean);
  throw new PublishedDemoData(
    `production mode will not start while its database holds the ${found.join(' and ')} (their passwords are published in demo/); remove them first (docs/operations.md, "Demo data")`,
  );
}
