import {
  type CallName,
  type Codes,
  type ConsoleCallName,
  consoleOutcomeTables,
  type DeviceCallName,
  deviceOutcomeTables,
  type OutcomeTable,
  outcomeBuilders,
  outcomeTables,
} from './outcomes.ts';
import { securityPaths } from './security-paths.ts';

/**
 * The outcome tables of the portal's security page (docs/decisions/025-security-page-api.md), in a
 * module of their own: the widget and the portal's login route read outcomes.ts whole (one object),
 * and these nine tables would cost them bytes they never use. The server reads `allOutcomeTables`
 * (every call it serves); the portal's security page imports `securityOutcomeTables` on demand.
 */

const { ok, fail, error, success, incorrectCodeServer } = outcomeBuilders;

/** The security page: the page shows the server's text of a refusal. */
const securityError = error('securityRefused', true);
/** Every security call: the session (401), then the step-up freshness (1412, HTTP 403). */
const securityGuard: Codes = {
  1412: fail('stepUpRequired', error('stepUpRequired'), 403),
  4401: fail('sessionExpired', undefined, 401),
};
/** A code sent or shown for a confirmation (an authenticator app, a new contact). */
const securityConfirmation: Codes = {
  1428: fail('securityCodeNotRecognized', incorrectCodeServer),
  1491: fail('confirmationTriesExhausted', securityError),
  1404: fail('confirmationUnknown', securityError),
};

export const securityOutcomeTables = {
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

export type SecurityCallName = keyof typeof securityOutcomeTables;

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
