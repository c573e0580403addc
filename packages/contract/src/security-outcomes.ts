import { factorSecurityOutcomeTables } from './factor-contracts.ts';
import { fail, incorrectCodeServer, ok, securityError, securityGuard, success } from './outcome-builders.ts';
import {
  type CallName,
  type Codes,
  type ConsoleCallName,
  consoleOutcomeTables,
  type DeviceCallName,
  deviceOutcomeTables,
  type OutcomeTable,
  outcomeTables,
} from './outcomes.ts';
import { securityPaths } from './security-paths.ts';

/**
 * The outcome tables of the portal's security page (docs/decisions/025-security-page-api.md), in a
 * module of their own: the widget and the portal's login route read outcomes.ts whole (one object),
 * and these nine tables would cost them bytes they never use. The server reads `allOutcomeTables`
 * (every call it serves); the portal's security page imports `coreSecurityOutcomeTables` on demand
 * (a factor's section reads its factor's calls itself, so the page carries no factor's tables).
 */

/** A code sent or shown for a confirmation (an authenticator app, a new contact). */
const securityConfirmation: Codes = {
  1428: fail('securityCodeNotRecognized', incorrectCodeServer),
  1491: fail('confirmationTriesExhausted', securityError),
  1404: fail('confirmationUnknown', securityError),
};

export const coreSecurityOutcomeTables = {
  // Every call needs the signed-in session and a step-up within SECURITY_STEPUP_MINUTES.
  securityOverview: {
    method: 'GET',
    path: securityPaths.securityOverview,
    codes: { 1200: ok('success', success), ...securityGuard },
  },
  securityAuthenticatorEnrollment: {
    method: 'POST',
    path: securityPaths.securityAuthenticatorEnrollment,
    codes: {
      1200: ok('authenticatorEnrollmentStarted', success),
      1491: fail('capApps', securityError),
      ...securityGuard,
    },
  },
  securityAuthenticatorConfirmation: {
    method: 'POST',
    path: securityPaths.securityAuthenticatorConfirmation,
    codes: {
      1200: ok('authenticatorAdded', success),
      ...securityConfirmation,
      1491: fail(['confirmationTriesExhausted', 'capApps'], securityError),
      ...securityGuard,
    },
  },
  securityCredentialRemove: {
    method: 'POST',
    path: securityPaths.securityCredentialRemove,
    codes: {
      1200: ok('credentialRemoved', success),
      1403: fail('lastFactor', securityError),
      1404: fail('securityItemUnknown', securityError),
      ...securityGuard,
    },
  },
  securityContactAdd: {
    method: 'POST',
    path: securityPaths.securityContacts,
    codes: {
      1200: ok('contactCodeSent', success),
      1400: fail(['phoneInvalid', 'emailInvalid', 'phoneNotAccepted'], securityError),
      1491: fail('capContacts', securityError),
      1409: fail('contactExists', securityError),
      ...securityGuard,
    },
  },
  securityContactConfirmation: {
    method: 'POST',
    path: securityPaths.securityContactConfirmation,
    codes: {
      1200: ok('contactAdded', success),
      ...securityConfirmation,
      1491: fail(['confirmationTriesExhausted', 'capContacts'], securityError),
      1409: fail('contactExists', securityError),
      ...securityGuard,
    },
  },
  securityContactRemove: {
    method: 'POST',
    path: securityPaths.securityContactRemove,
    codes: {
      1200: ok('contactRemoved', success),
      1403: fail(['lastFactor', 'lastEmail'], securityError),
      1404: fail('securityItemUnknown', securityError),
      ...securityGuard,
    },
  },
  securityTrustedBrowserRevoke: {
    method: 'POST',
    path: securityPaths.securityTrustedBrowserRevoke,
    codes: {
      1200: ok(['trustedBrowserRevoked', 'trustedBrowsersRevoked'], success),
      1404: fail('securityItemUnknown', securityError),
      ...securityGuard,
    },
  },
  securitySessionEnd: {
    method: 'POST',
    path: securityPaths.securitySessionEnd,
    codes: {
      1200: ok(['sessionEnded', 'otherSessionsEnded'], success),
      1403: fail('currentSessionNotEnded', securityError),
      1404: fail('securityItemUnknown', securityError),
      ...securityGuard,
    },
  },
} as const satisfies Record<string, OutcomeTable>;

/**
 * The security page's calls: the core's and each factor contract's (factors/index.ts). A pure call,
 * as allOutcomeTables: a client reading only coreSecurityOutcomeTables drops it and the factors.
 */
export const securityOutcomeTables: typeof coreSecurityOutcomeTables & typeof factorSecurityOutcomeTables =
  /* @__PURE__ */ Object.assign({}, coreSecurityOutcomeTables, factorSecurityOutcomeTables);
/** A security call name a factor shares with the core does not typecheck. */
export type FactorSecurityCallShadowsCore = keyof typeof coreSecurityOutcomeTables &
  keyof typeof factorSecurityOutcomeTables;
const noShadowedSecurityCall: [FactorSecurityCallShadowsCore] extends [never] ? true : never = true;
void noShadowedSecurityCall;

export type SecurityCallName = keyof typeof securityOutcomeTables;
/** The core's security calls (coreSecurityOutcomeTables): what the portal's generic reader takes. */
export type CoreSecurityCallName = keyof typeof coreSecurityOutcomeTables;

/**
 * Every call the server serves: the widget's and portal's (outcomes.ts), the device app's
 * (deviceOutcomeTables), the security page's and the representative console's (consoleOutcomeTables).
 */
export const allOutcomeTables: typeof outcomeTables &
  typeof deviceOutcomeTables &
  typeof securityOutcomeTables &
  typeof consoleOutcomeTables =
  // A pure call, not an object spread: a bundler drops it (and the tables only it reads) from a
  // client that never reads it, where a spread would be kept for its possible getters.
  /* @__PURE__ */ Object.assign(
    {},
    outcomeTables,
    deviceOutcomeTables,
    securityOutcomeTables,
    consoleOutcomeTables,
  );
export type AnyCallName = CallName | DeviceCallName | SecurityCallName | ConsoleCallName;

/** The call of a method and path (relative to API_BASE) among all tables, or undefined. */
export function anyCallOf(method: string, path: string): AnyCallName | undefined {
  for (const [call, table] of Object.entries(allOutcomeTables) as Array<[AnyCallName, OutcomeTable]>) {
    if (table.method === method && table.path === path) return call;
  }
  return undefined;
}

/** The client action of a code in a security call's table, or undefined when the table maps none. */
export function securityClientAction(call: SecurityCallName, code: number) {
  return (securityOutcomeTables[call].codes as Codes)[code]?.action;
}
