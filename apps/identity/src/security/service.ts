import {
  appDefaults,
  type SecurityActivityItem,
  type SecurityAppItem,
  type SecurityChange,
  type SecurityEmailItem,
  type SecurityPhoneItem,
  type SignedInSessionItem,
  Status,
  securityActivityKey,
  serverMessages,
  type TrustedBrowserItem,
} from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Secret } from 'otpauth';
import type { Context } from '../context.ts';
import { contactLabel } from '../credentials/contacts.ts';
import type { Credential } from '../credentials/store.ts';
import type { DB } from '../db/database.ts';
import type { Account, Contact, Session } from '../db/schema.ts';
import { ApiError, answer } from '../lib/http.ts';
import { requestLanguage, serverText } from '../lib/language.ts';
import { type NoticeDetails, notifyOwner } from '../services/account-security.ts';
import { deviceKey } from '../services/cookies.ts';
import { requireSession } from '../services/session-guard.ts';
import type { Confirmations } from './confirmations.ts';
import { capGroupOf, capOf, establishedFrom, isEstablished, removal } from './credential-policy.ts';
import { declared, factorOfKind, factorSecurities } from './factor-lookup.ts';
import type { FactorSecurity, SecurityLists } from './factor-security.ts';
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

/** The overview's lists (GET /user/security/overview). */
export async function overview(ctx: Context, request: FastifyRequest, guarded: Guarded) {
  const { account, session } = guarded;
  const now = ctx.clock.now();
  const language = requestLanguage(request);
  const credentials = await ctx.credentials.list(account.id);
  // Each factor writes its entries: under credentials.<key>, and its typed list where it has one.
  const byFactor: Record<string, SecurityAppItem[]> = {};
  let lists: SecurityLists = {};
  for (const { key, credentialKinds, security } of factorSecurities()) {
    const own = credentials.filter((c) => credentialKinds.includes(c.kind));
    const entries = security.overview(ctx, own);
    byFactor[key] = entries.items;
    lists = { ...lists, ...entries.lists };
  }

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
    stepUpEndsInSeconds: Math.max(
      0,
      Math.floor((guarded.stepUpExpiresAt.getTime() - ctx.clock.now().getTime()) / 1000),
    ),
    warningSeconds: Math.round(ctx.config.security.warningMs / 1000),
    authenticators: lists.authenticators ?? [],
    pushDevices: lists.pushDevices ?? [],
    tokens: lists.tokens ?? [],
    phones: lists.phones ?? [],
    emails: lists.emails ?? [],
    credentials: byFactor,
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
        // In the request's language (the page's own): the catalog's line of the event, or `other`.
        description: serverText(language, securityActivityKey(e.event)),
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

/** The account holds the most credentials of this kind's cap group (CREDENTIAL_MAX_*): 1491. */
export function capRefusal(ctx: Context, request: FastifyRequest, reply: FastifyReply, kind: string) {
  const group = capGroupOf(kind);
  const { message } = declared(kind).security.policy.cap;
  request.log.info({ group }, 'security: credential cap reached');
  return answer(request, reply, Status.LIMIT_REACHED, { message, params: [capOf(ctx, group)] });
}

/** A wrong code of a confirmation: 1428, or 1491 for the one that reached the limit. */
export async function wrongCode(
  ctx: Context,
  confirmations: Confirmations,
  request: FastifyRequest,
  reply: FastifyReply,
  guarded: Guarded,
  input: { id: string; tries: number; event: 'security.authenticator-failed' | 'security.contact-failed' },
) {
  const exhausted = input.tries >= ctx.config.security.confirmMaxTries;
  if (exhausted) await confirmations.exhaust(input.id);
  await ctx.audit.record(request, {
    event: input.event,
    outcome: 'failure',
    accountId: guarded.account.id,
    detail: { tries: input.tries, exhausted },
  });
  return answer(request, reply, exhausted ? Status.LIMIT_REACHED : Status.INCORRECT_CODE);
}

/**
 * Removes a credential of the account under its row (two removals cannot both pass the rule).
 * `through`: 'generic' (the page's credentials/remove: any credential whose factor removes through
 * it) or a factor's security part (its own removal route: only its credentials). 1404 when it is
 * not the account's or not removable through this route; 1403 when the credential policy keeps it
 * (credential-policy.ts removal: the last usable or last established second factor, or the
 * factor's own rule). The factor's removal says what is audited, the notice, and who else hears
 * of it. The step-up that opened the page was proved by an established credential (a recent one
 * never satisfies it), so removing an established credential always has an established proof
 * behind it.
 */
export async function removeCredential(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  { account }: Guarded,
  id: string,
  through: 'generic' | FactorSecurity,
) {
  const removable = (c: Credential) => {
    const security = factorOfKind(c.kind)?.security;
    if (!security?.remove) return false;
    return through === 'generic' ? security.remove.route === 'generic' : security === through;
  };
  const outcome = await ctx.sessions.underAccount(account.id, 'update', async (_s, tx) => {
    const store = ctx.credentials.withDb(tx);
    const all = await store.list(account.id);
    const target = all.find((c) => c.id === id && removable(c));
    const remove = target && factorOfKind(target.kind)?.security.remove;
    if (!target || !remove) return { code: Status.UNKNOWN_TRANSACTION } as const;
    const rule = removal(ctx, all, target, account.email);
    if (rule !== 'ok') return { code: Status.FORBIDDEN, message: rule } as const;
    await store.remove(target.id, account.id);
    await auditChange(ctx, request, tx, account.id, {
      event: remove.event,
      notice: remove.notice,
      detail: { kind: target.kind, name: remove.label?.(target) ?? target.name },
    });
    return { code: Status.SUCCESS, notice: remove.notice, told: remove.alsoTo?.(ctx, target) ?? [] } as const;
  });
  if (outcome.code !== Status.SUCCESS) {
    return answer(request, reply, outcome.code, 'message' in outcome ? { message: outcome.message } : {});
  }
  await noticeChange(ctx, request, account, outcome.notice, outcome.told);
  return answer(request, reply, Status.SUCCESS);
}
