import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import type { Credential } from '../../credentials/store.ts';
import type { DB } from '../../db/database.ts';

/**
 * The passkey's challenges and proofs (migrations/031_passkeys.ts) and its credentials' WebAuthn
 * data. A challenge is used once: consuming it is one conditional UPDATE … RETURNING, so of two
 * requests with the same challenge at most one gets it, and one that is expired, used or bound to
 * something else gets nothing.
 */

export type Purpose = 'journey' | 'register' | 'login' | 'proof';

export type Consumed = { id: string; account_id: string | null; credential_id: string | null };

/** The WebAuthn data of a passkey credential (its `data`), as @simplewebauthn/server reads it. */
export type PasskeyData = {
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  backedUp: boolean;
  deviceType: string;
  aaguid: string;
  /** Set when its counter went backwards (a clone): it signs nothing any more. */
  suspendedAt?: string;
};

export const passkeyData = (c: Credential): PasskeyData => c.data as unknown as PasskeyData;

export class PasskeyChallenges {
  constructor(
    private readonly ctx: Context,
    private readonly db: DB = ctx.db,
  ) {}

  /** Records a challenge (or a proof, `challenge` null); returns its id. */
  async issue(input: {
    purpose: Purpose;
    challenge: string | null;
    binding: string;
    accountId?: string;
    credentialId?: string;
    ttlMs: number;
  }): Promise<string> {
    const id = randomUUID();
    const now = this.ctx.clock.now();
    await sql`insert into passkey_challenges
        (id, purpose, challenge, binding, account_id, credential_id, created_at, expires_at)
      values (${id}, ${input.purpose}, ${input.challenge}, ${input.binding}, ${input.accountId ?? null},
        ${input.credentialId ?? null}, ${now}, ${new Date(now.getTime() + input.ttlMs)})`.execute(this.db);
    // Old rows go as new ones come (a challenge is kept a day past its expiry, for the record).
    await sql`delete from passkey_challenges where expires_at < ${new Date(now.getTime() - 86_400_000)}`.execute(
      this.db,
    );
    return id;
  }

  /**
   * Uses a challenge of this purpose and binding, once, unexpired: the row, or undefined. `by`:
   * the challenge text (what the browser signed) or, for a proof, its id.
   */
  async consume(
    purpose: Purpose,
    binding: string,
    by: { challenge: string } | { id: string; accountId: string },
  ): Promise<Consumed | undefined> {
    const now = this.ctx.clock.now();
    const match =
      'challenge' in by
        ? sql`challenge = ${by.challenge}`
        : sql`id = ${by.id} and account_id = ${by.accountId}`;
    const result = await sql<Consumed>`update passkey_challenges set used_at = ${now}
      where ${match} and purpose = ${purpose} and binding = ${binding}
        and used_at is null and expires_at > ${now}
      returning id, account_id, credential_id`.execute(this.db);
    return result.rows[0];
  }
}

/** A passkey by its credential ID (base64url), whichever account holds it. */
export async function passkeyById(ctx: Context, credentialId: string): Promise<Credential | undefined> {
  const row = await ctx.db
    .selectFrom('credentials')
    .select(['id', 'account_id'])
    .where('kind', '=', 'passkey' as never)
    .where('public_part', '=', credentialId)
    .executeTakeFirst();
  return row ? ctx.credentials.get(row.id, row.account_id) : undefined;
}

/**
 * Records an assertion's counter (W3C WebAuthn Level 3 §6.1.1): refused when either the stored or
 * the new counter is non-zero and the new one is not greater (a cloned authenticator); an
 * authenticator that always says 0 passes. The update is conditional on the counter stored at that
 * moment, so two assertions with the same counter cannot both pass, and one read before another
 * moved the counter on still passes when its own is greater. Returns false on a regression.
 */
export async function advanceCounter(
  ctx: Context,
  credential: Credential,
  next: number,
  backedUp: boolean,
): Promise<boolean> {
  const stored = passkeyData(credential).counter ?? 0;
  if ((stored !== 0 || next !== 0) && next <= stored) return false;
  // Conditional on the counter now stored, not the one read: another of the owner's assertions may
  // have moved it on meanwhile, and a greater counter is still no clone.
  const result = await sql`update credentials
      set data = data || ${JSON.stringify({ counter: next, backedUp })}::jsonb
      where id = ${credential.id}
        and (coalesce((data->>'counter')::bigint, 0) < ${next}::bigint
          or (${next}::bigint = 0 and coalesce((data->>'counter')::bigint, 0) = 0))`.execute(ctx.db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/** A passkey whose counter went backwards signs nothing again (the owner removes it and adds a new one). */
export async function suspend(ctx: Context, credential: Credential): Promise<void> {
  await ctx.credentials.updateData(credential.id, { suspendedAt: ctx.clock.now().toISOString() });
}
