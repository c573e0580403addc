import { type Expression, sql } from 'kysely';
import type { CredentialRow } from '../db/schema.ts';
import type { Credential } from './store.ts';

/**
 * A credential's columns without its secret, and their shape in code: shared by the store and by
 * the statements that read an account's credentials along with something else (issue 25: the
 * login journey, its account and its credentials in one read). No imports at run time, so any
 * store may use it.
 */
export const publicColumns = [
  'id',
  'account_id',
  'kind',
  'name',
  'public_part',
  'secret_key_id',
  'data',
  'created_at',
  'last_used_at',
] as const;

type PublicRow = Pick<CredentialRow, (typeof publicColumns)[number]>;

const parseData = (data: unknown): Record<string, unknown> =>
  typeof data === 'string'
    ? (JSON.parse(data) as Record<string, unknown>)
    : ((data ?? {}) as Record<string, unknown>);

export function toCredential(row: PublicRow): Credential {
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    name: row.name,
    publicPart: row.public_part,
    data: parseData(row.data),
    keyId: row.secret_key_id,
    hasSecret: row.secret_key_id !== null,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
  };
}

/**
 * A subquery: the account's credentials (public columns), oldest first, as one JSON array, for a
 * select that reads them with another row (`credentialsFromJson` reads it back).
 */
export const credentialsJson = (accountId: Expression<string>) =>
  sql<unknown>`(select coalesce(json_agg(c order by c.created_at, c.id), '[]'::json) from (
    select ${sql.join(publicColumns.map((c) => sql.ref(c)))} from credentials where account_id = ${accountId}
  ) c)`;

/** The array `credentialsJson` selected (PGlite and node-postgres parse JSON; a string is parsed here). */
export function credentialsFromJson(value: unknown): Credential[] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as PublicRow[];
  return rows.map(toCredential);
}
