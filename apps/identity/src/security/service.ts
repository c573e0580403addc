import {
  appDefaults,
  type SecurityActivityItem,
  type SecurityAppItem,
  type SecurityChange,
  type SecurityEmailItem,
  type SecurityPhoneItem,
  type SecurityTokenItem,
  type SignedInSessionItem,
  Status,
  securityActivityMessages,
  serverMessages,
  type TrustedBrowserItem,
} from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { Secret } from 'otpauth';
import type { Context } from '../context.ts';
import { contactLabel, toContact } from '../credentials/contacts.ts';
import type { Credential, CredentialKind } from '../credentials/store.ts';
import type { DB } from '../db/database.ts';
import type { Account, Contact, Session } from '../db/schema.ts';
import { ApiError } from '../lib/http.ts';
import { type NoticeDetails, notifyOwner } from '../services/account-security.ts';
import { deviceKey } from '../services/cookies.ts';
import { requireSession } from '../services/session-guard.ts';
import { establishedFrom, isEstablished } from './credential-policy.ts';
import { describeUserAgent } from './user-agent.ts';

/**
 * The portal's security page, its rules apart from the routes (docs/decisions/025-security-page-api.md):
 * the step-up guard, the overview's lists, the last-factor rule, the notice of a change.
 */

export type Guarded = { session: Session; account: Account; stepUpExpiresAt: Date };

/**
 * The signed-in session (else 401) that proved a factor in a STEPUP journey within
 * SECURITY_STEPUP_MINUTES (else 1412, HTTP 403): the sign-in itself and a trusted device never count.
 */
export async function requireSteppedUp(ctx: Context, request: FastifyRequest): Promise<Guarded> {
  const session = await requireSession(ctx, request);
  const windowMs = ctx.config.security.stepUpMs;
  const since = await ctx.sessions.provedSince(session.id, { withinMs: windowMs, journeyKind: 'stepup' });
  if (!since) throw new ApiError(403, Status.STEP_UP_REQUIRED, serverMessages.stepUpRequired);
  const account = await ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', session.account_id)
    .executeTakeFirstOrThrow();
  return { session, account, stepUpExpiresAt: new Date(since.getTime() + windowMs) };
}

/** The page's calls that add something, per account (enrollment, contact add, confirmations). */
export async function limitAccount(ctx: Context, request: FastifyRequest, accountId: string) {
  await ctx.limiter.enforce(request, [[`security:account:${accountId}`, ctx.config.security.rate]]);
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export const appItem = (ctx: Context, c: Credential): SecurityAppItem => ({
  id: c.id,
  name: c.name,
  createdAt: c.createdAt.toISOString(),
  lastUsedAt: iso(c.lastUsedAt),
  recentlyAdded: !isEstablished(ctx, c),
  usableFrom: establishedFrom(ctx, c).toISOString(),
});

export function phoneItem(ctx: Context, contact: Contact): SecurityPhoneItem {
  return { ...emailItem(ctx, contact), voice: contact.voice };
}

export function emailItem(ctx: Context, contact: Contact): SecurityEmailItem {
  const added = new Date(contact.added_at);
  return {
    id: contact.id,
    masked: contactLabel(contact),
    createdAt: added.toISOString(),
    usableFrom: establishedFrom(ctx, contact).toISOString(),
    recentlyAdded: !isEstablished(ctx, contact),
  };
}

/** A credential in the contact shape. */
export const contactOf = (c: Credential): Contact =>
  toContact({
    id: c.id,
    account_id: c.accountId,
    kind: c.kind,
    public_part: c.publicPart,
    data: c.data,
    created_at: c.createdAt,
  });

/** The overview's lists (GET /user/security/overview). */
export async function overview(ctx: Context, request: FastifyRequest, guarded: Guarded) {
  const { account, session } = guarded;
  const now = ctx.clock.now();
  const credentials = await ctx.credentials.list(account.id);
  const of = (kind: CredentialKind) => credentials.filter((c) => c.kind === kind);

  const device = deviceKey(ctx, request);
  const browsers = await ctx.db
    .selectFrom('trusted_devices')
    .select(['id', 'device_key', 'user_agent', 'created_at', 'last_used_at', 'expires_at'])
    .where('account_id', '=', account.id)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
  const sessions = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'public_id', 'user_agent', 'client_ip', 'created_at', 'last_seen_at'])
    .where('account_id', '=', account.id)
    .where('ended_at', 'is', null)
    .where('idle_expires_at', '>', now)
    .where('absolute_expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .execute();
  const events = await ctx.db
    .selectFrom('audit_events')
    .select(['id', 'event', 'outcome', 'at', 'user_agent', 'client_ip'])
    .where('account_id', '=', account.id)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();

  return {
    stepUpExpiresAt: guarded.stepUpExpiresAt.toISOString(),
    authenticators: of('totp').map((c) => appItem(ctx, c)),
    pushDevices: of('push').map((c) => appItem(ctx, c)),
    tokens: of('token').map(
      (c): SecurityTokenItem => ({ ...appItem(ctx, c), credentialId: c.publicPart ?? '' }),
    ),
    phones: of('phone').map((c) => phoneItem(ctx, contactOf(c))),
    emails: of('email').map((c) => emailItem(ctx, contactOf(c))),
    trustedBrowsers: browsers.map(
      (b): TrustedBrowserItem => ({
        id: b.id,
        ...describeUserAgent(b.user_agent),
        createdAt: new Date(b.created_at).toISOString(),
        lastUsedAt: iso(b.last_used_at),
        expiresAt: new Date(b.expires_at).toISOString(),
        current: b.device_key === device,
      }),
    ),
    sessions: sessions
      .filter((s) => s.public_id)
      .map(
        (s): SignedInSessionItem => ({
          id: s.public_id as string,
          ...describeUserAgent(s.user_agent),
          address: s.client_ip ?? '',
          signedInAt: new Date(s.created_at).toISOString(),
          lastActivityAt: new Date(s.last_seen_at).toISOString(),
          current: s.id === session.id,
        }),
      ),
    activity: events.map((e): SecurityActivityItem => {
      const agent = e.user_agent ? describeUserAgent(e.user_agent) : null;
      return {
        id: e.id,
        event: e.event,
        outcome: e.outcome,
        at: new Date(e.at).toISOString(),
        browser: agent?.browser ?? null,
        os: agent?.os ?? null,
        address: e.client_ip,
        description:
          securityActivityMessages[e.event as keyof typeof securityActivityMessages] ??
          securityActivityMessages.other,
      };
    }),
  };
}

/** The issuer an authenticator app shows for this service. */
export const totpIssuer = appDefaults.portalAppName;

/** The key URI of an authenticator app (the QR code's text). */
export function otpauthUri(username: string, secret: Uint8Array): string {
  const base32 = new Secret({ buffer: Uint8Array.from(secret).buffer }).base32;
  const issuer = encodeURIComponent(totpIssuer);
  return `otpauth://totp/${issuer}:${encodeURIComponent(username)}?secret=${base32}&issuer=${issuer}&algorithm=SHA1&digits=6&period=30`;
}

/** A change of the security page: its audit event, its notice, the audit detail (never a secret). */
export type Change = {
  event: Parameters<Context['audit']['record']>[1]['event'];
  notice: SecurityChange;
  detail?: Record<string, string | number | boolean | null>;
};

/**
 * The audit event of a change, written on `db`: the change's own transaction, so a fault between
 * the two leaves neither (red-team finding 3).
 */
export async function auditChange(
  ctx: Context,
  request: FastifyRequest,
  db: DB,
  accountId: string,
  change: Change,
): Promise<void> {
  await ctx.audit.withDb(db).record(request, {
    event: change.event,
    outcome: 'success',
    accountId,
    ...(change.detail ? { detail: change.detail } : {}),
  });
}

/**
 * The notice of a committed change to every established contact of the account (what changed and
 * when; never a code; services/account-security.ts notifyOwner). `alsoTo`: a removed established
 * contact, told too. A notice that cannot be delivered is logged, not thrown.
 */
export async function noticeChange(
  ctx: Context,
  request: FastifyRequest,
  account: Pick<Account, 'id' | 'email' | 'language'>,
  notice: SecurityChange,
  alsoTo?: NoticeDetails['alsoTo'],
): Promise<void> {
  await notifyOwner(ctx, request, account, 'security-change', {
    change: notice,
    ...(alsoTo ? { alsoTo } : {}),
  });
}
