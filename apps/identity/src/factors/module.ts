import type { AuthenticatorItem, AuthenticatorType } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Context } from '../context.ts';
import type { HeldCredentials } from '../credentials/held.ts';
import type { Account } from '../db/schema.ts';
import type { FactorSecurity } from '../security/factor-security.ts';
import type { SettingsSlice } from './settings-kit.ts';

/**
 * A factor's names, one row of the name table (docs/factors.md): the six names one factor goes by.
 * Each but the text group is unique across modules (the registry refuses a clash at start).
 */
export interface FactorNames {
  /** The folder's name under factors/, and the key of its settings (`config.factors[key]`). */
  key: string;
  /** Its AuthenticatorType values, in the order the authenticator list shows them. */
  types: readonly AuthenticatorType[];
  /** The credential store's kinds it owns (credentials/store.ts accepts only declared kinds). */
  credentialKinds: readonly string[];
  /** The widget's routes of its screens. */
  widgetRoutes: readonly string[];
  /** The message-catalog group of its screens' texts (factors may share one: the two app-code factors). */
  textGroup: string;
  /** Its try counter's key in otp_counters, where it has one. */
  counterKey?: string;
  /**
   * The names its wrong codes are held under (factors/holds.ts, decision 033): each a row of
   * factor_holds, its own block counted under `factor:<name>` in otp_counters. None: never held.
   */
  holds?: readonly string[];
  /** The audit events it adds to the core list (audit/audit.ts), e.g. 'push-sent'. */
  auditEvents?: readonly string[];
  /**
   * The contract's operations (call names) of its login and step-up steps: the core's `paths`, or
   * the paths of its own contract file (`@gatehouse/contract/factors/<key>`).
   */
  operations: readonly string[];
}

/**
 * How strong a proof of this factor is, recorded with it in `session_factors` by the engine:
 * `level` 2 for a second factor; `phishingResistant` when the proof is bound to the origin
 * (a WebAuthn credential), never a code a customer could type into another site.
 */
export interface FactorAssurance {
  level: number;
  phishingResistant: boolean;
}

/**
 * One factor for its whole life (docs/decisions/036-factor-modules.md): `factors/<key>/module.ts`
 * exports `factor`, found at start by the registry (registry.ts), which walks the folders as
 * db/migrations.ts walks `migrations/`. Its migrations live in `factors/<key>/migrations/`.
 */
export interface FactorModule {
  names: FactorNames;
  /** Its place in the authenticator list (lower first): the widget opens the first one's screen. */
  rank: number;
  assurance: FactorAssurance;
  /** Its settings slice (`factors/<key>/settings.ts`), composed by config.ts into `config.factors[key]`. */
  settings: SettingsSlice;
  /** Its limits, by setting name, for docs/factors.md and operators. */
  limits(config: Config): Record<string, number>;
  /**
   * The entries this factor adds to an account's authenticator list (none: not usable) for a
   * journey (default LOGIN): a STEPUP offers only established credentials (credential-policy.ts).
   * `held`: the account's credentials, read once for every module's offer (it picks its kinds).
   */
  offer(
    ctx: Context,
    account: Account,
    held: HeldCredentials,
    journey?: 'login' | 'stepup',
  ): AuthenticatorItem[] | Promise<AuthenticatorItem[]>;
  /** Registers its login and step-up steps (send and check routes). */
  routes(app: FastifyInstance, ctx: Context): void | Promise<void>;
  /** What it adds to the portal's security page (enrolment, overview, removal). */
  security?: FactorSecurity;
}
