import type { passwordUpdateMessages, serverMessages } from './messages.ts';
import { paths } from './paths.ts';
import { Status } from './status.ts';

/**
 * The outcome tables (docs/decisions/015-outcome-tables.md): one per call (method + path), each
 * status code the server can answer -> its HTTP status, its message key (a key of serverMessages)
 * and what the client does with it, in the widget spec's §4 vocabulary. The server answers from
 * these tables (apps/identity/src/lib/http.ts, `answer`), the widget's status tables and the
 * portal's screens read their client side, and docs/api.md and the OpenAPI document are generated
 * from them. Zod-free and without prose, so the browser entry carries it cheaply; the one-line
 * descriptions of the docs are in outcome-docs.ts.
 */

export type ServerMessageKey = keyof typeof serverMessages;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Screens a client action names: the widget's routes of widget spec §2, by their key. */
export type Screen =
  | 'blocked'
  | 'error'
  | 'authenticatorRep'
  | 'authenticatorOtpCode'
  | 'authenticatorSvipSync'
  | 'authenticatorTotpBlock'
  | 'usernameConfirmation';

/** Named errors: the widget shows `error.<name>` of its catalog, the portal its own text. */
export type ErrorName =
  | 'incorrectCredentials'
  | 'incorrectCode'
  | 'contactUnavailable'
  | 'rateLimited'
  | 'usernameGuidelines'
  | 'wrongPassword'
  | 'usernameTaken'
  | 'usernameMinLength'
  | 'usernameMaxLength'
  | 'usernameNoAlpha'
  | 'usernameInvalidCharacter'
  | 'invalidInformation'
  | 'contactSupport'
  | keyof typeof passwordUpdateMessages;

/** Calls an answer forwards to (widget spec §4 session login; portal spec §4 enrollment call). */
export type ForwardCall = 'sessionLogin' | 'passwordEnrollmentPut' | 'passwordEnrollmentPost';

/**
 * What the client does (both specs §4): SUCCESS, FORWARD to a next call, REDIRECT to a screen,
 * FOLLOW the answer's redirectPath, a CUSTOM callback, COMPLETE, or a named ERROR (`server`: show
 * the server's own text).
 */
export type ClientAction =
  | { readonly kind: 'SUCCESS' }
  | { readonly kind: 'FORWARD'; readonly call: ForwardCall }
  | { readonly kind: 'REDIRECT'; readonly to: Screen; readonly state?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'FOLLOW' }
  | { readonly kind: 'CUSTOM'; readonly name: 'callbacks' | 'totpCustom' }
  | { readonly kind: 'COMPLETE' }
  | { readonly kind: 'ERROR'; readonly error: ErrorName; readonly server?: true };

export type Outcome = {
  /** The HTTP status of the answer. 204: no body. */
  readonly http: number;
  /** Only for 4400: the other HTTP status it may have (415, a body that is not JSON). */
  readonly alsoHttp?: readonly number[];
  /** The message (or the messages, the first the default) of serverMessages; none for 204 or a raw body. */
  readonly message?: ServerMessageKey | readonly ServerMessageKey[];
  /** A failure: the envelope also carries errorType and error. */
  readonly failure?: true;
  /** What the client does; absent where no client reads this code. */
  readonly action?: ClientAction;
  /**
   * A code a spec gives this call that this server does not answer (the reason is in the docs):
   * kept so the clients handle it as the spec says; the server may not send it.
   */
  readonly unsent?: true;
};

export type Codes = Readonly<Record<number, Outcome>>;

export type OutcomeTable = {
  readonly method: Method;
  readonly path: string;
  /** envelope (default), raw JSON (health, outbox, the OpenAPI document) or an HTML page. */
  readonly body?: 'raw' | 'html';
  /** A call of a spec this server does not serve yet (docs/decisions/014-unbuilt-factors.md). */
  readonly unserved?: true;
  readonly codes: Codes;
};

// --- building blocks ----------------------------------------------------------------------------
const success = { kind: 'SUCCESS' } as const;
const ok = (message: Outcome['message'], action?: ClientAction): Outcome =>
  action ? { http: 200, message, action } : { http: 200, message };
const fail = (message: Outcome['message'], action?: ClientAction, http = 200): Outcome =>
  action ? { http, message, failure: true, action } : { http, message, failure: true };
const unsent = (action: ClientAction, http = 200): Outcome => ({ http, unsent: true, action });
const noContent: Outcome = { http: 204, action: success };
const raw: Outcome = { http: 200 };
const error = (name: ErrorName, server?: true): ClientAction =>
  server ? { kind: 'ERROR', error: name, server } : { kind: 'ERROR', error: name };
const redirect = (to: Screen, state?: Record<string, unknown>): ClientAction =>
  state ? { kind: 'REDIRECT', to, state } : { kind: 'REDIRECT', to };

/**
 * Answers any call may give (the transport-level refusals of design.md's HTTP policy): every
 * table includes them. A table may list one of these codes again, with the same HTTP status, to
 * add messages or a client action.
 */
export const genericOutcomes: Codes = {
  [Status.BAD_REQUEST]: {
    http: 400,
    alsoHttp: [415],
    message: ['badRequest', 'malformedJson', 'bodyTooLarge', 'unsupportedMediaType'],
    failure: true,
  },
  [Status.UNAUTHENTICATED]: fail('sessionExpired', undefined, 401),
  [Status.CSRF_REFUSED]: fail(['csrfRefused', 'originRefused'], undefined, 403),
  [Status.NOT_FOUND]: fail('notFound', undefined, 404),
  [Status.RATE_LIMITED]: fail('rateLimited', undefined, 429),
  [Status.UNKNOWN]: fail('unknown', undefined, 500),
  [Status.UNAVAILABLE]: fail('unavailable', undefined, 503),
};

const toRep = redirect('authenticatorRep');
const limitToRep = redirect('authenticatorRep', { reason: 'limit' });
const toBlockedReset = redirect('blocked', { reason: 'reset' });
const incorrectCodeServer = error('incorrectCode', true);
const noSession = fail(['sessionExpired'], redirect('error', { reason: 'unauthorized' }), 401);

const otpSend = (sent: Outcome['message'], outage: boolean): Codes => ({
  [Status.SUCCESS]: ok(sent, redirect('authenticatorOtpCode')),
  [Status.CARRIER_OUTAGE]: outage
    ? ok('carrierOutage', redirect('authenticatorOtpCode', { carrierOutage: true }))
    : unsent(redirect('authenticatorOtpCode', { carrierOutage: true })),
  // The contact or channel is not usable (the server says which): shown on the contact screen.
  [Status.FORBIDDEN]: fail(['contactNotUsable', 'factorNotAllowed'], error('contactUnavailable', true)),
  [Status.LIMIT_REACHED]: fail('factorLimitReached', limitToRep),
});

const otpCheck: Codes = {
  [Status.SUCCESS]: ok('factorVerified', success),
  [Status.PASSWORD_EXPIRED]: unsent(incorrectCodeServer),
  [Status.INCORRECT_CODE]: fail('securityCodeNotRecognized', incorrectCodeServer),
  [Status.LIMIT_REACHED]: fail('factorLimitReached', limitToRep),
  [Status.UNAUTHENTICATED]: noSession,
  [Status.BLOCKED]: fail('noLoginInProgress', undefined, 401),
};

/** Portal spec §8 "Password update": the HTTP 400 codes and the texts the portal shows for them. */
const policy = (message: ServerMessageKey, name: keyof typeof passwordUpdateMessages): Outcome =>
  fail(message, error(name), 400);
const enrollment: Codes = {
  [Status.SUCCESS]: ok('passwordChanged', success),
  // Portal spec §8: "success or a second success code"; this server answers 1200 only.
  [Status.AUTH_NOT_COMPLETED]: unsent(success),
  [Status.PASSWORD_LENGTH]: policy('passwordLength', 'passwordLength'),
  [Status.PASSWORD_UPPERCASE]: policy('passwordUppercase', 'passwordUppercase'),
  // The spec's 1488 falls through to the 1489 (uppercase) message.
  [Status.PASSWORD_LOWERCASE]: policy('passwordLowercase', 'passwordUppercase'),
  [Status.PASSWORD_NUMBER]: policy('passwordNumber', 'passwordNumber'),
  [Status.PASSWORD_SPECIAL]: policy('passwordSpecialForbidden', 'passwordNeedsSpecial'),
  [Status.PASSWORD_REPEATS]: policy('passwordRepeats', 'passwordRepeats'),
  [Status.PASSWORD_SEQUENTIAL]: policy('passwordSequential', 'passwordSequential'),
  [Status.PASSWORD_TOO_COMMON]: policy('passwordTooCommon', 'passwordTooCommon'),
  [Status.BIRTH_DATE]: policy('passwordBirthDate', 'passwordBirthDate'),
  [Status.PASSWORD_PERSONAL_DATA]: policy('passwordPersonalData', 'passwordPersonalData'),
  [Status.SHARES_WITH_USERNAME]: policy('passwordSharesWithUsername', 'passwordSharesWithUsername'),
  [Status.PASSWORD_REUSED]: policy('passwordReused', 'passwordReused'),
  [Status.PASSWORD_LETTER_AND_NUMBER]: unsent(error('passwordLetterAndNumber'), 400),
  [Status.FORBIDDEN]: fail('invalidInformation'),
  // Sent with HTTP 200 and the support text (a blocked or closed account); the portal's §8 table
  // gives its HTTP 400 text, which the portal shows when it comes with a 400.
  [Status.LIMIT_REACHED]: fail('contactSupport', error('passwordMinimum')),
  // Portal spec §8: blocked or expired password statuses show the support message with 1491.
  [Status.BLOCKED_FOR_RESET]: unsent(error('contactSupport')),
  [Status.PASSWORD_EXPIRED]: unsent(error('contactSupport')),
  [Status.BLOCKED]: unsent(error('contactSupport')),
  [Status.UNAUTHENTICATED]: fail(['otpConfirmationRequired', 'passwordChangeNeedsFactor'], undefined, 401),
};

const incorrectCredentials = error('incorrectCredentials');

/** Every call of both specs' §7 tables and the service's own, by name. */
export const outcomeTables = {
  passwordAuthentication: {
    method: 'POST',
    path: paths.passwordAuthentication,
    codes: {
      [Status.SUCCESS]: ok('success', { kind: 'FORWARD', call: 'sessionLogin' }),
      // Not in the spec's table: the password is right but expired; session login's callbacks
      // then lead to the expired-password page (docs/decisions/005-widget-texts.md).
      [Status.PASSWORD_EXPIRED]: ok('passwordExpired', { kind: 'FORWARD', call: 'sessionLogin' }),
      [Status.BLOCKED_FOR_RESET]: fail('blockedForReset', toBlockedReset),
      // Widget spec §8 'Security blocked': the error route with the spec's text.
      [Status.BLOCKED]: fail('securityBlocked', redirect('error', { reason: 'securityBlocked' })),
      [Status.FORBIDDEN]: fail('incorrectCredentials', incorrectCredentials),
      [Status.ACCOUNT_DISABLED]: fail('incorrectCredentials', incorrectCredentials),
      [Status.RATE_LIMITED]: fail('rateLimited', error('rateLimited', true), 429),
    },
  },
  sessionLogin: {
    method: 'POST',
    path: paths.sessionLogin,
    codes: {
      [Status.SUCCESS]: ok('authenticated', { kind: 'CUSTOM', name: 'callbacks' }),
      [Status.AUTH_NOT_COMPLETED]: ok('authNotCompleted', { kind: 'CUSTOM', name: 'callbacks' }),
      [Status.CALLBACKS_REQUIRED]: ok('callbacksRequired', { kind: 'CUSTOM', name: 'callbacks' }),
      [Status.BLOCKED]: fail('noLoginInProgress', redirect('error'), 401),
      [Status.FORBIDDEN]: fail(
        ['securityBlocked', 'prohibitedLocation'],
        redirect('blocked', { reason: 'securityBlocked' }),
      ),
    },
  },
  session: {
    method: 'GET',
    path: paths.sessionLogin,
    codes: { [Status.SUCCESS]: ok('authenticated', success) },
  },
  logout: { method: 'DELETE', path: paths.sessionLogout, codes: { [Status.SUCCESS]: noContent } },
  sessionUpdate: { method: 'POST', path: paths.sessionUpdate, codes: { [Status.SUCCESS]: noContent } },
  sessionExtend: { method: 'POST', path: paths.sessionExtend, codes: { [Status.SUCCESS]: noContent } },
  rememberGet: {
    method: 'GET',
    path: paths.rememberUsername,
    codes: { [Status.SUCCESS]: ok(['userIdentified', 'userNotIdentified'], success) },
  },
  rememberPut: {
    method: 'PUT',
    path: paths.rememberUsername,
    codes: {
      [Status.SUCCESS]: ok(['usernameRemembered', 'usernameForgotten'], success),
      [Status.FORBIDDEN]: fail('rememberNeedsSignIn'),
    },
  },
  rememberPost: {
    method: 'POST',
    path: paths.rememberUsername,
    codes: {
      [Status.SUCCESS]: ok('usernameMarkedUsed', success),
      [Status.FORBIDDEN]: fail('rememberNotSaved'),
    },
  },
  changeUsername: {
    method: 'PUT',
    path: paths.changeUsername,
    codes: {
      [Status.SUCCESS]: ok('usernameChanged', redirect('usernameConfirmation')),
      [Status.BLOCKED_FOR_RESET]: fail('blockedForReset', toBlockedReset),
      [Status.GUIDELINES_NOT_MET]: unsent(error('usernameGuidelines')),
      // The server names the rule that failed (for example the 5 shared characters); show its text.
      [Status.USERNAME_GUIDELINES]: fail(
        ['usernameGuidelines', 'usernameSharesWithPassword'],
        error('usernameGuidelines', true),
      ),
      [Status.FORBIDDEN]: fail('incorrectPassword', error('wrongPassword')),
      [Status.USERNAME_TAKEN]: fail('usernameTaken', error('usernameTaken')),
      [Status.USERNAME_MIN_LENGTH]: fail('usernameMinLength', error('usernameMinLength')),
      [Status.USERNAME_MAX_LENGTH]: fail('usernameMaxLength', error('usernameMaxLength')),
      [Status.USERNAME_NO_ALPHA]: fail('usernameNoAlpha', error('usernameNoAlpha')),
      [Status.USERNAME_INVALID_CHARACTER]: fail(
        'usernameInvalidCharacter',
        error('usernameInvalidCharacter'),
      ),
    },
  },
  identifyUsername: {
    method: 'POST',
    path: paths.identifyUsername,
    codes: {
      [Status.SUCCESS]: ok('userIdentified', success),
      [Status.FORBIDDEN]: fail('invalidInformation', error('invalidInformation')),
    },
  },
  attributes: {
    method: 'GET',
    path: paths.identityAttributes,
    codes: {
      [Status.SUCCESS]: ok('success', success),
      [Status.UNAUTHENTICATED]: fail('recoveryNotStarted', undefined, 401),
    },
  },
  authenticators: {
    method: 'GET',
    path: paths.authenticators,
    codes: { [Status.SUCCESS]: ok('success', success) },
  },
  otpState: { method: 'GET', path: paths.otpState, codes: { [Status.SUCCESS]: ok('success', success) } },
  otpSendSms: { method: 'POST', path: paths.otpSms, codes: otpSend('factorCodeSent', true) },
  otpSendVoice: { method: 'POST', path: paths.otpVoice, codes: otpSend('factorCallPlaced', false) },
  otpSendEmail: {
    method: 'POST',
    path: paths.otpEmail,
    codes: {
      ...otpSend(['codeSent', 'factorCodeSent'], false),
      [Status.FORBIDDEN]: fail(
        ['invalidInformation', 'contactNotUsable', 'factorNotAllowed'],
        error('contactUnavailable', true),
      ),
      [Status.LIMIT_REACHED]: fail(['contactSupport', 'factorLimitReached'], limitToRep),
      [Status.UNAUTHENTICATED]: fail(['recoveryNotStarted', 'sessionExpired'], undefined, 401),
    },
  },
  otpCheckSms: { method: 'PUT', path: paths.otpSms, codes: otpCheck },
  otpCheckVoice: { method: 'PUT', path: paths.otpVoice, codes: otpCheck },
  otpCheckEmail: {
    method: 'PUT',
    path: paths.otpEmail,
    codes: {
      ...otpCheck,
      [Status.SUCCESS]: ok(['codeConfirmed', 'factorVerified'], success),
      [Status.INCORRECT_CODE]: fail(['incorrectCode', 'securityCodeNotRecognized'], incorrectCodeServer),
      [Status.LIMIT_REACHED]: fail(['contactSupport', 'factorLimitReached'], limitToRep),
      [Status.UNAUTHENTICATED]: { ...noSession, message: ['recoveryNotStarted', 'sessionExpired'] },
    },
  },
  otpCheckRep: {
    method: 'PUT',
    path: paths.otpRep,
    codes: {
      // No representative console yet: every code is 1428 (docs/api.md).
      [Status.SUCCESS]: unsent(success),
      [Status.PASSWORD_EXPIRED]: unsent(incorrectCodeServer),
      [Status.INCORRECT_CODE]: fail('securityCodeNotRecognized', incorrectCodeServer),
      [Status.LIMIT_REACHED]: unsent(limitToRep),
      [Status.UNAUTHENTICATED]: noSession,
    },
  },
  passwordStatus: {
    method: 'POST',
    path: paths.passwordStatus,
    // Portal spec §4 "Enrollment call": the state decides the update's method and body.
    codes: {
      [Status.SUCCESS]: ok('success', { kind: 'FORWARD', call: 'passwordEnrollmentPut' }),
      [Status.PASSWORD_TEMPORARY]: ok('passwordTemporary', {
        kind: 'FORWARD',
        call: 'passwordEnrollmentPost',
      }),
      [Status.BLOCKED_FOR_RESET]: ok('blockedForReset', { kind: 'FORWARD', call: 'passwordEnrollmentPut' }),
      [Status.PASSWORD_EXPIRED]: ok('passwordExpired', { kind: 'FORWARD', call: 'passwordEnrollmentPut' }),
      [Status.FORBIDDEN]: fail('invalidInformation'),
      [Status.UNAUTHENTICATED]: fail('otpConfirmationRequired', undefined, 401),
    },
  },
  passwordEnrollmentPut: {
    method: 'PUT',
    path: paths.passwordEnrollment,
    codes: enrollment,
  },
  passwordEnrollmentPost: {
    method: 'POST',
    path: paths.passwordEnrollment,
    codes: {
      ...enrollment,
      [Status.FORBIDDEN]: fail(['incorrectCredentials', 'invalidInformation']),
      [Status.BLOCKED_FOR_RESET]: fail('blockedForReset', error('contactSupport')),
    },
  },
  trustedDevice: {
    method: 'POST',
    path: paths.trustedDevice,
    codes: {
      [Status.SUCCESS]: ok(['deviceTrusted', 'deviceNotTrusted'], success),
      [Status.FORBIDDEN]: fail('trustNeedsFactor'),
    },
  },
  clientLogs: { method: 'POST', path: paths.clientLogs, codes: { [Status.SUCCESS]: noContent } },
  health: { method: 'GET', path: paths.health, body: 'raw', codes: { [Status.SUCCESS]: raw } },
  ready: { method: 'GET', path: paths.ready, body: 'raw', codes: { [Status.SUCCESS]: raw } },
  openapi: { method: 'GET', path: paths.openapi, body: 'raw', codes: { [Status.SUCCESS]: raw } },
  apiDocs: { method: 'GET', path: paths.apiDocs, body: 'html', codes: { [Status.SUCCESS]: raw } },
  devOutbox: { method: 'GET', path: paths.devOutbox, body: 'raw', codes: { [Status.SUCCESS]: raw } },

  // Widget spec §7 calls of the factors whose screens and routes are not built yet (decision 014).
  svipStatus: {
    method: 'GET',
    path: paths.svipStatus,
    unserved: true,
    codes: { [Status.SUCCESS]: unsent(success) },
  },
  svipAuthentication: {
    method: 'POST',
    path: paths.svipAuthentication,
    unserved: true,
    codes: {
      [Status.SUCCESS]: unsent(success),
      [Status.INCORRECT_CODE]: unsent(error('incorrectCode')),
      [Status.REDIRECT_REP]: unsent(toRep),
      [Status.LIMIT_REACHED]: unsent(redirect('authenticatorSvipSync')),
    },
  },
  svipSynchronization: {
    method: 'POST',
    path: paths.svipSynchronization,
    unserved: true,
    codes: {
      // Widget spec §4: 'Sync submit follows the server redirect'.
      [Status.SUCCESS]: unsent({ kind: 'FOLLOW' }),
      [Status.INCORRECT_CODE]: unsent(error('incorrectCode')),
      [Status.REDIRECT_REP]: unsent(toRep),
      [Status.TOTP_REDIRECT_REP]: unsent(toRep),
    },
  },
  totpAuthentication: {
    method: 'POST',
    path: paths.totpAuthentication,
    unserved: true,
    codes: {
      [Status.SUCCESS]: unsent(success),
      [Status.AUTH_NOT_COMPLETED]: unsent({ kind: 'CUSTOM', name: 'totpCustom' }),
      [Status.CALLBACKS_REQUIRED]: unsent(toRep),
      [Status.REDIRECT_REP]: unsent(toRep),
      [Status.TOTP_REDIRECT_REP]: unsent(toRep),
      [Status.INCORRECT_CODE]: unsent(error('incorrectCode')),
      [Status.LIMIT_REACHED]: unsent(redirect('authenticatorTotpBlock')),
    },
  },
  pushAuthentication: {
    method: 'POST',
    path: paths.pushAuthentication,
    unserved: true,
    codes: { [Status.SUCCESS]: unsent(success) },
  },
  pushStatus: {
    method: 'POST',
    path: paths.pushStatus,
    unserved: true,
    codes: { [Status.SUCCESS]: unsent(success) },
  },
} as const satisfies Record<string, OutcomeTable>;

export type CallName = keyof typeof outcomeTables;

/** A table's codes with the generic ones it does not list itself. */
export function outcomesOf(table: OutcomeTable): Codes {
  return { ...genericOutcomes, ...table.codes };
}

/** The call of a method and path (relative to API_BASE), or undefined. */
export function callOf(method: string, path: string): CallName | undefined {
  for (const [call, table] of Object.entries(outcomeTables) as Array<[CallName, OutcomeTable]>) {
    if (table.method === method && table.path === path) return call;
  }
  return undefined;
}

/** The client action of a code in a call's table, or undefined when the table maps none. */
export function clientAction(call: CallName, code: number): ClientAction | undefined {
  return (outcomeTables[call].codes as Codes)[code]?.action;
}

/** The messages of an outcome, the default first. */
export const outcomeMessages = (outcome: Outcome): readonly ServerMessageKey[] =>
  outcome.message === undefined
    ? []
    : typeof outcome.message === 'string'
      ? [outcome.message]
      : outcome.message;
