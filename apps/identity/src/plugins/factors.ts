import {
  type AuthenticatorItem,
  type AuthenticatorType,
  authenticatorsData,
  type Contact,
  otpStateData,
  otpStateQuery,
  paths,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import type { DB } from '../db/database.ts';
import type { Account, Contact as ContactRow, Session } from '../db/schema.ts';
import { outcome, sessionExpired } from '../lib/http.ts';
import { maskEmail, maskPhoneLabel } from '../lib/mask.ts';
import { defineRoute } from '../lib/route.ts';
import { findAccountById } from '../services/accounts.ts';

/**
 * The second factor's common ground: which sessions may run the factor part, which authenticators
 * an account may use, and its contacts as the OTP screens show them (widget spec §2 "Entry to the
 * authenticator area", "OTP contact screen", §3 Contact, §5).
 */

/** The states in which a session may list, send and check second factors. */
const factorStates = new Set(['factor', 'authenticated']);

/**
 * The session of a request that may run the factor part: a login transaction whose second factor
 * is due ('factor', the LOGIN journey) or a signed-in session proving a factor again
 * ('authenticated', STEPUP). Null otherwise.
 */
export async function factorSession(ctx: Context, request: FastifyRequest): Promise<Session | null> {
  const session = await ctx.sessions.load(request.cookies[ctx.cookieNames.session]);
  return session && factorStates.has(session.state) ? session : null;
}

/** The factor session and its (active) account, or the 401 envelope (4401). */
export async function requireFactorSession(
  ctx: Context,
  request: FastifyRequest,
): Promise<{ session: Session; account: Account }> {
  const session = await factorSession(ctx, request);
  const account = session ? await findAccountById(ctx.db, session.account_id) : undefined;
  if (!session || !account) throw sessionExpired();
  await ctx.sessions.touch(session);
  return { session, account };
}

// --- contacts ----------------------------------------------------------------------------------

/** An account's contacts, oldest first. */
export function accountContacts(db: DB, accountId: string): Promise<ContactRow[]> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('added_at')
    .orderBy('id')
    .execute();
}

/** The full number in E.164 form (what the text/voice gateway and the outbox get). */
export function e164(contact: Pick<ContactRow, 'value' | 'country_code'>): string {
  const digits = contact.value.replace(/\D/g, '');
  return `+${contact.country_code?.replace(/\D/g, '') || '1'}${digits}`;
}

/** Usable: added at least CONTACT_WAIT_DAYS ago (widget spec §5: newly added contacts wait). */
export function contactEnabled(ctx: Context, contact: ContactRow): boolean {
  return ctx.clock.now().getTime() - new Date(contact.added_at).getTime() >= ctx.config.factor.contactWaitMs;
}

/** The label a contact is shown with: masked, never the full number or address. */
export function contactLabel(contact: ContactRow): string {
  return contact.kind === 'phone'
    ? maskPhoneLabel(contact.value, contact.country_code)
    : maskEmail(contact.value);
}

/** A contact as the OTP state call gives it: `value` is the contact's id, an opaque handle. */
export function contactView(ctx: Context, contact: ContactRow): Contact {
  return {
    type: contact.kind === 'phone' ? 'TEXT' : 'EMAIL',
    value: contact.id,
    ...(contact.kind === 'phone' && contact.country_code ? { countryCode: contact.country_code } : {}),
    label: contactLabel(contact),
    enable: contactEnabled(ctx, contact),
  };
}

// --- authenticators ------------------------------------------------------------------------------

/**
 * One kind of second factor: what it allows for an account. Extension point: push (PUSH), the
 * token app (TOTPSVIP), the authenticator app (TOTPAUTHN) and the representative (OTP-REP) each add
 * a source to `authenticatorSources` when they land; the list is then put in `authenticatorOrder`.
 */
export type AuthenticatorSource = (
  ctx: Context,
  account: Account,
  contacts: ContactRow[],
) => AuthenticatorItem[] | Promise<AuthenticatorItem[]>;

/** One-time codes: text and voice with a phone (voice only if a phone takes calls), e-mail with an address. */
const otpSource: AuthenticatorSource = (_ctx, _account, contacts) => {
  const phones = contacts.filter((c) => c.kind === 'phone');
  const items: AuthenticatorItem[] = [];
  if (phones.length) items.push({ type: 'OTP-SMS' });
  if (phones.some((p) => p.voice)) items.push({ type: 'OTP-VOICE' });
  if (contacts.some((c) => c.kind === 'email')) items.push({ type: 'OTP-EMAIL' });
  return items;
};

export const authenticatorSources: AuthenticatorSource[] = [otpSource];

/** The order of the list: the widget opens the screen of the first one. */
export const authenticatorOrder: readonly AuthenticatorType[] = [
  'OTP-SMS',
  'OTP-VOICE',
  'OTP-EMAIL',
  'PUSH',
  'TOTPSVIP',
  'TOTPAUTHN',
  'OTP-REP',
];

/**
 * Factors whose widget screen is not built yet (issue 9 point 7): never offered, whatever a source
 * says, so the widget never lands a customer on an empty screen. Remove a type from this set in
 * the change that builds its screen (push, token app, authenticator app).
 */
export const unbuiltFactors: ReadonlySet<AuthenticatorType> = new Set(['PUSH', 'TOTPSVIP', 'TOTPAUTHN']);

/**
 * The authenticators an account may use now, in `authenticatorOrder`. Empty when it has none: the
 * widget then opens its default, the representative page.
 */
export async function allowedAuthenticators(
  ctx: Context,
  account: Account,
  contacts?: ContactRow[],
): Promise<AuthenticatorItem[]> {
  const rows = contacts ?? (await accountContacts(ctx.db, account.id));
  const items: AuthenticatorItem[] = [];
  for (const source of authenticatorSources) items.push(...(await source(ctx, account, rows)));
  const offered = items.filter((item) => !unbuiltFactors.has(item.type));
  const rank = (t: AuthenticatorType) => authenticatorOrder.indexOf(t);
  return offered.sort((a, b) => rank(a.type) - rank(b.type));
}

/** GET authenticators and GET otp/state. */
export async function factorsPlugin(app: FastifyInstance, ctx: Context) {
  defineRoute(app, {
    method: 'GET',
    path: paths.authenticators,
    tag: 'factors',
    summary:
      'The second factors the account may use (login transaction with a factor due, or step-up of a signed-in session).',
    successData: authenticatorsData,
    handler: async ({ request, reply }) => {
      const { account } = await requireFactorSession(ctx, request);
      const authenticators = await allowedAuthenticators(ctx, account);
      return outcome(request, reply, Status.SUCCESS, serverMessages.success, {
        successData: { authenticators },
      });
    },
  });

  defineRoute(app, {
    method: 'GET',
    path: paths.otpState,
    tag: 'factors',
    summary:
      'The phones and e-mail addresses a code can go to: masked labels, opaque ids as values, enable false while a new contact waits.',
    query: otpStateQuery,
    successData: otpStateData,
    handler: async ({ request, reply }) => {
      const { account } = await requireFactorSession(ctx, request);
      const contacts = await accountContacts(ctx.db, account.id);
      const view = (kind: string) => contacts.filter((c) => c.kind === kind).map((c) => contactView(ctx, c));
      return outcome(request, reply, Status.SUCCESS, serverMessages.success, {
        successData: { phone: view('phone'), email: view('email') },
      });
    },
  });
}
