import type { ClientAction, Codes, ErrorName, Outcome, Screen } from './outcomes.ts';

/**
 * The building blocks of the outcome tables (outcomes.ts, security-outcomes.ts and each factor's
 * contract file, factors/<key>.ts). A module that reads no table (its imports are types only), so a
 * factor's file can build its tables with them while the tables' modules take the factor's tables
 * into their own.
 */

export const success = { kind: 'SUCCESS' } as const;
export const ok = (message: Outcome['message'], action?: ClientAction): Outcome =>
  action ? { http: 200, message, action } : { http: 200, message };
export const fail = (message: Outcome['message'], action?: ClientAction, http = 200): Outcome =>
  action ? { http, message, failure: true, action } : { http, message, failure: true };
/** A code a spec gives a call that this server does not send (see Outcome.unsent). */
export const unsent = (action: ClientAction, http = 200): Outcome => ({ http, unsent: true, action });
export const noContent: Outcome = { http: 204, action: success };
export const raw: Outcome = { http: 200 };
export const error = (name: ErrorName, server?: true): ClientAction =>
  server ? { kind: 'ERROR', error: name, server } : { kind: 'ERROR', error: name };
export const redirect = (to: Screen, state?: Record<string, unknown>): ClientAction =>
  state ? { kind: 'REDIRECT', to, state } : { kind: 'REDIRECT', to };

/** A second factor the account cannot use (any more): the list of the account's representatives. */
export const toRep = redirect('authenticatorRep');
/** The server's own text of a wrong code or answer, shown on the factor's screen. */
export const incorrectCodeServer = error('incorrectCode', true);
/** No login transaction and no signed-in session: the error screen. */
export const noSession = fail(['sessionExpired'], redirect('error', { reason: 'unauthorized' }), 401);

/** The security page: the page shows the server's text of a refusal. */
export const securityError = error('securityRefused', true);
/** Every security call: the session (401), then the step-up freshness (1412, HTTP 403). */
export const securityGuard: Codes = {
  1412: fail('stepUpRequired', error('stepUpRequired'), 403),
  4401: fail('sessionExpired', undefined, 401),
};
