import { describe, expect, test } from 'vitest';
import { droppedUnderIntrospection } from './migrations.ts';

/** migrate() reads the schemas again only when what vanished under Kysely's introspection was another schema's. */
describe('a drop under the migrator’s introspection', () => {
  const ours = 'api_1_aaaa';
  test('another schema’s table or the schema itself, dropped while it read: read again', () => {
    expect(
      droppedUnderIntrospection(
        { code: '42P01', message: 'relation "api_2_bbbb.staff_sessions" does not exist' },
        ours,
      ),
    ).toBe(true);
    expect(
      droppedUnderIntrospection({ code: '3F000', message: 'schema "api_2_bbbb" does not exist' }, ours),
    ).toBe(true);
    // A clean-clone run (stop 35): a column read while its schema was dropped.
    expect(
      droppedUnderIntrospection(
        { code: '42703', message: 'column "code_hash" of relation "rep_codes" does not exist' },
        ours,
      ),
    ).toBe(true);
  });
  test('our own schema or table missing, or any other error: the failure stands', () => {
    expect(
      droppedUnderIntrospection(
        { code: '42P01', message: `relation "${ours}.accounts" does not exist` },
        ours,
      ),
    ).toBe(false);
    expect(
      droppedUnderIntrospection({ code: '3F000', message: `schema "${ours}" does not exist` }, ours),
    ).toBe(false);
    expect(
      droppedUnderIntrospection({ code: '42P01', message: 'relation "accounts" does not exist' }, ours),
    ).toBe(false);
    expect(droppedUnderIntrospection({ code: '23505', message: 'duplicate key' }, ours)).toBe(false);
    expect(droppedUnderIntrospection(new Error('connection reset'), ours)).toBe(false);
  });
});
