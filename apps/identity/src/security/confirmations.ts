import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import { declared } from './factor-lookup.ts';

/**
 * Pending additions of the security page (security_confirmations): an authenticator app waiting
 * for its first code (the secret sealed by the credential cipher), or a new phone or e-mail address
 * waiting for the code sent to it (its HMAC). Wrong codes are counted as the one-time codes are
 * (lib/otp.ts): a try is reserved by one conditional UPDATE before anything is compared, so a burst
 * of any size compares at most SECURITY_CONFIRM_MAX_TRIES codes; the completing UPDATE is
 * conditional too, so exactly one right answer adds the credential.
 */

/**
 * A credential kind some factor's security part declares (factor-lookup.ts): what the confirmation
 * adds once confirmed (the authenticator app's `totp`, the contacts' `phone` and `email`, a new
 * factor's own). Adding a confirmation of an undeclared kind is a programming error.
 */
export type ConfirmationKind = string;

/** The cipher binding of a pending authenticator app's secret (never a credential's). */
export const pendingBinding = (id: string) => ({ id, kind: 'totp-enrollment' });

export type Pending = {
  id: string;
  account_id: string;
  kind: string;
  value: string | null;
  data: Record<string, unknown>;
  secret: Uint8Array | null;
  secret_key_id: string | null;
  code_hash: string | null;
};

/**
 * A finished confirmation keeps no secret: the pending secret (a copy of the credential's once
 * confirmed) and the code's HMAC are wiped when it completes, is exhausted or is abandoned, and
 * cleanup wipes an expired one's (red-team finding 1).
 */
const wiped = { secret: null, secret_key_id: null, code_hash: null } as const;

export class Confirmations {
  constructor(private readonly ctx: Context) {}

  async create(input: {
    accountId: string;
    kind: ConfirmationKind;
    expiresAt: Date;
    value?: string;
    data?: Record<string, unknown>;
    /** totp: the secret, sealed here under this confirmation's id. */
    secret?: Uint8Array;
    /** phone, email: the code's HMAC, made by the caller with `id`. */
    codeHash?: (id: string) => string;
  }): Promise<string> {
    declared(input.kind);
    const id = randomUUID();
    const sealed = input.secret
      ? this.ctx.credentials.cipher.encrypt(input.secret, pendingBinding(id))
      : undefined;
    await this.ctx.db
      .insertInto('security_confirmations')
      .values({
        id,
        account_id: input.accountId,
        kind: input.kind,
        value: input.value ?? null,
        data: JSON.stringify(input.data ?? {}),
        secret: sealed?.ciphertext ?? null,
        secret_key_id: sealed?.keyId ?? null,
        code_hash: input.codeHash ? input.codeHash(id) : null,
        created_at: this.ctx.clock.now(),
        expires_at: input.expiresAt,
      })
      .execute();
    return id;
  }

  /**
   * Reserves a try of a live confirmation of this account and kind(s): the try's number, or
   * undefined when there is none (unknown, another account's, expired, finished, or no try left).
   */
  async reserve(
    id: string,
    accountId: string,
    kinds: readonly ConfirmationKind[],
  ): Promise<{ tries: number; pending: Pending } | undefined> {
    const max = this.ctx.config.security.confirmMaxTries;
    const result = await sql<Pending & { wrong_tries: number }>`
      update security_confirmations set wrong_tries = wrong_tries + 1
      where id = ${id} and account_id = ${accountId} and kind in (${sql.join([...kinds])})
        and completed_at is null and expires_at > ${this.ctx.clock.now()} and wrong_tries < ${max}
      returning id, account_id, kind, value, data, secret, secret_key_id, code_hash, wrong_tries`.execute(
      this.ctx.db,
    );
    const row = result.rows[0];
    if (!row) return undefined;
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data;
    return { tries: row.wrong_tries, pending: { ...row, data: data ?? {} } };
  }

  /** The pending secret of an authenticator app, decrypted. */
  secretOf(pending: Pending): Buffer {
    if (!pending.secret || !pending.secret_key_id)
      throw new Error(`Confirmation ${pending.id} has no secret`);
    return this.ctx.credentials.cipher.decrypt(
      pending.secret,
      pending.secret_key_id,
      pendingBinding(pending.id),
    );
  }

  /**
   * The right answer: completes the confirmation (its reserved try given back) on `db`, a
   * transaction that then adds the credential. False: another request completed it first.
   */
  async complete(db: DB, id: string): Promise<boolean> {
    const result = await sql<{ id: string }>`
      update security_confirmations set completed_at = ${this.ctx.clock.now()}, outcome = 'confirmed',
        wrong_tries = greatest(wrong_tries - 1, 0), secret = null, secret_key_id = null, code_hash = null
      where id = ${id} and completed_at is null
      returning id`.execute(db);
    return result.rows.length === 1;
  }

  /** The wrong code that reached the limit ends the confirmation (a new one must be started). */
  async exhaust(id: string): Promise<void> {
    await this.ctx.db
      .updateTable('security_confirmations')
      .set({ completed_at: this.ctx.clock.now(), outcome: 'exhausted', ...wiped })
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .execute();
  }

  /** A code that could not be delivered: the confirmation ends. */
  async abandon(id: string): Promise<void> {
    await this.ctx.db
      .updateTable('security_confirmations')
      .set({ completed_at: this.ctx.clock.now(), outcome: 'undelivered', ...wiped })
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .execute();
  }
}
