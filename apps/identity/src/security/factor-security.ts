import type {
  SecurityAppItem,
  SecurityChange,
  SecurityOverviewData,
  ServerMessageKey,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Context } from '../context.ts';
import type { Credential } from '../credentials/store.ts';
import type { Contact } from '../db/schema.ts';
import type { Change } from './service.ts';

/**
 * What a factor module declares for the portal's security page and the credential lifecycle
 * (issue 24 point 1; docs/decisions/036-factor-modules.md "The security page through the
 * registry"). The page (security/routes.ts) serves only its own calls: the overview, the generic
 * removal, trusted browsers and sessions. A factor brings its enrolment calls, its entries of the
 * overview and what removing one of its credentials does; the credential policy
 * (credential-policy.ts) reads its cap, its established period and its uses from here, by the
 * credential's kind, never from a list per kind.
 */
export interface FactorSecurity {
  /** What its credentials may do while recent and once established (credential-policy.ts). */
  policy: CredentialPolicyOf;
  /** Its enrolment and confirmation calls on the security page (under /api/user/security). */
  routes?(app: FastifyInstance, ctx: Context): void | Promise<void>;
  /**
   * Its entries of the overview, given the account's credentials of its kinds (oldest first):
   * `items` go under `credentials.<key>` (every factor, a new one with no contract change); `lists`
   * are the typed lists the portal reads for the factors that predate the generic map.
   */
  overview(ctx: Context, credentials: Credential[]): FactorOverview;
  /** Removal of one of its credentials; without it, none of its credentials can be removed on the page. */
  remove?: FactorRemoval;
}

/** The overview's typed lists, each written by the factor it belongs to. */
export type SecurityLists = Partial<
  Pick<SecurityOverviewData, 'authenticators' | 'pushDevices' | 'tokens' | 'phones' | 'emails'>
>;

export type FactorOverview = { items: SecurityAppItem[]; lists?: SecurityLists };

/** The recent/established policy of a factor's credentials (docs/decisions/030-credential-lifecycle.md). */
export interface CredentialPolicyOf {
  /**
   * The most credentials an account may hold: `group` names the count (factors of one group count
   * together, e.g. authenticator apps and tokens are both 'apps'), `max` reads it from the settings,
   * `message` is the refusal's text (1491).
   */
  cap: { group: string; max(config: Config): number; message: ServerMessageKey };
  /** A recent credential already signs in (an app, a token, a device: yes; a phone or address: no). */
  recentSignsIn: boolean;
  /** An established credential may receive recovery codes. */
  recovery: boolean;
  /** How long after it was added a credential becomes established (default CONTACT_WAIT_DAYS). */
  establishedAfterMs?(config: Config): number;
}

/** What removing one of a factor's credentials does; the last-factor rule applies to every factor. */
export interface FactorRemoval {
  /**
   * 'generic': removed through POST /user/security/credentials/remove; 'own': only through the
   * factor's own route (the contacts' /contacts/remove), which calls the same removal.
   */
  route: 'generic' | 'own';
  event: Change['event'];
  notice: Extract<SecurityChange, 'credentialRemoved' | 'contactRemoved'>;
  /** Its name in the audit detail (never a secret; default the credential's name). */
  label?(credential: Credential): string;
  /** A rule of its own, asked before the last-factor rule: 'ok' or the refusal's text (1403). */
  rule?(
    ctx: Context,
    others: ReadonlyArray<Credential>,
    target: Credential,
    accountEmail: string | null,
  ): 'ok' | ServerMessageKey;
  /** Contacts that are no longer the account's but hear of the removal (a removed established address). */
  alsoTo?(ctx: Context, target: Credential): Contact[];
}

/** A factor's security part with its module's names (the registry's, once modules carry it). */
export interface FactorSecurityEntry {
  /** The module key: the overview's `credentials.<key>`. */
  key: string;
  /** The credential kinds its credentials are stored under. */
  credentialKinds: readonly string[];
  security: FactorSecurity;
}
