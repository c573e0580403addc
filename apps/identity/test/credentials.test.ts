import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { Secret } from 'otpauth';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { CredentialCipher, CredentialSecretError } from '../src/credentials/cipher.ts';
import { accountContacts, contactCredential } from '../src/credentials/contacts.ts';
import { developmentCredentialKey } from '../src/credentials/keys.ts';
import { CredentialStore } from '../src/credentials/store.ts';
import { type DB, openDatabase } from '../src/db/database.ts';
import { migrate, migrationFiles } from '../src/db/migrations.ts';
import { PGliteDialect } from '../src/db/pglite-dialect.ts';
import type { Database } from '../src/db/schema.ts';
import { TestClock } from '../src/lib/clock.ts';
import { PasswordHasher } from '../src/lib/passwords.ts';
import { readDemoAccounts } from '../src/seed.ts';
import { atFactor, contacts, DAY, PASSWORD } from './support/factors.ts';
import {
  baseEnv,
  createAccount,
  productionMail,
  productionSecret,
  rememberSecret,
  type Target,
  targets,
  useHarness,
} from './support/harness.ts';

/**
 * The credential model (decision 021): secrets encrypted at rest under a configured key, bound to
 * their row, readable across a key rotation while the old key is configured; contacts moved in
 * with their ids; production refuses a missing or weak key.
 */

const newKey = () => randomBytes(32).toString('base64');
const K1 = newKey();
const K2 = newKey();
/** A key with the id k1 that is not K1 (another deployment, a mistyped key). */
const K1_IMPOSTOR = newKey();

/** Every form a secret could be written in: none may appear in the database, a log or a message. */
function forms(secret: Buffer): string[] {
  return [secret.toString('hex'), secret.toString('base64'), secret.toString('base64url'), base32(secret)];
}
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  return (bits.match(/.{1,5}/g) ?? [])
    .map((chunk) => alphabet[Number.parseInt(chunk.padEnd(5, '0'), 2)])
    .join('');
}
function newSecret(): Buffer {
  const secret = randomBytes(20);
  for (const form of forms(secret)) rememberSecret(form);
  return secret;
}

/** The raw row as stored: every column, the ciphertext as bytes, the rest as text. */
async function rawRow(db: DB, id: string) {
  const row = await sql<{ secret: Uint8Array; secret_key_id: string; all_text: string }>`
    select secret, secret_key_id, row_to_json(c)::text as all_text from credentials c where id = ${id}`.execute(
    db,
  );
  const found = row.rows[0]!;
  return { secret: Buffer.from(found.secret), keyId: found.secret_key_id, text: found.all_text };
}

describe.each(targets)('credentials ($name)', (target) => {
  const h = useHarness(target);

  test('secrets of credentials are unreadable in the database without the key', async () => {
    const { ctx } = await h.start({ CREDENTIAL_KEYS: `k1:${K1}` });
    const account = await createAccount(ctx, { username: 'authapp01', password: PASSWORD });
    const secret = newSecret();
    const totp = await ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'Authenticator app',
      secret,
      data: { digits: 6, period: 30 },
    });
    expect(totp).toMatchObject({ kind: 'totp', keyId: 'k1', hasSecret: true, lastUsedAt: null });
    expect(JSON.stringify(totp)).not.toContain(secret.toString('hex'));

    // What the database holds: version, IV, ciphertext, tag; the secret in no form, in no column.
    const raw = await rawRow(h.db, totp.id);
    expect(raw.keyId).toBe('k1');
    expect(raw.secret.length).toBe(1 + 12 + secret.length + 16);
    expect(raw.secret.includes(secret)).toBe(false);
    for (let i = 0; i + 4 <= secret.length; i += 4)
      expect(raw.secret.includes(secret.subarray(i, i + 4))).toBe(false);
    for (const form of forms(secret)) expect(raw.text).not.toContain(form);

    // With the key, the store reads it back.
    expect((await ctx.credentials.readSecret(totp)).equals(secret)).toBe(true);

    // The same secret twice: two different ciphertexts (a random IV per value).
    const again = await ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'Second app',
      secret,
    });
    expect((await rawRow(h.db, again.id)).secret.equals(raw.secret)).toBe(false);

    // Another key with the same id does not decrypt it, and says so without the secret.
    const impostor = new CredentialCipher({
      current: 'k1',
      keys: new Map([['k1', Buffer.from(K1_IMPOSTOR, 'base64')]]),
    });
    expect(() => impostor.decrypt(raw.secret, 'k1', { id: totp.id, kind: 'totp' })).toThrow(
      CredentialSecretError,
    );

    // The right key, another row: the ciphertext copied onto another credential does not decrypt.
    await h.db
      .updateTable('credentials')
      .set({ secret: raw.secret, secret_key_id: raw.keyId })
      .where('id', '=', again.id)
      .execute();
    const moved = await ctx.credentials.readSecret(again).catch((error: unknown) => error);
    expect(moved).toBeInstanceOf(CredentialSecretError);
    expect((moved as Error).message).toBe(
      `The secret of credential ${again.id} does not decrypt under key k1 (another key with that id, another row's ciphertext, or altered)`,
    );
    // Nor on the same row under another kind, nor altered by one bit.
    await h.db.updateTable('credentials').set({ kind: 'token' }).where('id', '=', totp.id).execute();
    await expect(ctx.credentials.readSecret(totp)).rejects.toThrow(CredentialSecretError);
    await h.db.updateTable('credentials').set({ kind: 'totp' }).where('id', '=', totp.id).execute();
    const flipped = Buffer.from(raw.secret);
    flipped.writeUInt8(flipped.readUInt8(20) ^ 1, 20);
    await h.db.updateTable('credentials').set({ secret: flipped }).where('id', '=', totp.id).execute();
    await expect(ctx.credentials.readSecret(totp)).rejects.toThrow(CredentialSecretError);
    // A credential without a secret (a phone) has none to read.
    const phone = await ctx.credentials.add({
      accountId: account.id,
      ...contactCredential({ kind: 'phone', value: '2025550143', countryCode: '1' }),
    });
    expect(phone).toMatchObject({ hasSecret: false, keyId: null });
    await expect(ctx.credentials.readSecret(phone)).rejects.toThrow(`Credential ${phone.id} has no secret`);
  });

  test('key rotation: old secrets stay readable while their key is configured, fail clearly without it, and rotation re-encrypts them', async () => {
    const before = await h.start({ CREDENTIAL_KEYS: `k1:${K1}` });
    const account = await createAccount(before.ctx, { username: 'tokenuser1', password: PASSWORD });
    const totpSecret = newSecret();
    const tokenSecret = newSecret();
    const totp = await before.ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'Authenticator app',
      secret: totpSecret,
    });
    const token = await before.ctx.credentials.add({
      accountId: account.id,
      kind: 'token',
      name: 'VIP Access',
      publicPart: 'VSST12345678',
      secret: tokenSecret,
      data: { drift: 0 },
    });
    const oldCiphertext = (await rawRow(h.db, token.id)).secret;

    // k2 becomes current; k1 is still configured: old secrets read, new ones are written under k2.
    const during = await h.start({ CREDENTIAL_KEYS: `k1:${K1},k2:${K2}`, CREDENTIAL_KEY_ID: 'k2' });
    expect((await during.ctx.credentials.readSecret(totp)).equals(totpSecret)).toBe(true);
    expect((await during.ctx.credentials.readSecret(token.id)).equals(tokenSecret)).toBe(true);
    const newer = await during.ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'New app',
      secret: newSecret(),
    });
    expect(newer.keyId).toBe('k2');

    // Without k1: a clear failure naming the credential and the missing key, and nothing secret.
    const without = await h.start({ CREDENTIAL_KEYS: `k2:${K2}` });
    const failure = await without.ctx.credentials.readSecret(token).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CredentialSecretError);
    expect((failure as CredentialSecretError).message).toBe(
      `The secret of credential ${token.id} is under key k1, which is not configured (CREDENTIAL_KEYS)`,
    );
    expect((failure as CredentialSecretError).keyId).toBe('k1');
    for (const form of [...forms(tokenSecret), K1, K2])
      expect((failure as Error).message).not.toContain(form);

    // Rotation: every secret not under k2 is re-encrypted (with a new IV) under it; once only.
    const result = await during.ctx.credentials.rotate({ batchSize: 1 });
    expect(result).toEqual({ keyId: 'k2', reencrypted: 2, failed: [] });
    const rows = await h.db.selectFrom('credentials').select(['id', 'secret_key_id']).execute();
    expect(rows.map((r) => r.secret_key_id)).toEqual(['k2', 'k2', 'k2']);
    const rotated = await rawRow(h.db, token.id);
    expect(rotated.secret.equals(oldCiphertext)).toBe(false);
    for (const form of forms(tokenSecret)) expect(rotated.text).not.toContain(form);
    expect(await during.ctx.credentials.rotate()).toEqual({ keyId: 'k2', reencrypted: 0, failed: [] });

    // Now k1 can go: the service with k2 alone reads everything.
    expect((await without.ctx.credentials.readSecret(token)).equals(tokenSecret)).toBe(true);
    expect((await without.ctx.credentials.readSecret(totp)).equals(totpSecret)).toBe(true);
    // The rest of the row is untouched by rotation.
    expect(await without.ctx.credentials.get(token.id)).toEqual({ ...token, keyId: 'k2' });
  });

  test('rotation reports the secrets it cannot read and leaves them as they are', async () => {
    const { ctx } = await h.start({ CREDENTIAL_KEYS: `k1:${K1}` });
    const account = await createAccount(ctx, { username: 'authapp01', password: PASSWORD });
    const lost = await ctx.credentials.add({
      accountId: account.id,
      kind: 'totp',
      name: 'App',
      secret: newSecret(),
    });
    const stored = (await rawRow(h.db, lost.id)).secret;
    const { ctx: next } = await h.start({ CREDENTIAL_KEYS: `k2:${K2}` });
    expect(await next.credentials.rotate()).toEqual({
      keyId: 'k2',
      reencrypted: 0,
      failed: [
        {
          id: lost.id,
          keyId: 'k1',
          reason: `The secret of credential ${lost.id} is under key k1, which is not configured (CREDENTIAL_KEYS)`,
        },
      ],
    });
    const after = await rawRow(h.db, lost.id);
    expect(after.keyId).toBe('k1');
    expect(after.secret.equals(stored)).toBe(true);
  });

  test('the store: list by kind, update data (drift) in place, mark used, remove only the owner’s', async () => {
    const { ctx } = await h.start();
    const owner = await createAccount(ctx, { username: 'tokenuser1', password: PASSWORD });
    const other = await createAccount(ctx, { username: 'otheruser1', password: PASSWORD });
    const email = await ctx.credentials.add({
      accountId: owner.id,
      ...contactCredential({ kind: 'email', value: 'tokenuser1@example.com' }),
      createdAt: new Date(0),
    });
    const token = await ctx.credentials.add({
      accountId: owner.id,
      kind: 'token',
      name: 'VIP Access',
      publicPart: 'VSST12345678',
      secret: newSecret(),
      data: { drift: 0, digits: 6 },
    });
    expect(token.keyId).toBe('dev');
    expect((await ctx.credentials.list(owner.id)).map((c) => c.id)).toEqual([email.id, token.id]);
    expect((await ctx.credentials.list(owner.id, 'token')).map((c) => c.id)).toEqual([token.id]);
    expect((await ctx.credentials.list(owner.id, ['phone', 'email'])).map((c) => c.id)).toEqual([email.id]);
    expect(await ctx.credentials.list(other.id)).toEqual([]);

    // Two instances update different fields at once: neither is lost.
    await Promise.all([
      ctx.credentials.updateData(token.id, { drift: -2 }),
      ctx.credentials.updateData(token.id, { resyncedAt: '2026-01-01T00:00:00.000Z' }),
    ]);
    expect((await ctx.credentials.get(token.id))?.data).toEqual({
      drift: -2,
      digits: 6,
      resyncedAt: '2026-01-01T00:00:00.000Z',
    });

    // Marked used at the clock's time (the clock tests move), or at the time given.
    h.clock.advance(DAY);
    const before = ctx.clock.now().getTime();
    await ctx.credentials.markUsed(token.id);
    const used = (await ctx.credentials.get(token.id))?.lastUsedAt?.getTime() ?? 0;
    expect(used).toBeGreaterThanOrEqual(before);
    expect(used).toBeLessThanOrEqual(ctx.clock.now().getTime());
    const at = new Date(before + DAY);
    await ctx.credentials.markUsed(token.id, at);
    expect((await ctx.credentials.get(token.id))?.lastUsedAt).toEqual(at);

    expect(await ctx.credentials.get(token.id, other.id)).toBeUndefined();
    expect(await ctx.credentials.remove(token.id, other.id)).toBe(false);
    expect(await ctx.credentials.remove(token.id, owner.id)).toBe(true);
    expect((await ctx.credentials.list(owner.id)).map((c) => c.id)).toEqual([email.id]);
  });

  test('demo seeding: authenticator, token and push accounts get their credentials, secrets encrypted, no private key stored', async () => {
    const accounts = readDemoAccounts(new URL('../../../demo/accounts.json', import.meta.url));
    for (const a of accounts) rememberSecret(a.password);
    const { ctx } = await h.start({ SEED_DEMO: 'true' });
    const byTag = async (tag: string) => {
      const account = await h.db
        .selectFrom('accounts')
        .select('id')
        .where(sql<boolean>`tags @> ${JSON.stringify([tag])}::jsonb`)
        .execute();
      expect(account.length, tag).toBeGreaterThan(0);
      return account.map((a) => a.id);
    };
    for (const id of await byTag('authenticator')) {
      const [totp] = await ctx.credentials.list(id, 'totp');
      expect(totp).toMatchObject({
        hasSecret: true,
        keyId: 'dev',
        data: { algorithm: 'SHA1', digits: 6, period: 30 },
      });
      expect((await ctx.credentials.readSecret(totp!)).length).toBe(20);
    }
    for (const id of await byTag('token')) {
      const [token] = await ctx.credentials.list(id, 'token');
      expect(token?.publicPart).toMatch(/^VSST\d{8}$/);
      expect(token).toMatchObject({ hasSecret: true, data: { drift: 0 } });
      expect((await ctx.credentials.readSecret(token!)).length).toBe(20);
    }
    // The demo secrets of demo/accounts.json (issue 12): the seeded credentials are those, under
    // the cipher (neither the bytes nor the base32 text is in the row).
    const withApps = accounts.filter((a) => a.token || a.totp);
    expect(withApps.map((a) => a.username).sort()).toEqual(['allfactors1', 'authapp01', 'tokenuser1']);
    for (const a of withApps) {
      const { id } = await h.db
        .selectFrom('accounts')
        .select('id')
        .where('username', '=', a.username)
        .executeTakeFirstOrThrow();
      const rows = await ctx.credentials.list(id, ['totp', 'token']);
      for (const [kind, given] of [
        ['totp', a.totp],
        ['token', a.token],
      ] as const) {
        const credential = rows.find((c) => c.kind === kind);
        if (!given) continue;
        const bytes = Buffer.from(Secret.fromBase32(given.secret).bytes);
        expect(Buffer.from(await ctx.credentials.readSecret(credential!)).equals(bytes), a.username).toBe(
          true,
        );
        if (kind === 'token') expect(credential!.publicPart).toBe(a.token!.credentialId);
        const text = (
          await sql<{
            t: string;
          }>`select row_to_json(c)::text as t from credentials c where id = ${credential!.id}`.execute(h.db)
        ).rows[0]!.t;
        expect(text).not.toContain(given.secret);
        expect(text).not.toContain(bytes.toString('hex'));
        expect(text).not.toContain(bytes.toString('base64'));
      }
    }
    for (const id of await byTag('push')) {
      const [device] = await ctx.credentials.list(id, 'push');
      expect(device?.hasSecret).toBe(false);
      const jwk = JSON.parse(device!.publicPart!) as JsonWebKey;
      expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
      // A usable public key, and no private part ("d") anywhere in the row.
      await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
      const text = (
        await sql<{
          t: string;
        }>`select row_to_json(c)::text as t from credentials c where id = ${device!.id}`.execute(h.db)
      ).rows[0]!.t;
      expect(text).not.toMatch(/"d"\s*:/);
    }
    // Accounts without those tags have no app credentials.
    const onlyOtp = await byTag('otp-only');
    expect(await ctx.credentials.list(onlyOtp[0]!, ['totp', 'token', 'push'])).toEqual([]);
  });
});

describe('the cipher', () => {
  const ring = (current: string, entries: Array<[string, string]>) =>
    new CredentialCipher({
      current,
      keys: new Map(entries.map(([id, key]) => [id, Buffer.from(key, 'base64')])),
    });
  const cipher = ring('k1', [
    ['k1', K1],
    ['k2', K2],
  ]);

  test('any secret round-trips on its own row, and on no other row, kind, key id or key', () => {
    const impostor = ring('k1', [['k1', K1_IMPOSTOR]]);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.uuid(),
        fc.uuid(),
        fc.constantFrom('totp', 'token'),
        (secret, id, otherId, kind) => {
          fc.pre(id !== otherId);
          const { keyId, ciphertext } = cipher.encrypt(secret, { id, kind });
          expect(keyId).toBe('k1');
          expect(cipher.decrypt(ciphertext, keyId, { id, kind }).equals(Buffer.from(secret))).toBe(true);
          expect(() => cipher.decrypt(ciphertext, keyId, { id: otherId, kind })).toThrow(
            CredentialSecretError,
          );
          const otherKind = kind === 'totp' ? 'token' : 'totp';
          expect(() => cipher.decrypt(ciphertext, keyId, { id, kind: otherKind })).toThrow(
            CredentialSecretError,
          );
          expect(() => cipher.decrypt(ciphertext, 'k2', { id, kind })).toThrow(CredentialSecretError);
          expect(() => impostor.decrypt(ciphertext, 'k1', { id, kind })).toThrow(CredentialSecretError);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a change of any byte is detected', () => {
    const binding = { id: '6f1c0c7e-8d3b-4d0e-9a43-0a7b3f1d2c11', kind: 'totp' };
    const { ciphertext } = cipher.encrypt(Buffer.from('12345678901234567890'), binding);
    for (let i = 0; i < ciphertext.length; i++) {
      const altered = Buffer.from(ciphertext);
      altered.writeUInt8(altered.readUInt8(i) ^ 0x80, i);
      expect(() => cipher.decrypt(altered, 'k1', binding), `byte ${i}`).toThrow(CredentialSecretError);
    }
    expect(() => cipher.decrypt(ciphertext.subarray(0, 20), 'k1', binding)).toThrow(CredentialSecretError);
  });
});

describe('npm run credentials:rotate', () => {
  const root = new URL('../../../', import.meta.url);
  const cli = new URL('../src/credentials/rotate-cli.ts', import.meta.url);
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(cli)],
        { cwd: fileURLToPath(root), env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env } },
        (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
      );
    });

  test('re-encrypts under the current key, says how many, exits 1 naming what it cannot read, never a key or a secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-rotate-'));
    try {
      const db = await openDatabase({ kind: 'pglite', dir });
      await migrate(db as never);
      const config = loadConfig({ ...baseEnv, DATA_DIR: dir, CREDENTIAL_KEYS: `k1:${K1}` });
      const store = new CredentialStore(db, new CredentialCipher(config.credentialKeys), new TestClock());
      const account = await sql<{ id: string }>`
        insert into accounts (username, username_key, display_name, email, password_hash, password_changed_at,
          status, password_state, require_username_update, maintenance, second_factor, prohibited, failed_logins)
        values ('tokenuser1', 'tokenuser1', 'tokenuser1', null, 'x', now(), 'active', 'ok', false, false, true, false, 0)
        returning id`.execute(db);
      const secret = newSecret();
      const token = await store.add({ accountId: account.rows[0]!.id, kind: 'token', name: 'VIP', secret });
      await db.destroy();

      // Without k1 configured: nothing is re-encrypted, the credential and the key id are named.
      const lost = await run({ DATA_DIR: dir, CREDENTIAL_KEYS: `k2:${K2}` });
      expect(lost.code).toBe(1);
      expect(lost.out).toBe('Re-encrypted 0 credential secret(s) under key k2.\n');
      expect(lost.err).toContain(`credential ${token.id} is under key k1, which is not configured`);
      // With both, k2 current: re-encrypted (a second run finds nothing to do: the store's test).
      const both = { DATA_DIR: dir, CREDENTIAL_KEYS: `k1:${K1},k2:${K2}`, CREDENTIAL_KEY_ID: 'k2' };
      const first = await run(both);
      expect(first).toEqual({ code: 0, out: 'Re-encrypted 1 credential secret(s) under key k2.\n', err: '' });
      for (const output of [lost, first]) {
        for (const form of [...forms(secret), K1, K2]) expect(output.out + output.err).not.toContain(form);
      }

      const after = await openDatabase({ kind: 'pglite', dir });
      const onlyK2 = loadConfig({ ...baseEnv, CREDENTIAL_KEYS: `k2:${K2}` });
      const reader = new CredentialStore(after, new CredentialCipher(onlyK2.credentialKeys), new TestClock());
      expect((await reader.get(token.id))?.keyId).toBe('k2');
      expect((await reader.readSecret(token)).equals(secret)).toBe(true);
      await after.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

// --- migration 006 -----------------------------------------------------------------------------------

/** A database with no migrations run: PGlite in memory, or a PostgreSQL schema of its own. */
async function emptyDatabase(target: Target): Promise<{ db: DB; schema?: string; dispose(): Promise<void> }> {
  if (target.name === 'pglite') {
    const db = new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create()) });
    return { db, dispose: () => db.destroy() };
  }
  const schema = `cred_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL! });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  await admin.destroy();
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    db,
    schema,
    dispose: async () => {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    },
  };
}

/** Runs the migrations up to and including `last`, as a database of that release would be. */
async function migrateTo(db: DB, last: string, schema?: string) {
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: {
      async getMigrations() {
        const migrations: Record<string, Migration> = {};
        for (const file of migrationFiles()) {
          migrations[basename(file, '.ts')] = (await import(pathToFileURL(file).href)) as Migration;
        }
        return migrations;
      },
    },
  });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
}

describe.each(targets)('migration 006: contacts become credentials ($name)', (target) => {
  const h = useHarness(target);

  test('contacts keep their ids, values and added times; a new one still waits (enable false)', async () => {
    const old = await emptyDatabase(target);
    try {
      await migrateTo(old.db, '005_recovery_lock', old.schema);
      const hasher = new PasswordHasher(loadConfig(baseEnv).argon2);
      const now = h.clock.now();
      const accounts = await sql<{ id: string }>`
        insert into accounts (username, username_key, display_name, email, password_hash, password_changed_at,
          status, password_state, require_username_update, maintenance, second_factor, prohibited, failed_logins)
        values ('allfactor1', 'allfactor1', 'allfactor1', 'allfactor1@example.com', ${await hasher.hash(PASSWORD)},
          ${now}, 'active', 'ok', false, false, true, false, 0)
        returning id`.execute(old.db);
      const accountId = accounts.rows[0]!.id;
      const contactRows = await sql<{ id: string; value: string }>`
        insert into contacts (account_id, kind, value, country_code, voice, added_at) values
          (${accountId}, 'phone', '2025550143', '1', true, ${new Date(0)}),
          (${accountId}, 'phone', '7911123456', '44', false, ${new Date(now.getTime() - DAY)}),
          (${accountId}, 'email', 'allfactor1@example.com', null, false, ${new Date(0)})
        returning id, value`.execute(old.db);
      const idOf = (value: string) => contactRows.rows.find((r) => r.value === value)!.id;

      // The service of this release starts on it: migration 006 runs.
      const { app, ctx } = await h.start({}, { db: old.db });
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
        old.db,
      );
      expect(tables.rows.map((r) => r.name)).toContain('credentials');
      expect(tables.rows.map((r) => r.name)).not.toContain('contacts');

      const credentials = await ctx.credentials.list(accountId);
      expect(
        credentials
          .map((c) => ({
            id: c.id,
            kind: c.kind,
            publicPart: c.publicPart,
            data: c.data,
            hasSecret: c.hasSecret,
          }))
          .sort((a, b) => a.id.localeCompare(b.id)),
      ).toEqual(
        [
          {
            id: idOf('2025550143'),
            kind: 'phone',
            publicPart: '2025550143',
            data: { countryCode: '1', voice: true },
            hasSecret: false,
          },
          {
            id: idOf('7911123456'),
            kind: 'phone',
            publicPart: '7911123456',
            data: { countryCode: '44', voice: false },
            hasSecret: false,
          },
          {
            id: idOf('allfactor1@example.com'),
            kind: 'email',
            publicPart: 'allfactor1@example.com',
            data: {},
            hasSecret: false,
          },
        ].sort((a, b) => a.id.localeCompare(b.id)),
      );
      const contactsNow = await accountContacts(old.db, accountId);
      expect(contactsNow.find((c) => c.id === idOf('7911123456'))?.added_at.getTime()).toBe(
        now.getTime() - DAY,
      );

      // The widget sees the same ids, and the phone added a day ago still waits.
      const client = await atFactor(app, 'allfactor1');
      const state = await contacts(client);
      expect(state.phone.map((p) => [p.value, p.countryCode, p.enable])).toEqual([
        [idOf('2025550143'), '1', true],
        [idOf('7911123456'), '44', false],
      ]);
      expect(state.email.map((e) => [e.value, e.enable])).toEqual([[idOf('allfactor1@example.com'), true]]);
      await app.close();
    } finally {
      await old.dispose();
    }
  });
});

// --- configuration -----------------------------------------------------------------------------------

describe('credential key settings', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: productionSecret, ...productionMail };
  const fails = (env: Record<string, string | undefined>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  test('production mode refuses a missing, malformed, weak or published key, one line each, never quoting a key', () => {
    expect(fails({ ...production, CREDENTIAL_KEYS: undefined })).toBe(
      'Invalid setting CREDENTIAL_KEYS: is required in production mode (id:base64 of 32 random bytes, such as k1:$(openssl rand -base64 32))',
    );
    const short = randomBytes(16).toString('base64');
    const cases: Array<[string, string]> = [
      [
        `k1:${short}`,
        'Invalid setting CREDENTIAL_KEYS: key k1 must be 32 bytes in base64 (openssl rand -base64 32)',
      ],
      [
        K1,
        'Invalid setting CREDENTIAL_KEYS: entry 1 must be id:base64, the id of 1 to 32 letters, digits, - or _ (such as k1:<openssl rand -base64 32>)',
      ],
      [`k1:${K1},k1:${K2}`, 'Invalid setting CREDENTIAL_KEYS: key k1 is listed twice'],
      [
        `k1:${Buffer.alloc(32).toString('base64')}`,
        'Invalid setting CREDENTIAL_KEYS: key k1 is too weak: use 32 random bytes (openssl rand -base64 32)',
      ],
      [
        `k1:${Buffer.from('correct-horse-battery-staple-32!').toString('base64')}`,
        'Invalid setting CREDENTIAL_KEYS: key k1 is too weak: use 32 random bytes (openssl rand -base64 32); this one is printable text, not random bytes',
      ],
      [
        `k1:${K1},k2:${Buffer.from('abcd'.repeat(8), 'hex').toString('base64')}`,
        'Invalid setting CREDENTIAL_KEYS: key k2 must be 32 bytes in base64 (openssl rand -base64 32)',
      ],
      [
        `k1:${((block) => Buffer.concat([block, block]))(randomBytes(16)).toString('base64')}`,
        'Invalid setting CREDENTIAL_KEYS: key k1 is too weak: use 32 random bytes (openssl rand -base64 32)',
      ],
      [
        `dev:${developmentCredentialKey('development-only-secret-not-for-production-use').toString('base64')}`,
        'Invalid setting CREDENTIAL_KEYS: key dev is the development key published in the source',
      ],
    ];
    for (const [keys, message] of cases) {
      const line = fails({ ...production, CREDENTIAL_KEYS: keys });
      expect(line, keys).toBe(message);
      for (const part of keys.split(/[,:]/).filter((p) => p.length > 8)) expect(line).not.toContain(part);
    }
  });

  test('several keys need CREDENTIAL_KEY_ID, which must name one of them; one key is current by itself', () => {
    expect(fails({ ...production, CREDENTIAL_KEYS: `k1:${K1},k2:${K2}` })).toBe(
      'Invalid setting CREDENTIAL_KEY_ID: is required when CREDENTIAL_KEYS lists several keys (the id new secrets are written under)',
    );
    expect(fails({ ...production, CREDENTIAL_KEYS: `k1:${K1},k2:${K2}`, CREDENTIAL_KEY_ID: 'k3' })).toBe(
      'Invalid setting CREDENTIAL_KEY_ID: (got "k3") names no key of CREDENTIAL_KEYS',
    );
    const rotating = loadConfig({
      ...production,
      CREDENTIAL_KEYS: `k1:${K1},k2:${K2}`,
      CREDENTIAL_KEY_ID: 'k2',
    });
    expect(rotating.credentialKeys.current).toBe('k2');
    expect([...rotating.credentialKeys.keys.keys()]).toEqual(['k1', 'k2']);
    expect(rotating.credentialKeys.keys.get('k1')?.equals(Buffer.from(K1, 'base64'))).toBe(true);
    expect(loadConfig({ ...production, CREDENTIAL_KEYS: `k9:${K1}` }).credentialKeys.current).toBe('k9');
  });

  test('development and test: a stable key derived from the session secret, id "dev", kept readable beside configured keys', () => {
    const a = loadConfig(baseEnv).credentialKeys;
    const b = loadConfig(baseEnv).credentialKeys;
    expect(a.current).toBe('dev');
    expect(a.keys.get('dev')?.length).toBe(32);
    expect(a.keys.get('dev')?.equals(b.keys.get('dev')!)).toBe(true);
    const other = loadConfig({ ...baseEnv, SESSION_SECRET: productionSecret }).credentialKeys;
    expect(other.keys.get('dev')?.equals(a.keys.get('dev')!)).toBe(false);
    const configured = loadConfig({ ...baseEnv, CREDENTIAL_KEYS: `k1:${K1}` }).credentialKeys;
    expect(configured.current).toBe('k1');
    expect([...configured.keys.keys()].sort()).toEqual(['dev', 'k1']);
    expect(fails({ ...baseEnv, CREDENTIAL_KEY_ID: 'k1' })).toBe(
      'Invalid setting CREDENTIAL_KEY_ID: (got "k1") names no key: CREDENTIAL_KEYS is not set, so the only key is the development key "dev"',
    );
  });
});
