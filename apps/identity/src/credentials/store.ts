import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { loadFactors } from '../factors/registry.ts';
import type { Clock } from '../lib/clock.ts';
import { type CredentialCipher, CredentialSecretError } from './cipher.ts';
import { publicColumns, toCredential } from './columns.ts';

/**
 * The credentials of accounts (decision 021): one row per phone, e-mail address, authenticator app,
 * token or push device, with a public part, a secret part encrypted under a configured key, a name,
 * its times and kind-specific data. The store is the only code that sees a ciphertext; a secret
 * leaves it only through readSecret(), as bytes, for the factor that checks a code with it.
 */

/**
 * A credential's kind: one a factor module declares (`names.credentialKinds`, decision 036), such
 * as phone, email, totp, token, push. The store refuses a kind no module declares.
 */
export type CredentialKind = string;

/** A kind no factor module declares: a programming error, refused before anything is written. */
export class UndeclaredCredentialKind extends Error {
  constructor(kind: string) {
    super(`No factor module declares the credential kind ${JSON.stringify(kind)}`);
  }
}

/** A credential without its secret: safe to pass around (never to a log line or a response as is). */
export type Credential = {
  id: string;
  accountId: string;
  kind: CredentialKind;
  name: string;
  publicPart: string | null;
  data: Record<string, unknown>;
  /** The key its secret is under; null when it has none. */
  keyId: string | null;
  hasSecret: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type NewCredential = {
  accountId: string;
  kind: CredentialKind;
  name: string;
  publicPart?: string | null;
  /** Raw secret bytes (a TOTP seed, a token's key); encrypted before it reaches the database. */
  secret?: Uint8Array;
  data?: Record<string, unknown>;
  /** Default: the clock's now. */
  createdAt?: Date;
};

export type RotationResult = {
  /** The key id every secret is now under, unless it failed. */
  keyId: string;
  reencrypted: number;
  /** Secrets that could not be read (their key is not configured, or they do not decrypt). */
  failed: Array<{ id: string; keyId: string | null; reason: string }>;
};

export class CredentialStore {
  constructor(
    private readonly db: DB,
    readonly cipher: CredentialCipher,
    private readonly clock: Clock,
  ) {}

  /** The same store on another handle (a transaction). */
  withDb(db: DB): CredentialStore {
    return new CredentialStore(db, this.cipher, this.clock);
  }

  /** An account's credentials, of one kind or several (default: all), oldest first. */
  async list(accountId: string, kind?: CredentialKind | readonly CredentialKind[]): Promise<Credential[]> {
    const kinds = kind === undefined ? undefined : typeof kind === 'string' ? [kind] : kind;
    if (kinds && !kinds.length) return [];
    let query = this.db.selectFrom('credentials').select(publicColumns).where('account_id', '=', accountId);
    if (kinds) query = query.where('kind', 'in', kinds);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toCredential);
  }

  /** One credential by id; with accountId, only if it is that account's. */
  async get(id: string, accountId?: string): Promise<Credential | undefined> {
    let query = this.db.selectFrom('credentials').select(publicColumns).where('id', '=', id);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const row = await query.executeTakeFirst();
    return row && toCredential(row);
  }

  /** Adds a credential; its secret, if any, is encrypted under the current key. */
  async add(input: NewCredential): Promise<Credential> {
    if (!(await loadFactors()).ofCredentialKind(input.kind)) throw new UndeclaredCredentialKind(input.kind);
    const id = randomUUID();
    const sealed = input.secret ? this.cipher.encrypt(input.secret, { id, kind: input.kind }) : undefined;
    const row = await this.db
      .insertInto('credentials')
      .values({
        id,
        account_id: input.accountId,
        kind: input.kind,
        name: input.name,
        public_part: input.publicPart ?? null,
        secret: sealed?.ciphertext ?? null,
        secret_key_id: sealed?.keyId ?? null,
        data: JSON.stringify(input.data ?? {}),
        created_at: input.createdAt ?? this.clock.now(),
      })
      .returning(publicColumns)
      .executeTakeFirstOrThrow();
    return toCredential(row);
  }

  /**
   * The secret of a credential, decrypted. Throws CredentialSecretError (naming the credential and
   * the key id, never the secret) when it has none, its key is not configured or it does not
   * decrypt for this row.
   */
  async readSecret(credential: Pick<Credential, 'id'> | string): Promise<Buffer> {
    const id = typeof credential === 'string' ? credential : credential.id;
    const row = await this.db
      .selectFrom('credentials')
      .select(['id', 'kind', 'secret', 'secret_key_id'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row?.secret || !row.secret_key_id) {
      throw new CredentialSecretError(`Credential ${id} has no secret`, id, null);
    }
    return this.cipher.decrypt(row.secret, row.secret_key_id, { id: row.id, kind: row.kind });
  }

  /** Replaces a credential's secret (re-enrolment), under the current key. False: no such credential. */
  async setSecret(credential: Pick<Credential, 'id' | 'kind'>, secret: Uint8Array): Promise<boolean> {
    const sealed = this.cipher.encrypt(secret, { id: credential.id, kind: credential.kind });
    const result = await this.db
      .updateTable('credentials')
      .set({ secret: sealed.ciphertext, secret_key_id: sealed.keyId })
      .where('id', '=', credential.id)
      .where('kind', '=', credential.kind)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Merges fields into a credential's data in one statement (a token's drift), so two instances
   * updating different fields lose neither. Returns the credential as it now is.
   */
  async updateData(id: string, patch: Record<string, unknown>): Promise<Credential | undefined> {
    const row = await this.db
      .updateTable('credentials')
      .set({ data: sql`data || ${JSON.stringify(patch)}::jsonb` as never })
      .where('id', '=', id)
      .returning(publicColumns)
      .executeTakeFirst();
    return row && toCredential(row);
  }

  /** Records a use (a code accepted, a push answered). */
  async markUsed(id: string, at: Date = this.clock.now()): Promise<void> {
    await this.db.updateTable('credentials').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Removes a credential; with accountId, only that account's. True when one was removed. */
  async remove(id: string, accountId?: string): Promise<boolean> {
    let query = this.db.deleteFrom('credentials').where('id', '=', id);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Re-encrypts every secret that is not under the current key (npm run credentials:rotate). Each
   * row is rewritten only if it is still under the key it was read with, so a concurrent change is
   * never overwritten; a secret that cannot be read is reported and left as it is.
   */
  async rotate(options: { batchSize?: number } = {}): Promise<RotationResult> {
    const batchSize = options.batchSize ?? 200;
    const current = this.cipher.currentKeyId;
    const result: RotationResult = { keyId: current, reencrypted: 0, failed: [] };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await this.db
        .selectFrom('credentials')
        .select(['id', 'kind', 'secret', 'secret_key_id'])
        .where('secret', 'is not', null)
        .where('secret_key_id', '<>', current)
        .where('id', '>', after)
        .orderBy('id')
        .limit(batchSize)
        .execute();
      for (const row of rows) {
        const binding = { id: row.id, kind: row.kind };
        let plain: Buffer;
        try {
          plain = this.cipher.decrypt(row.secret as Uint8Array, row.secret_key_id as string, binding);
        } catch (error) {
          result.failed.push({ id: row.id, keyId: row.secret_key_id, reason: (error as Error).message });
          continue;
        }
        const sealed = this.cipher.encrypt(plain, binding);
        plain.fill(0);
        const updated = await this.db
          .updateTable('credentials')
          .set({ secret: sealed.ciphertext, secret_key_id: sealed.keyId })
          .where('id', '=', row.id)
          .where('secret_key_id', '=', row.secret_key_id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 1) result.reencrypted++;
      }
      if (rows.length < batchSize) break;
      after = rows[rows.length - 1]!.id;
    }
    return result;
  }
}
