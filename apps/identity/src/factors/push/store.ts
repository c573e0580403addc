import { randomInt, randomUUID } from 'node:crypto';
import { type DevicePush, limits, PUSH_NUMBER_DIGITS, type PushContent } from '@gatehouse/contract';
import type { DB } from '../../db/database.ts';
import type { PushTransaction } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * Push transactions as rows (decision 022). Every change of status is one conditional UPDATE, so of
 * two answers, two instances or an answer and the expiry exactly one wins; the send limit is counted
 * under the journey's row lock, so a burst of sends creates exactly `limits.pushSendLimit`.
 */

export type PushStatusRow = 'PENDING' | 'APPROVED' | 'DECLINED' | 'FRAUD' | 'WRONG_NUMBER' | 'EXPIRED';

/**
 * Number matching: a 2-digit number, 10 to 99, from the CSPRNG (decision 032). The sign-in screen
 * shows it and the customer types it on the device, which is never told it: a blind approver's guess
 * is right once in 90.
 */
export function matchingNumber(): string {
  return String(randomInt(10 ** (PUSH_NUMBER_DIGITS - 1), 10 ** PUSH_NUMBER_DIGITS));
}

const parseJson = <T>(value: unknown): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : (value as T);

export class PushStore {
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
  ) {}

  /**
   * A new PENDING push for a journey, or which limit refused it: 'journey' (the journey has sent
   * limits.pushSendLimit) or 'account' (the account was sent `accountLimit.max` pushes within its
   * window, across all its journeys: push fatigue). The journey's and then the account's rows are
   * held while counting, so a burst across journeys creates exactly the limit; the journey's older
   * pending pushes are withdrawn (EXPIRED): only the newest can be answered.
   */
  async create(input: {
    journeyId: string;
    accountId: string;
    credentialId: string;
    description: string;
    /** The server's own text (decision 032); the time is the push's own creation time. */
    content: Omit<PushContent, 'time'>;
    expiryMs: number;
    numberMatching: boolean;
    accountLimit: { max: number; windowMs: number };
  }): Promise<PushTransaction | 'journey' | 'account'> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (tx) => {
      await tx.selectFrom('journeys').select('id').where('id', '=', input.journeyId).forUpdate().execute();
      const { sent } = await tx
        .selectFrom('push_transactions')
        .select((eb) => eb.fn.countAll<string>().as('sent'))
        .where('journey_id', '=', input.journeyId)
        .executeTakeFirstOrThrow();
      if (Number(sent) >= limits.pushSendLimit) return 'journey' as const;
      await tx.selectFrom('accounts').select('id').where('id', '=', input.accountId).forUpdate().execute();
      const { recent } = await tx
        .selectFrom('push_transactions')
        .select((eb) => eb.fn.countAll<string>().as('recent'))
        .where('account_id', '=', input.accountId)
        .where('created_at', '>', new Date(now.getTime() - input.accountLimit.windowMs))
        .executeTakeFirstOrThrow();
      if (Number(recent) >= input.accountLimit.max) return 'account' as const;
      await tx
        .updateTable('push_transactions')
        .set({ status: 'EXPIRED' })
        .where('journey_id', '=', input.journeyId)
        .where('status', '=', 'PENDING')
        .execute();
      return tx
        .insertInto('push_transactions')
        .values({
          id: randomUUID(),
          journey_id: input.journeyId,
          account_id: input.accountId,
          credential_id: input.credentialId,
          description: input.description,
          // The time shown on the device is the push's own, not the widget's claim.
          content: JSON.stringify({ ...input.content, time: now.toISOString() }),
          status: 'PENDING',
          number: input.numberMatching ? matchingNumber() : null,
          created_at: now,
          expires_at: new Date(now.getTime() + input.expiryMs),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** A push that could not be delivered: it neither counts nor can be answered. */
  async withdraw(id: string): Promise<void> {
    await this.db.deleteFrom('push_transactions').where('id', '=', id).execute();
  }

  /**
   * The push `id` if it belongs to the login journey whose cookie token has this hash: the poll of
   * a login in one read (the journey's binding and the push together).
   */
  async ofLoginCookie(
    id: string,
    tokenHash: string,
  ): Promise<(PushTransaction & { journey_state: string }) | undefined> {
    return this.db
      .selectFrom('push_transactions as p')
      .innerJoin('journeys as j', 'j.id', 'p.journey_id')
      .selectAll('p')
      .select('j.state as journey_state')
      .where('p.id', '=', id)
      .where('j.token_hash', '=', tokenHash)
      .where('j.kind', '=', 'login')
      .executeTakeFirst();
  }

  /**
   * Whether a push that can no longer be answered was withdrawn: its journey ended (the account
   * locked, or its sessions were ended) before it was answered or ran out.
   */
  async withdrawn(row: PushTransaction): Promise<boolean> {
    if (row.status !== 'EXPIRED' || new Date(row.expires_at).getTime() <= this.clock.now().getTime())
      return false;
    const journey = await this.db
      .selectFrom('journeys')
      .select('state')
      .where('id', '=', row.journey_id)
      .executeTakeFirst();
    return journey?.state === 'ended';
  }

  async get(id: string): Promise<PushTransaction | undefined> {
    return this.db.selectFrom('push_transactions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The device's answer: only a PENDING push before its expiry moves (null: answered, expired or
   * gone). The same statement marks the push's device used at the answer's time, so the device
   * app's and the security page's 'Last used' never lag an answer nor count one that lost.
   */
  async answer(id: string, status: PushStatusRow, key: string): Promise<PushTransaction | null> {
    const now = this.clock.now();
    const row = await this.db
      .with('answered', (db) =>
        db
          .updateTable('push_transactions')
          .set({ status, answered_at: now, answer_key: key })
          .where('id', '=', id)
          .where('status', '=', 'PENDING')
          .where('expires_at', '>', now)
          .returningAll(),
      )
      .with('used', (db) =>
        db
          .updateTable('credentials')
          .set({ last_used_at: now })
          .where('id', 'in', db.selectFrom('answered').select('credential_id')),
      )
      .selectFrom('answered')
      .selectAll()
      .executeTakeFirst();
    return row ?? null;
  }

  /** A PENDING push past its expiry becomes EXPIRED once (true: this call moved it). */
  async expire(id: string): Promise<boolean> {
    const now = this.clock.now();
    const result = await this.db
      .updateTable('push_transactions')
      .set({ status: 'EXPIRED' })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** An approval completed its journey. */
  async markCompleted(id: string): Promise<void> {
    await this.db
      .updateTable('push_transactions')
      .set({ completed_at: this.clock.now() })
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .execute();
  }

  /** A device's pushes: pending first (newest first), then the last `recent` answered or expired ones. */
  async forCredentials(
    credentialIds: string[],
    recent = 20,
  ): Promise<Array<PushTransaction & { username: string; journey_kind: string }>> {
    if (!credentialIds.length) return [];
    const now = this.clock.now();
    const base = () =>
      this.db
        .selectFrom('push_transactions as p')
        .innerJoin('accounts as a', 'a.id', 'p.account_id')
        .innerJoin('journeys as j', 'j.id', 'p.journey_id')
        .selectAll('p')
        .select(['a.username', 'j.kind as journey_kind'])
        .where('p.credential_id', 'in', credentialIds);
    const pending = await base()
      .where('p.status', '=', 'PENDING')
      .where('p.expires_at', '>', now)
      .orderBy('p.created_at', 'desc')
      .limit(50)
      .execute();
    const done = await base()
      .where((eb) => eb.or([eb('p.status', '!=', 'PENDING'), eb('p.expires_at', '<=', now)]))
      .orderBy('p.created_at', 'desc')
      .limit(recent)
      .execute();
    return [...pending, ...done];
  }

  /**
   * A push as the device sees it (decision 032): the server's own text, the journey kind from the
   * journey row, and whether a number must be typed; never the number itself.
   */
  deviceView(row: PushTransaction & { username: string; journey_kind: string }): DevicePush {
    const content = parseJson<Partial<Record<keyof PushContent, unknown>>>(row.content) ?? {};
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      id: row.id,
      username: row.username,
      status: this.statusOf(row, 'device'),
      description: row.description,
      content: {
        browserName: text(content.browserName),
        osName: text(content.osName),
        time: new Date(row.created_at).toISOString(),
        host: text(content.host),
        journey: row.journey_kind === 'stepup' ? 'STEPUP' : 'LOGIN',
      },
      createdAt: new Date(row.created_at).toISOString(),
      expiresAt: new Date(row.expires_at).toISOString(),
      answeredAt: row.answered_at ? new Date(row.answered_at).toISOString() : null,
      numberMatching: row.number !== null,
    };
  }

  /** The contract's status of a row (the widget's poll adds the journey's completion). */
  statusOf(row: PushTransaction, _for: 'device' | 'widget'): DevicePush['status'] {
    switch (row.status as PushStatusRow) {
      case 'PENDING':
        return new Date(row.expires_at).getTime() > this.clock.now().getTime()
          ? 'PENDING'
          : 'EXPIRED_PENDING';
      case 'APPROVED':
        return row.completed_at ? 'COMPLETED_SUCCESSFUL' : 'SUCCESS';
      case 'DECLINED':
        return 'DECLINED';
      case 'FRAUD':
        return 'FRAUD';
      case 'WRONG_NUMBER':
        return 'COMPLETED_FAILURE';
      default:
        return 'EXPIRED_PENDING';
    }
  }
}
