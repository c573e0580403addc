import type { AuthenticatorItem, Callback } from '@gatehouse/contract/client';
import { factorEntries } from './factors.ts';
import { type RoutePath, routes } from './routes.ts';

/**
 * Widget spec §2 "Entry to the authenticator area": the screen each authenticator type opens, one
 * row a type, from the factors' entries (screens/<key>/entry.ts).
 */
export const authenticatorScreens: Readonly<Partial<Record<AuthenticatorItem['type'], RoutePath>>> =
  Object.fromEntries(factorEntries.flatMap((entry) => Object.entries(entry.opens))) as Partial<
    Record<AuthenticatorItem['type'], RoutePath>
  >;

/**
 * An empty list of authenticators, or one with no type the widget has a screen for, opens the
 * representative page: widget spec §2's default ("The default is the rep page").
 */
const noAuthenticatorScreen: RoutePath = routes.authenticatorRep;

/** The one-time-code channels: the types whose row opens the one-time-code screens. */
export const otpChannelTypes: ReadonlySet<string> = new Set(
  Object.entries(authenticatorScreens)
    .filter(([, to]) => to === routes.authenticatorOtp)
    .map(([type]) => type),
);

const rowOf = <T>(table: Readonly<Partial<Record<string, T>>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/**
 * Where an authenticator list leads: the screen of the first entry that has a row (unknown types
 * are skipped); an empty list, or one with nothing usable, opens the representative page (the
 * spec's default), never an empty factor screen.
 */
export function authenticatorScreen(list: readonly AuthenticatorItem[]): {
  to: RoutePath;
  item?: AuthenticatorItem;
} {
  if (list.length === 0) return { to: noAuthenticatorScreen };
  for (const item of list) {
    const to = rowOf<RoutePath>(authenticatorScreens, item.type);
    if (to) return { to, item };
  }
  return { to: noAuthenticatorScreen };
}

/** A page a callback opens, with the state that page reads. */
export type CallbackScreen = { to: RoutePath; state?: Record<string, unknown> };

/** Widget spec §4, session login: the page each callback opens, keyed `NAME/TYPE`, one row a callback. */
export const callbackScreens: Readonly<
  Partial<Record<`${Callback['name']}/${Callback['type']}`, CallbackScreen>>
> = {
  'PASSWORD/EXPIRED': { to: routes.expired },
  'PASSWORD/SETUP': { to: routes.forcedUpdate },
  'IDENTITY/MAINTENANCE': { to: routes.blocked, state: { reason: 'maintenance' } },
};

/** The page of the first callback that has a row; none: the answer has no page of its own. */
export function callbackScreen(callbacks: readonly Callback[]): CallbackScreen | undefined {
  for (const { name, type } of callbacks) {
    const screen = rowOf<CallbackScreen>(callbackScreens, `${name}/${type}`);
    if (screen) return screen;
  }
  return undefined;
}
