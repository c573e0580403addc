import { type Kysely, sql } from 'kysely';

/**
 * Each proof in `session_factors` says whether it resists phishing (docs/decisions/036-factor-modules.md):
 * the engine records its factor module's assurance. Proofs recorded before are not (none was).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table session_factors add column phishing_resistant boolean not null default false`.execute(
    db,
  );
}
