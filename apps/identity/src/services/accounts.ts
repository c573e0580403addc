import { ErrorType, Status, serverMessages } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Account } from '../db/schema.ts';
import { ApiError } from '../lib/http.ts';
import { namedLanguage } from '../lib/language.ts';
import { clientKey, type LimitRule, refuseFirst } from '../lib/rate-limit.ts';
import { deviceKey } from './cookies.ts';

/** Usernames are matched case-insensitively; the key is what the unique index holds. */
export const usernameKey = (username: string): string => username.trim().toLowerCase();

export async function findAccount(db: DB, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
}

export async function findAccountById(db: DB, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * What a password attempt decided: right, wrong, or `locked` (this attempt reached the lockout, or
 * the account was locked or about to be by attempts in flight: the answer is the lockout's).
 */
export type PasswordVerdict = 'right' | 'wrong' | 'locked';

/**
 * An account as the password step reads it, with whether the browser is a known device of it and
 * whether it is a trusted device of it now (a binding that has not expired; false when bindings are
 * off or the browser has no device cookie).
 */
export type PasswordAccount = Account & { known_device?: SqlBool; trusted_device?: SqlBool };

/**
 * The account of a username and, at sign-in, whether this browser completed a sign-in on it
 * (known_devices) and whether it is a trusted device of it (trusted_devices), with the password
 * step's rate limits counted in the same statement (issue 25: one round trip before the hash).
 * Throws the 429 envelope when a limit is reached; no lock.
 */
export async function findForPassword(
  ctx: Context,
  username: string,
  request: FastifyRequest,
  limits: ReadonlyArray<LimitRule>,
): Promise<PasswordAccount | undefined> {
  const steps = ctx.limiter.steps(limits);
  const device = deviceKey(ctx, request);
  const trustable = !!device && ctx.config.factor.trustDeviceMs > 0;
  const { rows } = await sql<Record<string, unknown>>`
    with ${steps.queries}
    select a.*, exists (select 1 from known_devices k
        where k.account_id = a.id and k.device_key = ${device ?? ''}) as known_device,
      ${trustable}::boolean and exists (select 1 from trusted_devices t
        where t.account_id = a.id and t.device_key = ${device ?? ''} and t.expires_at > ${ctx.clock.now()}) as trusted_device,
      ${steps.columns}
    from (select 1) as one left join accounts a on a.username_key = ${usernameKey(username)}`.execute(ctx.db);
  const row = rows[0]!;
  refuseFirst(request, limits, steps.decisions(row));
  if (row.id === null || row.id === undefined) return undefined;
  const account: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!key.startsWith('gh_r')) account[key] = value;
  return account as PasswordAccount;
}

/**
 * What a right password writes with its own statement at sign-in: a WITH query per entry, which
 * reads the proved account's row as `proved` (its `id`) and runs only when the password still
 * counts (below); `select` adds to the statement's answer (scalar subqueries of those queries).
 */
export type WithRightPassword = {
  queries: Array<[name: string, query: RawBuilder<unknown>]>;
  select: RawBuilder<unknown>;
};

/** A right password's answer: the verdict, and the row of the statement's own queries. */
export type PasswordCheck = { verdict: PasswordVerdict; row?: Record<string, unknown> };

/**
 * One password attempt for an account (password authentication, change username, password update),
 * in three statements at most and no lock held across the hash (issue 25): the account as read
 * (`findForPassword`), the argon2id compare, then one statement that counts it, atomically:
 *
 * - a wrong password: the client's count and the account's with one `UPDATE … RETURNING`
 *   (`failed_logins + 1`, locked at the limit, only while the account is active), with its audit
 *   event; the attempt that reaches LOGIN_LOCKOUT_FAILURES locks the account and is the lockout.
 * - a right password: only while the account still holds the hash that was compared and may sign
 *   in (active, or locked by wrong passwords and this is the owner's known browser), with its row
 *   held for that statement alone; it clears the counts, lifts such a lock, and writes what the
 *   sign-in adds (`then`: the login journey and its audit event). When the row changed meanwhile
 *   (a lock by attempts in flight, a new password) the attempt is decided again on the row as it
 *   now is, and compared again only when the hash changed.
 *
 * So each attempt takes effect at its last statement, in the order the account's row admits them,
 * and a burst gets exactly the sequential answers: the wrong ones counted one by one, the one that
 * reaches the limit locks, and a right password after it answers as the lockout, never 1200. No
 * sign-in starts under a password that a change replaced. Attempts on different accounts go on
 * side by side. The lock ends every session of the account.
 *
 * The lock strangers cause does not hold for the owner's own browser (docs/decisions/034): at
 * sign-in, a browser this account completed a sign-in on (known_devices) is a client of its own.
 * Its wrong passwords count on its own row of login_failures, never against the account (at
 * LOGIN_LOCKOUT_FAILURES of them it is no longer known); its right password signs in through a lock
 * that wrong passwords caused, and lifts it at once.
 *
 * An unknown username does the same work as a wrong password of a known one (issue 22 finding 8,
 * the timing of the password step): the same read and count statements (each finds no account),
 * and an argon2id compare against a dummy hash of the same parameters (`verifyOrBurn`).
 */
export async function checkPassword(
  ctx: Context,
  account: PasswordAccount | undefined,
  password: string,
  audit: { request: FastifyRequest; purpose: string; username?: string },
): Promise<PasswordVerdict> {
  return (await attemptPassword(ctx, account, password, audit)).verdict;
}

/**
 * `checkPassword` with what a right password writes in its statement (`then`), and that statement's
 * row: the password step of a sign-in starts its login journey so. At sign-in the account also
 * keeps the language its owner signs in with (`keepLanguage`), in the same statement.
 */
export async function attemptPassword(
  ctx: Context,
  account: PasswordAccount | undefined,
  password: string,
  audit: { request: FastifyRequest; purpose: string; username?: string },
  then?: WithRightPassword,
): Promise<PasswordCheck> {
  const key = usernameKey(audit.username ?? account?.username ?? '');
  const { request } = audit;
  const atSignIn = audit.purpose === 'sign-in';
  const limit = ctx.config.lockoutFailures;
  const known = atSignIn && account?.known_device === true;
  const device = known ? deviceKey(ctx, request) : undefined;
  const address = `address:${clientKey(request.ip)}`;
  const client = device ? `device:${device}` : address;
  let row = account;
  let compared: { hash: string | undefined; correct: boolean } | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!compared || compared.hash !== row?.password_hash) {
      compared = {
        hash: row?.password_hash,
        correct: await ctx.hasher.verifyOrBurn(row?.password_hash, password),
      };
    }
    const { correct } = compared;
    if (row && row.status !== 'active' && !(known && lockedByFailures(row, limit))) {
      // Blocked, closed, or locked by a fraud report, the console or support: no count, no way round.
      // A right password answers as the account's state: as it is now, when it changed while the
      // hash ran (the caller reads `account`).
      if (!correct) await failed(ctx, request, account, audit.purpose, 'sign-in-failed');
      if (correct && account && attempt > 0) account.status = row.status;
      return { verdict: correct ? 'right' : 'wrong' };
    }
    if (!row || !correct) {
      return countFailure(ctx, request, { key, address, device, account, purpose: audit.purpose });
    }
    const proved = await settleRight(ctx, request, row, {
      key,
      client,
      device,
      then,
      language: atSignIn ? (namedLanguage(request) ?? null) : null,
    });
    if (proved) {
      if (proved.was !== 'active' && account) {
        // The owner's own browser lifted a lock that wrong passwords caused: the caller sees the
        // account as it now is.
        account.status = 'active';
        account.failed_logins = 0;
        account.locked_by_failures = false;
      }
      return { verdict: 'right', row: proved };
    }
    // The row changed while the hash ran: decide on it as it now is.
    row = await findAccountById(ctx.db, row.id);
  }
  // The row changed under every try (its password changed again and again): neither right nor
  // wrong can be said of this password, so nothing is counted and the caller may try again.
  request.log.warn({ account: account?.id }, 'password check: the account changed under every try');
  throw new ApiError(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM);
}

/** A failed attempt's audit event, outside a count (an account no count applies to). */
async function failed(
  ctx: Context,
  request: FastifyRequest,
  account: Account | undefined,
  purpose: string,
  event: 'sign-in-failed' | 'lockout',
) {
  await ctx.audit.record(request, {
    event,
    outcome: 'failure',
    accountId: account?.id,
    detail: { reason: account ? 'wrong password' : 'unknown username', during: purpose },
  });
}

/**
 * A wrong password (or no such account), counted in one statement: this client's count, the
 * account's, and the audit event, `lockout` for the attempt that reached the limit. The owner's
 * known browser (`device`) counts on its own row while it is still known: its row in known_devices
 * is held for the statement, and at LOGIN_LOCKOUT_FAILURES it is deleted in the same statement, so
 * an attempt waiting behind it finds the browser no longer known and counts on the address and the
 * account like any other. (An unknown username's update finds no row.)
 */
async function countFailure(
  ctx: Context,
  request: FastifyRequest,
  input: {
    key: string;
    address: string;
    device: string | undefined;
    account: Account | undefined;
    purpose: string;
  },
): Promise<PasswordCheck> {
  const { key, address, device, account } = input;
  const limit = ctx.config.lockoutFailures;
  const now = ctx.clock.now();
  const deviceClient = `device:${device ?? ''}`;
  const audit = await ctx.audit.insertFrom('counted left join counted_account on true', request, {
    event: {
      either: ['lockout', 'sign-in-failed'],
      when: sql<boolean>`counted_account.failed_logins >= ${limit}`,
    },
    outcome: 'failure',
    accountId: account?.id ?? null,
    detail: { reason: account ? 'wrong password' : 'unknown username', during: input.purpose },
  });
  const { rows } = await sql<{ failures: number; failed_logins: number | null; forgotten: boolean }>`
    with device as (
      select device_key from known_devices
      where account_id = ${account?.id ?? NO_ACCOUNT} and device_key = ${device ?? ''}
      for update
    ), counted as (
      insert into login_failures (username_key, client, failures, updated_at)
      select ${key}, case when exists (select 1 from device) then ${deviceClient} else ${address} end, 1, ${now}
      on conflict (username_key, client) do update
        set failures = login_failures.failures + 1, updated_at = ${now}
      returning failures
    ), forgotten as (
      delete from known_devices
      where account_id = ${account?.id ?? NO_ACCOUNT} and device_key = ${device ?? ''}
        and exists (select 1 from device) and (select failures from counted) >= ${limit}
      returning device_key
    ), counted_account as (
      update accounts set
        failed_logins = failed_logins + 1,
        status = case when failed_logins + 1 >= ${limit} then 'locked' else status end,
        locked_by_failures = failed_logins + 1 >= ${limit},
        locked_by_fraud = false,
        updated_at = ${now}
      where username_key = ${key} and status = 'active' and not exists (select 1 from device)
      returning failed_logins
    ), audited as (
      ${audit}
    )
    select counted.failures, counted_account.failed_logins, exists (select 1 from forgotten) as forgotten
    from counted left join counted_account on true`.execute(ctx.db);
  const { failed_logins, forgotten } = rows[0]!;
  if (forgotten) {
    // The browser is no longer known: its own count goes with it (it starts again from 0 if it
    // becomes known again).
    await ctx.db
      .deleteFrom('login_failures')
      .where('username_key', '=', key)
      .where('client', '=', deviceClient)
      .execute();
  }
  const locked = failed_logins !== null && failed_logins >= limit;
  if (locked && account) await ctx.sessions.endAllForAccount(account.id, 'locked');
  return { verdict: locked ? 'locked' : 'wrong' };
}

/** The id no account has: an unknown username's statements look for it and find nothing. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/**
 * A right password, settled in one statement while it still counts: the account's row (held for
 * this statement alone) still has the hash that was compared and is active, or locked by wrong
 * passwords and this is the owner's known browser. Its counts clear and such a lock lifts (audited);
 * `then`'s queries run with it. Undefined when the row no longer qualifies.
 */
async function settleRight(
  ctx: Context,
  request: FastifyRequest,
  row: Account,
  input: {
    key: string;
    client: string;
    device: string | undefined;
    then: WithRightPassword | undefined;
    language: string | null;
  },
): Promise<(Record<string, unknown> & { was: string }) | undefined> {
  const { key, client, device, then, language } = input;
  const limit = ctx.config.lockoutFailures;
  const now = ctx.clock.now();
  const lifted = await ctx.audit.insertFrom("settled where settled.was <> 'active'", request, {
    event: 'lock-lifted',
    outcome: 'success',
    accountId: row.id,
    detail: { lock: 'password', by: 'known device' },
  });
  const extra = then?.queries ?? [];
  const { rows } = await sql<Record<string, unknown> & { was: string }>`
    with proved as (
      select id, status from accounts
      where id = ${row.id} and password_hash = ${row.password_hash}
        and (status = 'active' or (status = 'locked' and locked_by_failures and failed_logins >= ${limit}
          and exists (select 1 from known_devices where account_id = ${row.id} and device_key = ${device ?? ''})))
      for update
    ), settled as (
      update accounts set failed_logins = 0, status = 'active', locked_by_failures = false,
        locked_by_fraud = false, updated_at = ${now},
        language = coalesce(${language}, accounts.language)
      from proved
      where accounts.id = proved.id and (accounts.failed_logins > 0 or accounts.status <> 'active'
        or accounts.language is distinct from coalesce(${language}, accounts.language))
      returning proved.status as was
    ), cleared as (
      delete from login_failures
      where username_key = ${key} and client = ${client} and exists (select 1 from proved)
    ), lifted as (
      ${lifted}
    )${sql.join(
      extra.map(([name, query]) => sql`, ${sql.raw(name)} as (${query})`),
      sql``,
    )}
    select proved.status as was${then ? sql`, ${then.select}` : sql``}
    from proved`.execute(ctx.db);
  return rows[0];
}

/**
 * Whether a lock came from wrong passwords: the flag, and the count still at the lockout. Whatever
 * unlocks an account (support, a password reset) clears the count, so a later lock for another
 * reason (a fraud report) is never taken for one that the owner's browser may lift.
 */
const lockedByFailures = (
  row: Pick<Account, 'status' | 'locked_by_failures' | 'failed_logins'>,
  limit: number,
): boolean => row.status === 'locked' && row.locked_by_failures && row.failed_logins >= limit;

/**
 * What a completed sign-in writes with it (engine.signIn), as WITH queries over the statement's
 * `source` (the completed journey: `account_id`): the browser is now a known device of the account,
 * and a recovery lock that strangers caused (recovery.ts) is lifted at once, audited: the owner has
 * just proved who they are with every factor the sign-in asked for (docs/decisions/034).
 */
export async function afterSignIn(
  ctx: Context,
  request: FastifyRequest,
  source: string,
): Promise<Array<[name: string, query: RawBuilder<unknown>]>> {
  const now = ctx.clock.now();
  const device = deviceKey(ctx, request);
  const from = sql.raw(source);
  const lifted = await ctx.audit.insertFrom('lifted', request, {
    event: 'lock-lifted',
    outcome: 'success',
    accountId: { column: 'lifted.account_id' },
    detail: { lock: 'recovery', by: 'sign-in' },
  });
  return [
    ...(device
      ? ([
          [
            'known',
            sql`insert into known_devices (account_id, device_key, last_sign_in_at)
              select ${from}.account_id, ${device}, ${now} from ${from}
              on conflict (account_id, device_key) do update set last_sign_in_at = ${now}`,
          ],
        ] as Array<[string, RawBuilder<unknown>]>)
      : []),
    [
      'lifted',
      sql`update otp_counters set wrong_tries = 0, unentered_sends = 0, locked_until = null, updated_at = ${now}
        where account_id = (select account_id from ${from}) and channel = 'email' and locked_until > ${now}
        returning account_id`,
    ],
    ['lift_audited', lifted],
  ];
}

/**
 * Keeps on the account the language its owner signs in with (the request's Accept-Language, as
 * the client sends the language its page shows), for the e-mails, texts and calls that follow. A
 * request that names no language changes nothing, and only a proven owner sets it: a stranger who
 * starts a recovery does not (docs/decisions/029-languages.md).
 */
export async function keepLanguage(db: DB, request: FastifyRequest, account: Account): Promise<void> {
  const language = namedLanguage(request);
  if (!language || language === account.language) return;
  await db.updateTable('accounts').set({ language }).where('id', '=', account.id).execute();
  account.language = language;
}
