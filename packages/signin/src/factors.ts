import type { AuthenticatorItem, Method } from '@gatehouse/contract/client';
import type { CatalogLoaders } from '@gatehouse/i18n';

/**
 * A factor's part of the widget (docs/decisions/039-widget-factor-registry.md): each folder
 * `screens/<key>/` (the key as the server's factor module, apps/identity/src/factors/<key>/)
 * exports `entry` from its `entry.ts`. The route table, the screen table, the screens' routes, the
 * texts they load and the call table are built from the entries found there; nothing lists a
 * factor by hand. An entry is small and loaded with the login route; its screens load on demand.
 */
export interface FactorEntry {
  /** The folder's name, as the server's module key: 'otp', 'totp'. */
  readonly key: string;
  /** The authenticator types of the contract it proves (AuthenticatorItem['type']). */
  readonly types: readonly AuthenticatorItem['type'][];
  /** Its routes, by the name the code and the contract's outcome tables use: name -> path. */
  readonly routes: Readonly<Record<string, string>>;
  /** The route each of its types opens from the authenticator list: type -> path. */
  readonly opens: Readonly<Partial<Record<AuthenticatorItem['type'], string>>>;
  /**
   * The catalog groups its screens read (messages/<language>.json); its `screens.ts` exports them
   * as `texts`, a glob of the catalogs with this `?groups=` (Vite reads a glob's options as written).
   */
  readonly textGroups: readonly string[];
  /** What it adds to the login screen, which looks the same with or without it. */
  readonly login?: LoginExtension;
}

export type FactorCall = {
  readonly method: Method;
  readonly path: string;
  /** The value of the token type header in a step-up journey (widget spec §4). */
  readonly factor?: string;
};

export type LoginExtension = {
  /** A token appended to the username field's autocomplete ('webauthn': the browser's saved WebAuthn credentials offered). */
  readonly autocomplete?: string;
  /** A hook the login screen calls on every render (rules of hooks: unconditionally, in entry order). */
  readonly useLogin?: (field: { setUsername(name: string): void; language: string }) => void;
};

/**
 * A factor folder's `screens.ts`, fetched on demand with every factor's in the one chunk of the
 * screens off the login route (screens/lazy.ts): its screens; `screenNames`, the screen of each of
 * its entry's routes (route name -> the export's name); `texts`, its catalog groups by language;
 * `calls`, its calls, which join the widget's call table (api/calls.ts) when the chunk loads.
 * The names stay off the login route, whose every byte counts (decision 006).
 */
export type FactorScreens = {
  readonly texts: CatalogLoaders;
  readonly screenNames: Readonly<Record<string, string>>;
  /** Its calls of widget spec §7: name -> method, path, and the factor a step-up header carries. */
  readonly calls?: Readonly<Record<string, FactorCall>>;
} & Readonly<Record<string, unknown>>;

/**
 * The factors' routes by name. Each entry adds its own (`declare module '../../factors.ts'`), so
 * `routes.authenticatorTotp` is typed without a list here.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each factor's entry.ts (declaration merging)
export interface FactorRoutes {}

/** The factors' calls by name, added by each factor's screens.ts as its entry adds its routes. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each factor's entry.ts (declaration merging)
export interface FactorCalls {}

/** Every entry under screens/, in the order of their folders. */
export const factorEntries: readonly FactorEntry[] = Object.values(
  import.meta.glob<FactorEntry>('./screens/*/entry.ts', { eager: true, import: 'entry' }),
);
