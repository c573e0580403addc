import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { DB } from '../db/database.ts';

/** The models whose rows belong to a grant (revoked together by `revokeByGrantId`). */
const grantable = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/** Models that are used once: a second consume of the same row is a replay. */
const singleUse = new Set(['AuthorizationCode', 'RefreshToken']);

type Row = { payload: unknown; consumed_at: Date | string | null; expires_at: Date | string | null };

/**
 * oidc-provider's storage in our database (decision 048): one row per model and id in
 * `oidc_payloads` (migration 040), never process memory, so every instance sees every session,
 * interaction, grant, code and token. Expired rows are not found (and deleted by the clean-up).
 *
 * `consume` is one conditional UPDATE: of two requests that redeem the same authorization code or
 * refresh token at once, one consumes it; the other finds it consumed, and the grant's tokens are
 * revoked (RFC 9700 §4.5.3.1 / §4.14.2) before it is refused with invalid_grant.
 */
export class DatabaseAdapter implements Adapter {
  constructor(
    private readonly db: DB,
    private readonly model: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(this.now().getTime() + expiresIn * 1000) : null;
    const row = {
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grant_id: grantable.has(this.model) ? (payload.grantId ?? null) : null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      expires_at: expiresAt,
    };
    await this.db
      .insertInto('oidc_payloads')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          uid: row.uid,
          user_code: row.user_code,
          expires_at: row.expires_at,
        }),
      )
      .execute();
  }

  private found(row: Row | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    if (row.expires_at && new Date(row.expires_at).getTime() <= this.now().getTime()) return undefined;
    const payload = (
      typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload
    ) as AdapterPayload;
    return row.consumed_at
      ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
      : payload;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('model', '=', this.model)
      .where('id', '=', id)
      .executeTakeFirst();
    return this.found(row);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('model', '=', this.model)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return this.found(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('model', '=', this.model)
      .where('user_code', '=', userCode)
      .executeTakeFirst();
    return this.found(row);
  }

  async consume(id: string): Promise<void> {
    const done = await this.db
      .updateTable('oidc_payloads')
      .set({ consumed_at: this.now() })
      .where('model', '=', this.model)
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .returning(['grant_id'])
      .executeTakeFirst();
    if (done || !singleUse.has(this.model)) return;
    // Consumed by another request in the meantime: a replay. Its grant goes, as the provider does
    // for a replay it sees itself.
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select('grant_id')
      .where('model', '=', this.model)
      .where('id', '=', id)
      .executeTakeFirst();
    if (row?.grant_id) await this.revokeByGrantId(row.grant_id);
    throw new errors.InvalidGrant(
      this.model === 'RefreshToken' ? 'refresh token already used' : 'authorization code already consumed',
    );
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
  }
}

/** Deletes expired rows (the service's clean-up, services/cleanup.ts). */
export async function deleteExpiredPayloads(db: DB, now: Date): Promise<number> {
  const result = await sql`delete from oidc_payloads where expires_at < ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
