import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { DB } from './db/database.ts';
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
});
export type DemoAccount = z.infer<typeof demoAccount>;

export function readDemoAccounts(file: URL | string): DemoAccount[] {
  return z.array(demoAccount).parse(JSON.parse(readFileSync(file, 'utf8')));
}

const factorTags = new Set(['all-factors', 'otp-only', 'email-only', 'push', 'token', 'authenticator']);

/**
 * Seeds the demo accounts: an account that exists is left as it is, so a restart duplicates
 * nothing and keeps what happened to the accounts (a lockout, a changed password).
 */
export async function seedDemoAccounts(
  db: DB,
  hasher: PasswordHasher,
  clock: Clock,
  accounts: DemoAccount[],
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
      const phones = has('all-factors') || has('otp-only');
      await tx
        .insertInto('contacts')
        .values([
          {
            account_id: row.id,
            kind: 'email',
            value: email,
            country_code: null,
            voice: false,
            added_at: new Date(0),
          },
          ...(phones
            ? [
                {
                  account_id: row.id,
                  kind: 'phone',
                  value: '2025550143',
                  country_code: '1',
                  voice: true,
                  added_at: new Date(0),
                },
                {
                  account_id: row.id,
                  kind: 'phone',
                  value: '2025550178',
                  country_code: '1',
                  voice: false,
                  added_at: now,
                },
              ]
            : []),
        ])
        .execute();
      created++;
    });
  }
  return created;
}
