import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * Journeys change through their store only (issue 24; docs/decisions/037): no file of the identity
 * service's source outside `journeys/` writes the `journeys` or `journey_tries` tables, by Kysely's
 * builder or by raw SQL. A step that needs a new change of a journey gets a JourneyStore method
 * named for what it does.
 */

const sourceRoot = fileURLToPath(new URL('..', import.meta.url));
const journeysDir = fileURLToPath(new URL('.', import.meta.url));

const writes = [
  /\b(insertInto|updateTable|deleteFrom|mergeInto|replaceInto|alterTable|dropTable)\(\s*['"`]journey(s|_tries)\b/i,
  /\b(insert\s+into|update|delete\s+from|merge\s+into|truncate(\s+table)?|alter\s+table|drop\s+table)\s+(only\s+)?journey(s|_tries)\b/i,
];

const writesJourneys = (text: string) => writes.some((pattern) => pattern.test(text));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the journeys table is written by the journey store only', () => {
  test('the check recognises a write of every form, and not a read', () => {
    for (const write of [
      "db.updateTable('journeys').set({ state: 'ended' })",
      'tx\n  .updateTable("journeys as j")',
      "db.deleteFrom('journey_tries')",
      "db.insertInto('journeys').values(row)",
      'sql`update journeys set data = data || $1::jsonb`',
      'sql`UPDATE journeys SET state = $1`',
      'sql`insert into journey_tries (journey_id) values ($1)`',
      'sql`delete from journeys where expires_at < now()`',
    ]) {
      expect(writesJourneys(write), write).toBe(true);
    }
    for (const read of [
      "db.selectFrom('journeys').selectAll()",
      "tx.selectFrom('journeys').select('id').forUpdate()",
      'sql`select id from journeys as j`',
      "innerJoin('journeys as j', 'j.id', 'p.journey_id')",
      '/** Ends the live journeys of an account */',
    ]) {
      expect(writesJourneys(read), read).toBe(false);
    }
  });

  test('the store writes journeys, and no file outside journeys/ does', () => {
    const files = sourceFiles(sourceRoot);
    const inside = files.filter((file) => file.startsWith(journeysDir));
    expect(
      inside
        .filter((file) => writesJourneys(readFileSync(file, 'utf8')))
        .map((f) => relative(journeysDir, f)),
    ).toContain('store.ts');
    const outside = files
      .filter((file) => !file.startsWith(journeysDir))
      .filter((file) => writesJourneys(readFileSync(file, 'utf8')))
      .map((file) => relative(sourceRoot, file));
    expect(outside).toEqual([]);
  });
});
