import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type StaffRole, staffNamePattern, staffRoles } from '@gatehouse/contract';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { CredentialCipher } from '../credentials/cipher.ts';
import type { DB } from '../db/database.ts';
import type { Staff, StaffSession } from '../db/schema.ts';
import { findStep, timeStep } from '../factors/app-codes.ts';
import type { Clock } from '../lib/clock.ts';
import { randomToken, sha256 } from '../lib/crypto.ts';
import type { PasswordHasher } from '../lib/passwords.ts';
import { usernameKey } from '../services/accounts.ts';

/**
 * Staff members of the representative console (docs/decisions/028-representative-console.md): their
 * own rows, apart from customers' accounts; argon2id passwords; an authenticator app (RFC 6238,
 * SHA-1, 6 digits, 30 s, one step of skew) whose secret is encrypted at rest like customers'
 * credentials (decision 021) and whose accepted time step is recorded, so a code works once.
 */

/** The authenticator-app parameters of staff codes (the design's RFC 6238 defaults). */
const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6 } as const;
const PERIOD = 30;
const CIPHER_KIND = 'staff-totp';
/** The pending sign-in (password right, authenticator code due) lasts this long. */
const FACTOR_STEP_MS = 5 * 60_000;

/** The otpauth:// address an authenticator app reads (as a QR code or typed): issuer, name, secret. */
export function staffOtpauthUri(name: string, secret: string): string {
  return new TOTP({ issuer: 'Gatehouse Console', label: name, secret: Secret.fromBase32(secret) }).toString();
}

/** A password for a new staff member: 16 characters of an alphabet without look-alikes, from the CSPRNG. */
export function newStaffPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from({ length: 16 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

type NewStaff = {
  name: string;
  role: StaffRole;
  password: string;
  /** Base32 RFC 6238 secret; a new random 160-bit one when absent. */
  totpSecret?: string | undefined;
  /** The staff member's own customer account, on which they may not act. */
  customerUsername?: string | undefined;
};

export class StaffStore {
  private readonly cipher: CredentialCipher;
  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly config: Config,
  ) {
    this.cipher = new CredentialCipher(config.credentialKeys);
  }

  async byName(name: string): Promise<Staff | undefined> {
    return this.db
      .selectFrom('staff')
      .selectAll()
      .where('name', '=', name.trim().toLowerCase())
      .executeTakeFirst();
  }

  async byId(id: string): Promise<Staff | undefined> {
    return this.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Adds a staff member; returns their authenticator secret (base32), to be shown once. */
  async add(input: NewStaff): Promise<{ id: string; totpSecret: string }> {
    if (!staffNamePattern.test(input.name)) throw new Error(`Not a staff name: ${input.name}`);
    const id = randomUUID();
    const secret = input.totpSecret ? Secret.fromBase32(input.totpSecret) : new Secret({ size: 20 });
    const { keyId, ciphertext } = this.cipher.encrypt(new Uint8Array(secret.buffer), {
      id,
      kind: CIPHER_KIND,
    });
    await this.db
      .insertInto('staff')
      .values({
        id,
        name: input.name,
        role: input.role,
        password_hash: await this.hasher.hash(input.password),
        totp_secret: ciphertext,
        totp_key_id: keyId,
        customer_username_key: input.customerUsername ? usernameKey(input.customerUsername) : null,
        created_at: this.clock.now(),
      })
      .execute();
    return { id, totpSecret: secret.base32 };
  }

  async disable(name: string): Promise<boolean> {
    const staff = await this.byName(name);
    if (!staff) return false;
    await this.db.updateTable('staff').set({ status: 'disabled' }).where('id', '=', staff.id).execute();
    await this.db
      .updateTable('staff_sessions')
      .set({ ended_at: this.clock.now(), end_reason: 'disabled' })
      .where('staff_id', '=', staff.id)
      .where('ended_at', 'is', null)
      .execute();
    return true;
  }

  /** Whether a staff member is refused for failed sign-ins now. */
  lockedNow(staff: Pick<Staff, 'locked_until'>): boolean {
    return !!staff.locked_until && new Date(staff.locked_until).getTime() > this.clock.now().getTime();
  }

  /**
   * Reserves a try of an authenticator code before it is compared (as customers' codes are:
   * lib/otp.ts, factors/app-codes.ts TryCounter): one conditional UPDATE adds it only while the
   * member is not locked and the wrong codes are under STAFF_LOCKOUT_FAILURES, so however many codes
   * arrive at once, at most that many are compared. The try's number, or undefined when none is left.
   */
  async reserveCodeTry(staffId: string): Promise<number | undefined> {
    const now = this.clock.now();
    const result = await sql<{ tries: number }>`
      update staff set failed_sign_ins = failed_sign_ins + 1
      where id = ${staffId} and failed_sign_ins < ${this.config.console.lockoutFailures}
        and (locked_until is null or locked_until <= ${now}::timestamptz)
      returning failed_sign_ins as tries`.execute(this.db);
    return result.rows[0]?.tries;
  }

  /**
   * After a compared wrong code: locks the member for STAFF_LOCKOUT_MINUTES once the reserved wrong
   * codes reached STAFF_LOCKOUT_FAILURES (the count starts again after the lock). True: this call
   * locked the member (exactly one of any number of simultaneous calls).
   */
  async lockIfSpent(staffId: string): Promise<boolean> {
    const { lockoutFailures, lockoutMs } = this.config.console;
    const until = new Date(this.clock.now().getTime() + lockoutMs);
    const result = await sql<{ id: string }>`
      update staff set failed_sign_ins = 0, locked_until = ${until}::timestamptz
      where id = ${staffId} and failed_sign_ins >= ${lockoutFailures}
      returning id`.execute(this.db);
    return result.rows.length === 1;
  }

  /**
   * The right code: the wrong tries start again, only while the member is not locked (a lock set by
   * other tries while this one was compared stands: no sign-in past a lock). False: locked.
   */
  async succeeded(staffId: string): Promise<boolean> {
    const result = await sql<{ id: string }>`
      update staff set failed_sign_ins = 0, locked_until = null
      where id = ${staffId} and (locked_until is null or locked_until <= ${this.clock.now()}::timestamptz)
      returning id`.execute(this.db);
    return result.rows.length === 1;
  }

  /**
   * Checks an authenticator code: the time step within one step of now whose code it is, accepted
   * only while it is newer than every step accepted before (one conditional UPDATE: a replay, or the
   * losers of a race, are refused).
   */
  async checkCode(staff: Staff, code: string): Promise<boolean> {
    const secret = this.cipher.decrypt(staff.totp_secret, staff.totp_key_id, {
      id: staff.id,
      kind: CIPHER_KIND,
    });
    let step: number | null;
    try {
      step = findStep(secret, code, timeStep(this.clock.now(), PERIOD), 1, TOTP_PARAMETERS);
    } finally {
      secret.fill(0);
    }
    if (step === null) return false;
    const claimed = await sql<{ id: string }>`
      update staff set totp_last_step = ${step}
      where id = ${staff.id} and coalesce(totp_last_step, -1) < ${step}
      returning id`.execute(this.db);
    return claimed.rows.length === 1;
  }

  // --- sessions ------------------------------------------------------------------------------------

  /** Starts a staff session (stage factor: the code is due; active: signed in); returns its token. */
  async startSession(staffId: string, stage: 'factor' | 'active', clientIp: string): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.now();
    const { idleMs, absoluteMs } = this.config.console;
    const absolute = new Date(now.getTime() + (stage === 'factor' ? FACTOR_STEP_MS : absoluteMs));
    const idle = new Date(
      Math.min(now.getTime() + (stage === 'factor' ? FACTOR_STEP_MS : idleMs), absolute.getTime()),
    );
    await this.db
      .insertInto('staff_sessions')
      .values({
        id: sha256(token),
        staff_id: staffId,
        stage,
        created_at: now,
        last_seen_at: now,
        idle_expires_at: idle,
        absolute_expires_at: absolute,
        client_ip: clientIp,
      })
      .execute();
    return token;
  }

  /**
   * The live session of a token at a stage, with its staff member, or null (unknown, ended, idle
   * past STAFF_IDLE_MINUTES, past its absolute limit, another stage, or the staff member disabled).
   * An active session's idle limit moves forward with each call.
   */
  async session(
    token: string | undefined,
    stage: 'factor' | 'active',
  ): Promise<{ session: StaffSession; staff: Staff } | null> {
    if (!token || token.length > 100) return null;
    const session = await this.db
      .selectFrom('staff_sessions')
      .selectAll()
      .where('id', '=', sha256(token))
      .executeTakeFirst();
    if (!session || session.ended_at || session.stage !== stage) return null;
    const now = this.clock.now();
    if (now.getTime() >= new Date(session.idle_expires_at).getTime()) {
      await this.end(session.id, 'idle');
      return null;
    }
    if (now.getTime() >= new Date(session.absolute_expires_at).getTime()) {
      await this.end(session.id, 'absolute');
      return null;
    }
    const staff = await this.byId(session.staff_id);
    if (staff?.status !== 'active') {
      await this.end(session.id, 'disabled');
      return null;
    }
    if (stage === 'active') {
      const idle = Math.min(
        now.getTime() + this.config.console.idleMs,
        new Date(session.absolute_expires_at).getTime(),
      );
      await this.db
        .updateTable('staff_sessions')
        .set({ last_seen_at: now, idle_expires_at: new Date(idle) })
        .where('id', '=', session.id)
        .where('ended_at', 'is', null)
        .execute();
    }
    return { session, staff };
  }

  /** Ends a live session; true when this call ended it. */
  async end(id: string, reason: string): Promise<boolean> {
    const result = await this.db
      .updateTable('staff_sessions')
      .set({ ended_at: this.clock.now(), end_reason: reason })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async endByToken(token: string | undefined, reason: string): Promise<boolean> {
    return token && token.length <= 100 ? this.end(sha256(token), reason) : false;
  }
}

// --- demo staff ------------------------------------------------------------------------------------

const demoStaff = z.object({
  name: z.string().regex(staffNamePattern),
  role: z.enum(staffRoles),
  password: z.string().min(8),
  totpSecret: z.string().regex(/^[A-Z2-7]{16,}=*$/),
  customer: z.string().optional(),
  about: z.string(),
});
type DemoStaff = z.infer<typeof demoStaff>;

export function readDemoStaff(file: URL | string): DemoStaff[] {
  return z.array(demoStaff).parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Adds the demo staff members that do not exist yet (development mode); returns how many. */
export async function seedDemoStaff(store: StaffStore, staff: DemoStaff[]): Promise<number> {
  let created = 0;
  for (const member of staff) {
    if (await store.byName(member.name)) continue;
    try {
      await store.add({
        name: member.name,
        role: member.role,
        password: member.password,
        totpSecret: member.totpSecret,
        customerUsername: member.customer,
      });
      created++;
    } catch (error) {
      // Another instance starting at the same moment seeded this member first: it is there.
      if ((error as { code?: unknown }).code === '23505' && (await store.byName(member.name))) continue;
      throw error;
    }
  }
  return created;
}
