import {
  type AuthenticatorItem,
  type AuthenticatorType,
  authenticatorsData,
  otpStateData,
  otpStateQuery,
  paths,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { accountContacts, contactView } from '../credentials/contacts.ts';
import type { Account, Contact as ContactRow, Session } from '../db/schema.ts';
import { outcome, sessionExpired } from '../lib/http.ts';
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

// The contact helpers live with the credentials they read (credentials/contacts.ts).
export { accountContacts, contactEnabled, contactLabel, contactView, e164 } from '../credentials/contacts.ts';

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
    codes: {
      [Status.SUCCESS]:
        'successData.authenticators: [{ type }] in the order OTP-SMS, OTP-VOICE, OTP-EMAIL; empty when none is usable',
      [Status.UNAUTHENTICATED]: 'No login transaction with a factor due and no signed-in session (HTTP 401)',
    },
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
    codes: {
      [Status.SUCCESS]:
        "successData: { phone: [{ type: 'TEXT', value: <contact id>, countryCode?, label: '(XXX) XXX-0143', enable }], email: [{ type: 'EMAIL', value: <contact id>, label: 'a****1@example.com', enable }] }",
      [Status.UNAUTHENTICATED]: 'No login transaction with a factor due and no signed-in session (HTTP 401)',
    },
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
