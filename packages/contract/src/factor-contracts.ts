import * as factors from './factors/index.ts';
import type { OutcomeTable } from './outcomes.ts';

/**
 * What a factor's contract file (factors/<key>.ts, listed in factors/index.ts) may export under
 * these names, each optional; the contract composes them, so a new factor edits no other contract
 * file:
 * - `types`: its AuthenticatorType values (`['PASSKEY'] as const`): part of schemas.ts's
 *   `authenticatorType`;
 * - `outcomeTables`: its sign-in and step-up calls (`as const satisfies Record<string, OutcomeTable>`),
 *   built with outcome-builders.ts: part of outcomes.ts's `outcomeTables`;
 * - `securityOutcomeTables`: its calls of the security page: part of security-outcomes.ts's
 *   `securityOutcomeTables`;
 * - `outcomeDocs`: the one-line doc of each code of each of those calls: part of outcome-docs.ts's
 *   `outcomeDocs` (a call without docs does not typecheck there);
 * - `serverMessages`: the texts its answers name (its group of messages/en.json): part of
 *   server-messages.ts's `serverMessages`;
 * - `paths`: its paths by name, for its server module and its screens (not composed: the tables
 *   carry each call's path).
 * A call name or message key a factor shares with the core or with another factor does not
 * typecheck (the tables) or fails the contract's tests (the texts).
 * A factor file imports, at run time, only modules that do not import this one: zod, fields.ts,
 * outcome-builders.ts, status.ts, security.ts, its catalog; the tables' types with `import type`.
 */
export interface FactorContract {
  readonly types?: readonly string[];
  readonly outcomeTables?: Readonly<Record<string, OutcomeTable>>;
  readonly securityOutcomeTables?: Readonly<Record<string, OutcomeTable>>;
  readonly outcomeDocs?: Readonly<Record<string, Readonly<Record<number, string>>>>;
  readonly serverMessages?: Readonly<Record<string, string>>;
  readonly paths?: Readonly<Record<string, string>>;
}

type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never;
/** The export `K` of each factor of `L`, as a union (never when no factor has it). */
type Part<L, K extends keyof FactorContract> = L[keyof L] extends infer M
  ? M extends { readonly [P in K]: infer T }
    ? T
    : never
  : never;
/** The exports `K` of the factors of `L` as one object type (an empty one when none has it). */
type Joined<L, K extends keyof FactorContract> = [Part<L, K>] extends [never]
  ? Record<never, never>
  : UnionToIntersection<Part<L, K>>;

/** The parts of the factor contracts `list`, each joined into one (what the contract's modules spread in). */
export type ComposedFactors<L> = {
  readonly types: readonly Part<L, 'types'>[number][];
  readonly outcomeTables: Joined<L, 'outcomeTables'>;
  readonly securityOutcomeTables: Joined<L, 'securityOutcomeTables'>;
  readonly outcomeDocs: Joined<L, 'outcomeDocs'>;
  readonly serverMessages: Joined<L, 'serverMessages'>;
};

/**
 * Joins the parts of the factor contracts `list` (by factor key). Throws when two factors give
 * the same type, call or message key: one would silently hide the other.
 */
export function composeFactors<L extends Readonly<Record<string, FactorContract>>>(
  list: L,
): ComposedFactors<L> {
  const contracts: readonly FactorContract[] = Object.values(list);
  const join = (part: Exclude<keyof FactorContract, 'types' | 'paths'>) => {
    const joined: Record<string, unknown> = {};
    for (const contract of contracts) {
      for (const [key, value] of Object.entries(contract[part] ?? {})) {
        if (key in joined) throw new Error(`Two factor contracts give ${part} '${key}'`);
        joined[key] = value;
      }
    }
    return joined;
  };
  const types = contracts.flatMap((contract) => contract.types ?? []);
  const repeated = types.find((type, index) => types.indexOf(type) !== index);
  if (repeated) throw new Error(`Two factor contracts give type '${repeated}'`);
  return {
    types,
    outcomeTables: join('outcomeTables'),
    securityOutcomeTables: join('securityOutcomeTables'),
    outcomeDocs: join('outcomeDocs'),
    serverMessages: join('serverMessages'),
    // The joins above hold exactly the parts the type names (a cast: the joins are untyped).
  } as unknown as ComposedFactors<L>;
}

// Each part typed by its own export only: a factor's tables name message keys of serverMessages,
// which holds the factors' texts, so a type read through the whole factor (FactorContract) would
// refer to itself. The whole factor is checked against FactorContract here instead.
// The join itself is plain (no clash check): it runs in every client's login route, where each
// byte counts; the clash check (composeFactors) runs over the same list in the contract's tests
// and at the identity service's start (factors/registry.ts), so a clash never ships.
const listed: Readonly<Record<string, FactorContract>> = factors;
const contracts = Object.values(listed);
const joinAll = (part: Exclude<keyof FactorContract, 'types' | 'paths'>) =>
  Object.assign({}, ...contracts.map((contract) => contract[part] ?? {}));
const composed = {
  types: contracts.flatMap((contract) => contract.types ?? []),
  outcomeTables: joinAll('outcomeTables'),
  securityOutcomeTables: joinAll('securityOutcomeTables'),
  outcomeDocs: joinAll('outcomeDocs'),
  serverMessages: joinAll('serverMessages'),
} as unknown as ComposedFactors<Record<string, FactorContract>>;
/** The listed factor contracts, for the clash check (composeFactors) of the tests and the service's start. */
export const listedFactorContracts = listed;
type Listed = typeof factors;
/** The factors' AuthenticatorType values (schemas.ts's `authenticatorType` adds them to the core's). */
export const factorTypes = composed.types as ComposedFactors<Listed>['types'];
/** The factors' sign-in and step-up tables (in outcomes.ts's `outcomeTables`). */
export const factorOutcomeTables = composed.outcomeTables as ComposedFactors<Listed>['outcomeTables'];
/** The factors' security page tables (in security-outcomes.ts's `securityOutcomeTables`). */
export const factorSecurityOutcomeTables =
  composed.securityOutcomeTables as ComposedFactors<Listed>['securityOutcomeTables'];
/** The docs of the factors' calls (in outcome-docs.ts's `outcomeDocs`). */
export const factorOutcomeDocs = composed.outcomeDocs as ComposedFactors<Listed>['outcomeDocs'];
/** The factors' server texts (in server-messages.ts's `serverMessages`). */
export const factorServerMessages = composed.serverMessages as ComposedFactors<Listed>['serverMessages'];
