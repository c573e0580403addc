import type { AuthenticatorItem, AuthenticatorType } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Context } from '../context.ts';
import { accountContacts } from '../credentials/contacts.ts';
import type { Account, Contact as ContactRow } from '../db/schema.ts';
import { otpFactor } from './otp/module.ts';
import { pushFactor } from './push/module.ts';
import { repFactor } from './rep/module.ts';
import { tokenFactor } from './token/module.ts';
import { totpFactor } from './totp/module.ts';

/**
 * The factor registry (docs/decisions/008-journeys-as-records.md). A factor is a module that
 * declares its authenticator types, how it is offered (its entries of the authenticator list), its
 * routes (send and check steps, answering from the contract's outcome tables), its limits, and its
 * migrations (a `migrations/` folder beside it). Every factor finishes through the journey engine
 * (engine.ts). Adding a factor is its module, its screen folder in the widget and its migration,
 * plus its line below.
 */
export interface FactorModule {
  /** A name for logs and docs. */
  name: string;
  types: readonly AuthenticatorType[];
  /**
   * The entries this factor adds to an account's authenticator list (none: not usable) for a
   * journey (default LOGIN): a STEPUP offers only established credentials (credential-policy.ts).
   */
  offer(
    ctx: Context,
    account: Account,
    contacts: ContactRow[],
    journey?: 'login' | 'stepup',
  ): AuthenticatorItem[] | Promise<AuthenticatorItem[]>;
  /** Registers its send and check routes. */
  routes(app: FastifyInstance, ctx: Context): void | Promise<void>;
  /** Its limits, by setting name, for docs and operators. */
  limits(config: Config): Record<string, number>;
}

export const factorModules: FactorModule[] = [otpFactor, pushFactor, totpFactor, tokenFactor, repFactor];

/**
 * The order of the list: the widget opens the screen of the first one. The factors bound to a device
 * the customer holds come first (a signed push, then the app codes), the codes sent over the phone
 * network and e-mail after them (NIST SP 800-63B rev. 4 restricts those), the representative last:
 * an account with a push device and an e-mail address is asked for the push, and 'Try another way'
 * leads to the codes (docs/decisions/022-push-and-device.md).
 */
export const authenticatorOrder: readonly AuthenticatorType[] = [
  'PUSH',
  'TOTPAUTHN',
  'TOTPSVIP',
  'OTP-SMS',
  'OTP-VOICE',
  'OTP-EMAIL',
  'OTP-REP',
];

/**
 * Factors whose widget screen is not built yet (issue 9 point 7): never offered, whatever a module
 * says, so the widget never lands a customer on an empty screen. A type leaves this set in the change
 * that builds its screen.
 */
export const unbuiltFactors: ReadonlySet<AuthenticatorType> = new Set<AuthenticatorType>();

/**
 * The authenticators an account may use now, in `authenticatorOrder`. Empty when it has none: the
 * widget then opens its default, the representative page.
 */
export async function allowedAuthenticators(
  ctx: Context,
  account: Account,
  contacts?: ContactRow[],
  journey: 'login' | 'stepup' = 'login',
): Promise<AuthenticatorItem[]> {
  const rows = contacts ?? (await accountContacts(ctx.db, account.id));
  const items: AuthenticatorItem[] = [];
  for (const module of factorModules) items.push(...(await module.offer(ctx, account, rows, journey)));
  const offered = items.filter((item) => !unbuiltFactors.has(item.type));
  const rank = (t: AuthenticatorType) => authenticatorOrder.indexOf(t);
  return offered.sort((a, b) => rank(a.type) - rank(b.type));
}

/**
 * A step-up's authenticators that a recently added credential would have added: offered at sign-in,
 * not for this step-up (credential-policy.ts), so the widget can say why.
 */
export async function recentOnlyAuthenticators(ctx: Context, account: Account): Promise<AuthenticatorType[]> {
  const rows = await accountContacts(ctx.db, account.id);
  const stepUp = new Set((await allowedAuthenticators(ctx, account, rows, 'stepup')).map((a) => a.type));
  const signIn = await allowedAuthenticators(ctx, account, rows, 'login');
  return signIn.map((a) => a.type).filter((t) => !stepUp.has(t));
}
