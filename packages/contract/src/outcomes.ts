import { factorOutcomeTables } from './factor-contracts.ts';
import {
  error,
  fail,
  incorrectCodeServer,
  noContent,
  noSession,
  ok,
  raw,
  redirect,
  success,
  toRep,
  unsent,
} from './outcome-builders.ts';
import { consolePaths, paths } from './paths.ts';
import type { passwordUpdateMessages } from './recovery-messages.ts';
import type { serverMessages } from './server-messages.ts';

/**
 * The outcome tables (docs/decisions/015-outcome-tables.md): one per call (method + path), each
 * status code the server can answer -> its HTTP status, its message key (a key of serverMessages)
 * and what the client does with it, in the widget spec's §4 vocabulary. The server answers from
 * these tables (apps/identity/src/lib/http.ts, `answer`), the widget's status tables and the
 * portal's screens read their client side, and docs/api.md and the OpenAPI document are generated
 * from them. Zod-free and without prose, so the browser entry carries it cheaply; the one-line
 * descriptions of the docs are in outcome-docs.ts.
 *
 * Codes are written as numbers, as the specs write them (`1403`, not `Status.FORBIDDEN`): a reader
 * holds a table against the spec's line, and the widget's bundle does not pay for a property
 * access per key. A contract test checks that each is a code of status.ts.
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
  | 'pushLimit'
  | 'pushCannotConfirm'
  /** Security page: the portal hosts the widget's STEPUP journey, then asks again. */
  | 'stepUpRequired'
  /** Security page: a refusal; the page shows the server's text. */
  | 'securityRefused'
  | keyof typeof passwordUpdateMessages;

/** Calls an answer forwards to (widget spec §4 session login; portal spec §4 enrollment call). */
export type ForwardCall = 'sessionLogin' | 'passwordEnrollmentPut' | 'passwordEnrollmentPost';

/**
 * What the client does (both specs §4): SUCCESS, FORWARD to a next call, REDIRECT to a screen,
 * FOLLOW the answer's redirectPath, a CUSTOM callback, or a named ERROR (`server`: show
 * the server's own text).
 */
export type ClientAction =
  | { readonly kind: 'SUCCESS' }
  | { readonly kind: 'FORWARD'; readonly call: ForwardCall }
  | { readonly kind: 'REDIRECT'; readonly to: Screen; readonly state?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'FOLLOW' }
  | { readonly kind: 'CUSTOM'; readonly name: 'callbacks' | 'totpCustom' }
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
  readonly codes: Codes;
};

/**
 * Answers any call may give (the transport-level refusals of design.md's HTTP policy): every
 * table includes them. A table may list one of these codes again, with the same HTTP status, to
 * add messages or a client action.
 */
export const genericOutcomes: Codes = {
  4400: {
    http: 400,
    alsoHttp: [415],
    message: ['badRequest', 'malformedJson', 'bodyTooLarge', 'unsupportedMediaType'],
    failure: true,
  },
  4401: fail('sessionExpired', undefined, 401),
  4403: fail(['csrfRefused', 'originRefused'], undefined, 403),
  4404: fail('notFound', undefined, 404),
  4429: fail(['rateLimited', 'phoneSendLimited'], undefined, 429),
  5000: fail('unknown', undefined, 500),
  5003: fail('unavailable', undefined, 503),
};

const limitToRep = redirect('authenticatorRep', { reason: 'limit' });
const toBlockedReset = redirect('blocked', { reason: 'reset' });
const toFraudLocked = redirect('blocked', { reason: 'fraud' });

const otpSend = (sent: Outcome['message'], outage: boolean): Codes => ({
  1200: ok(sent, redirect('authenticatorOtpCode')),
  1224: outage
    ? ok('carrierOutage', redirect('authenticatorOtpCode', { carrierOutage: true }))
    : unsent(redirect('authenticatorOtpCode', { carrierOutage: true })),
  // The contact or channel is not usable (the server says which): shown on the contact screen.
  1403: fail(['contactNotUsable', 'factorNotAllowed'], error('contactUnavailable', true)),
  // factorHeld: the channel is held after repeated blocks (decision 033).
  1491: fail(['factorLimitReached', 'factorHeld'], limitToRep),
});

const otpCheck: Codes = {
  1200: ok('factorVerified', success),
  1205: unsent(incorrectCodeServer),
  1428: fail('securityCodeNotRecognized', incorrectCodeServer),
  1491: fail(['factorLimitReached', 'factorHeld'], limitToRep),
  4401: noSession,
  1401: fail('noLoginInProgress', undefined, 401),
};

/** Portal spec §8 "Password update": the HTTP 400 codes and the texts the portal shows for them. */
const policy = (message: ServerMessageKey, name: keyof typeof passwordUpdateMessages): Outcome =>
  fail(message, error(name), 400);
const enrollment: Codes = {
  1200: ok('passwordChanged', success),
  // Portal spec §8: "success or a second success code"; this server answers 1200 only.
  1201: unsent(success),
  1471: policy('passwordLength', 'passwordLength'),
  1489: policy('passwordUppercase', 'passwordUppercase'),
  // The spec's 1488 falls through to the 1489 (uppercase) message.
  1488: policy('passwordLowercase', 'passwordUppercase'),
  1487: policy('passwordNumber', 'passwordNumber'),
  1490: policy('passwordSpecialForbidden', 'passwordNeedsSpecial'),
  1475: policy('passwordRepeats', 'passwordRepeats'),
  1472: policy('passwordSequential', 'passwordSequential'),
  1486: policy('passwordTooCommon', 'passwordTooCommon'),
  1427: policy('passwordBirthDate', 'passwordBirthDate'),
  1473: policy('passwordPersonalData', 'passwordPersonalData'),
  1474: policy('passwordSharesWithUsername', 'passwordSharesWithUsername'),
  1450: policy('passwordReused', 'passwordReused'),
  1477: unsent(error('passwordLetterAndNumber'), 400),
  1403: fail('invalidInformation'),
  // Sent with HTTP 200 and the support text (a blocked or closed account); the portal's §8 table
  // gives its HTTP 400 text, which the portal shows when it comes with a 400.
  1491: fail('contactSupport', error('passwordMinimum')),
  // Portal spec §8: blocked or expired password statuses show the support message with 1491.
  1203: unsent(error('contactSupport')),
  1205: unsent(error('contactSupport')),
  1401: unsent(error('contactSupport')),
  4401: fail(['otpConfirmationRequired', 'passwordChangeNeedsFactor'], undefined, 401),
};

const incorrectCredentials = error('incorrectCredentials');

/**
 * The core's calls of both specs' §7 tables and the service's own, by name: what a client reads
 * for the calls of its own screens. A factor's calls are in its contract file (factors/index.ts);
 * its screens read them there, so a login route carries no factor's tables (decision 041b).
 */
export const coreOutcomeTables = {
  passwordAuthentication: {
    method: 'POST',
    path: paths.passwordAuthentication,
    codes: {
      1200: ok('success', { kind: 'FORWARD', call: 'sessionLogin' }),
      // Not in the spec's table: the password is right but expired; session login's callbacks
      // then lead to the expired-password page (docs/decisions/005-widget-texts.md).
      1205: ok('passwordExpired', { kind: 'FORWARD', call: 'sessionLogin' }),
      1203: fail('blockedForReset', toBlockedReset),
      // Not in the spec's table: locked by a push reported as fraud, told apart from the lockout
      // after too many attempts; recovery unlocks it (docs/api.md).
      1206: fail('lockedByFraud', toFraudLocked),
      // Widget spec §8 'Security blocked': the error route with the spec's text.
      1401: fail('securityBlocked', redirect('error', { reason: 'securityBlocked' })),
      1403: fail('incorrectCredentials', incorrectCredentials),
      4000: fail('incorrectCredentials', incorrectCredentials),
      4429: fail('rateLimited', error('rateLimited', true), 429),
    },
  },
  sessionLogin: {
    method: 'POST',
    path: paths.sessionLogin,
    codes: {
      1200: ok('authenticated', { kind: 'CUSTOM', name: 'callbacks' }),
      1201: ok('authNotCompleted', { kind: 'CUSTOM', name: 'callbacks' }),
      1202: ok('callbacksRequired', { kind: 'CUSTOM', name: 'callbacks' }),
      1401: fail('noLoginInProgress', redirect('error'), 401),
      1403: fail(
        ['securityBlocked', 'prohibitedLocation'],
        redirect('blocked', { reason: 'securityBlocked' }),
      ),
    },
  },
  session: {
    method: 'GET',
    path: paths.sessionLogin,
    codes: { 1200: ok('authenticated', success) },
  },
  logout: { method: 'DELETE', path: paths.sessionLogout, codes: { 1200: noContent } },
  sessionUpdate: { method: 'POST', path: paths.sessionUpdate, codes: { 1200: noContent } },
  sessionExtend: { method: 'POST', path: paths.sessionExtend, codes: { 1200: noContent } },
  rememberGet: {
    method: 'GET',
    path: paths.rememberUsername,
    codes: { 1200: ok(['userIdentified', 'userNotIdentified'], success) },
  },
  rememberPut: {
    method: 'PUT',
    path: paths.rememberUsername,
    codes: {
      1200: ok(['usernameRemembered', 'usernameForgotten'], success),
      1403: fail('rememberNeedsSignIn'),
    },
  },
  rememberPost: {
    method: 'POST',
    path: paths.rememberUsername,
    codes: {
      1200: ok('usernameMarkedUsed', success),
      1403: fail('rememberNotSaved'),
    },
  },
  changeUsername: {
    method: 'PUT',
    path: paths.changeUsername,
    codes: {
      1200: ok('usernameChanged', redirect('usernameConfirmation')),
      1203: fail('blockedForReset', toBlockedReset),
      1400: unsent(error('usernameGuidelines')),
      // The server names the rule that failed (for example the 5 shared characters); show its text.
      1485: fail(['usernameGuidelines', 'usernameSharesWithPassword'], error('usernameGuidelines', true)),
      1403: fail('incorrectPassword', error('wrongPassword')),
      1474: fail('usernameTaken', error('usernameTaken')),
      1481: fail('usernameMinLength', error('usernameMinLength')),
      1482: fail('usernameMaxLength', error('usernameMaxLength')),
      1483: fail('usernameNoAlpha', error('usernameNoAlpha')),
      1484: fail('usernameInvalidCharacter', error('usernameInvalidCharacter')),
    },
  },
  identifyUsername: {
    method: 'POST',
    path: paths.identifyUsername,
    codes: {
      1200: ok('userIdentified', success),
      1403: fail('invalidInformation', error('invalidInformation')),
    },
  },
  attributes: {
    method: 'GET',
    path: paths.identityAttributes,
    codes: {
      1200: ok('success', success),
      4401: fail('recoveryNotStarted', undefined, 401),
    },
  },
  authenticators: {
    method: 'GET',
    path: paths.authenticators,
    codes: { 1200: ok('success', success) },
  },
  otpState: { method: 'GET', path: paths.otpState, codes: { 1200: ok('success', success) } },
  otpSendSms: { method: 'POST', path: paths.otpSms, codes: otpSend('factorCodeSent', true) },
  otpSendVoice: { method: 'POST', path: paths.otpVoice, codes: otpSend('factorCallPlaced', false) },
  otpSendEmail: {
    method: 'POST',
    path: paths.otpEmail,
    codes: {
      ...otpSend(['codeSent', 'factorCodeSent'], false),
      1403: fail(
        ['invalidInformation', 'contactNotUsable', 'factorNotAllowed'],
        error('contactUnavailable', true),
      ),
      1491: fail(['contactSupport', 'factorLimitReached', 'factorHeld'], limitToRep),
      4401: fail(['recoveryNotStarted', 'sessionExpired'], undefined, 401),
    },
  },
  otpCheckSms: { method: 'PUT', path: paths.otpSms, codes: otpCheck },
  otpCheckVoice: { method: 'PUT', path: paths.otpVoice, codes: otpCheck },
  otpCheckEmail: {
    method: 'PUT',
    path: paths.otpEmail,
    codes: {
      ...otpCheck,
      1200: ok(['codeConfirmed', 'factorVerified'], success),
      1428: fail(['incorrectCode', 'securityCodeNotRecognized'], incorrectCodeServer),
      1491: fail(['contactSupport', 'factorLimitReached', 'factorHeld'], limitToRep),
      4401: { ...noSession, message: ['recoveryNotStarted', 'sessionExpired'] },
    },
  },
  // Recovery by the channel chosen (portal spec §4 steps 0-6; docs/decisions/043-recovery-channels.md).
  recoverySend: {
    method: 'POST',
    path: paths.recoveryCode,
    codes: {
      1200: ok(['codeSent', 'factorCodeSent', 'factorCallPlaced'], success),
      1403: fail(['invalidInformation', 'recoveryChannelNotAllowed'], error('invalidInformation')),
      1491: fail('contactSupport', error('contactSupport')),
      4401: fail('recoveryNotStarted', undefined, 401),
    },
  },
  recoveryCheck: {
    method: 'PUT',
    path: paths.recoveryCode,
    codes: {
      1200: ok('codeConfirmed', success),
      1403: fail('recoveryChannelNotAllowed', error('invalidInformation')),
      1428: fail('incorrectCode', error('incorrectCode')),
      1491: fail('contactSupport', error('contactSupport')),
      4401: fail('recoveryNotStarted', undefined, 401),
    },
  },
  otpCheckRep: {
    method: 'PUT',
    path: paths.otpRep,
    // The code a representative issued in the console (docs/decisions/028-representative-console.md).
    codes: { ...otpCheck, 1401: fail('noLoginInProgress', undefined, 401) },
  },
  passwordStatus: {
    method: 'POST',
    path: paths.passwordStatus,
    // Portal spec §4 "Enrollment call": the state decides the update's method and body.
    codes: {
      1200: ok('success', { kind: 'FORWARD', call: 'passwordEnrollmentPut' }),
      1201: ok('passwordTemporary', {
        kind: 'FORWARD',
        call: 'passwordEnrollmentPost',
      }),
      1203: ok('blockedForReset', { kind: 'FORWARD', call: 'passwordEnrollmentPut' }),
      1205: ok('passwordExpired', { kind: 'FORWARD', call: 'passwordEnrollmentPut' }),
      1403: fail('invalidInformation'),
      4401: fail('otpConfirmationRequired', undefined, 401),
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
      1403: fail(['incorrectCredentials', 'invalidInformation']),
      1203: fail('blockedForReset', error('contactSupport')),
    },
  },
  trustedDevice: {
    method: 'POST',
    path: paths.trustedDevice,
    codes: {
      1200: ok(['deviceTrusted', 'deviceNotTrusted'], success),
      1403: fail('trustNeedsFactor'),
    },
  },
  clientLogs: { method: 'POST', path: paths.clientLogs, codes: { 1200: noContent } },
  // The device-risk beacon (decision 045): the widget ignores every answer (the step never stops a sign-in).
  riskBeacon: {
    method: 'POST',
    path: paths.deviceRiskBeacon,
    codes: { 1200: noContent, 1401: fail('noLoginInProgress', undefined, 401) },
  },
  health: { method: 'GET', path: paths.health, body: 'raw', codes: { 1200: raw } },
  ready: { method: 'GET', path: paths.ready, body: 'raw', codes: { 1200: raw } },
  live: { method: 'GET', path: paths.live, body: 'raw', codes: { 1200: raw } },
  openapi: { method: 'GET', path: paths.openapi, body: 'raw', codes: { 1200: raw } },
  apiDocs: { method: 'GET', path: paths.apiDocs, body: 'html', codes: { 1200: raw } },
  devOutbox: { method: 'GET', path: paths.devOutbox, body: 'raw', codes: { 1200: raw } },

  // Widget spec §4 "Push states" and the device app's calls (docs/decisions/022-push-and-device.md).
  pushAuthentication: {
    method: 'POST',
    path: paths.pushAuthentication,
    codes: {
      1200: ok('pushSent', success),
      // The push cannot start: the widget shows the limit text without resend (widget spec §4).
      1403: fail(['pushNoDevice', 'factorNotAllowed'], error('pushLimit')),
      1491: fail('pushLimitReached', error('pushLimit')),
      4401: noSession,
    },
  },
  pushStatus: {
    method: 'POST',
    path: paths.pushStatus,
    codes: {
      // successData.status is read through the widget's push table; a redirectPath is followed.
      1200: ok('success', success),
      1404: fail('pushUnknown', error('pushCannotConfirm')),
      4401: noSession,
    },
  },
  // Widget spec §4 "Token flow" and the authenticator-app status mapping (factors/token, factors/totp).
  // The widget's screens: packages/signin/src/screens/app-codes (decision 024).
  svipStatus: {
    method: 'GET',
    path: paths.svipStatus,
    codes: { 1200: ok('success', success), 4401: noSession },
  },
  svipAuthentication: {
    method: 'POST',
    path: paths.svipAuthentication,
    codes: {
      1200: ok('factorVerified', success),
      1428: fail('securityCodeNotRecognized', error('incorrectCode')),
      // factorHeld: held after repeated blocks until a recovery or support; totpBlocked: the
      // account's wrong token codes reached TOKEN_MAX_WRONG_TRIES (decision 033).
      1204: fail(['appCodeUnavailable', 'factorHeld', 'totpBlocked'], toRep),
      // Widget spec §4: at 2 failed submits the user goes to sync.
      1491: fail('tokenSyncRequired', redirect('authenticatorSvipSync')),
      4401: noSession,
    },
  },
  svipSynchronization: {
    method: 'POST',
    path: paths.svipSynchronization,
    codes: {
      // Widget spec §4: 'Sync submit follows the server redirect' (back to the token screen).
      1200: ok('tokenResynced', { kind: 'FOLLOW' }),
      1428: fail('securityCodeNotRecognized', error('incorrectCode')),
      // factorHeld: held after repeated blocks until a recovery or support; totpBlocked: the
      // account's wrong token codes reached TOKEN_MAX_WRONG_TRIES (decision 033).
      1204: fail(['appCodeUnavailable', 'factorHeld', 'totpBlocked'], toRep),
      1493: fail('factorLimitReached', toRep),
      4401: noSession,
    },
  },
  totpAuthentication: {
    method: 'POST',
    path: paths.totpAuthentication,
    codes: {
      1200: ok('factorVerified', success),
      // Widget spec §4 maps these; this server has no custom step or callbacks here (docs/api.md).
      1201: unsent({ kind: 'CUSTOM', name: 'totpCustom' }),
      1202: unsent(toRep),
      // factorHeld: held after repeated blocks until a recovery or support (decision 033).
      1204: fail(['appCodeUnavailable', 'factorHeld'], toRep),
      1493: unsent(toRep),
      1428: fail('securityCodeNotRecognized', error('incorrectCode')),
      1491: fail('totpBlocked', redirect('authenticatorTotpBlock')),
      4401: noSession,
    },
  },
} as const satisfies Record<string, OutcomeTable>;

/**
 * Every call of both specs' §7 tables and the service's own: the core's and each factor contract's
 * sign-in and step-up calls (factors/index.ts). A pure call, as serverMessages: a client that reads
 * only coreOutcomeTables drops it and the factor contracts with it.
 */
export const outcomeTables: typeof coreOutcomeTables & typeof factorOutcomeTables =
  /* @__PURE__ */ Object.assign({}, coreOutcomeTables, factorOutcomeTables);
/** A call name a factor shares with the core does not typecheck (one table would hide the other). */
export type FactorCallShadowsCore = keyof typeof coreOutcomeTables & keyof typeof factorOutcomeTables;
const noShadowedCall: [FactorCallShadowsCore] extends [never] ? true : never = true;
void noShadowedCall;

/**
 * The companion device app's calls (apps/device; docs/decisions/022-push-and-device.md) and the
 * development routes it uses: a table of their own, so the widget and the portal, which read
 * outcomeTables, never carry them. Built by a call marked pure, as the console's below.
 */
export const deviceOutcomeTables = /* @__PURE__ */ deviceTables();

function deviceTables() {
  return {
    devicePushes: {
      method: 'POST',
      path: paths.devicePushes,
      codes: { 1200: ok('success', success), 1403: fail('deviceProofRefused') },
    },
    devicePushAnswer: {
      method: 'POST',
      path: paths.devicePushAnswer,
      codes: {
        1200: ok('pushAnswered', success),
        1403: fail('deviceProofRefused'),
        1404: fail('pushUnknown'),
        1409: fail('pushAlreadyAnswered'),
        1410: fail('pushExpired'),
        // Its sign-in ended before the answer (the account locked): withdrawn, nothing approved.
        1411: fail('pushWithdrawn'),
      },
    },
    deviceStream: {
      method: 'POST',
      path: paths.deviceStream,
      // 200 text/event-stream on success (not an envelope: `raw`); a refused proof answers the envelope.
      body: 'raw',
      codes: { 1200: raw, 1403: fail('deviceProofRefused') },
    },
    deviceRegister: {
      method: 'POST',
      path: paths.deviceRegister,
      codes: {
        1200: ok('deviceRegistered', success),
        1403: fail(['deviceNeedsFactor', 'deviceProofRefused']),
        1491: fail('capPushDevices'),
        4401: fail('sessionExpired', undefined, 401),
      },
    },
    deviceRegistrations: {
      method: 'POST',
      path: paths.deviceRegistrations,
      codes: { 1200: ok('success', success), 1403: fail('deviceProofRefused') },
    },
    deviceRename: {
      method: 'POST',
      path: paths.deviceRename,
      codes: {
        1200: ok('deviceRenamed', success),
        1403: fail('deviceProofRefused'),
        1404: fail('pushUnknown'),
      },
    },
    deviceRemove: {
      method: 'POST',
      path: paths.deviceRemove,
      codes: {
        1200: ok('deviceRemoved', success),
        1403: fail('deviceProofRefused'),
        1404: fail('pushUnknown'),
      },
    },
    devDemoDevices: { method: 'GET', path: paths.devDemoDevices, body: 'raw', codes: { 1200: raw } },
    devDemoTokens: { method: 'GET', path: paths.devDemoTokens, body: 'raw', codes: { 1200: raw } },
    devDemoDeviceClaim: {
      method: 'POST',
      path: paths.devDemoDeviceClaim,
      codes: {
        1200: ok('deviceRegistered', success),
        1403: fail('deviceProofRefused'),
        1404: fail('demoDeviceUnknown'),
      },
    },
  } as const satisfies Record<string, OutcomeTable>;
}

export type DeviceCallName = keyof typeof deviceOutcomeTables;

/**
 * The representative console's calls (apps/console; docs/decisions/028-representative-console.md):
 * a table of their own, so the widget and the portal, which read outcomeTables, never carry them.
 * No client action: the console shows the server's text.
 */
const consoleNoSession = fail(['consoleSignInRequired', 'sessionExpired'], undefined, 401);
const consoleRefused = fail(['consoleNotPermitted', 'consoleOwnAccount', 'consoleStaffAccount']);
export const consoleOutcomeTables = /* @__PURE__ */ consoleTables();

/**
 * The console's tables, built by a call (marked pure above) rather than written as a constant: a
 * bundler drops an unused call whole, where an unused object literal would leave its reads of
 * consolePaths behind, and with them the paths, in the widget's and the portal's login routes.
 */
function consoleTables() {
  return {
    consoleSignIn: {
      method: 'POST',
      path: consolePaths.consoleSession,
      codes: {
        1200: ok('consoleFactorDue'),
        1403: fail('consoleSignInRefused'),
        1491: fail('consoleStaffLocked'),
      },
    },
    consoleFactor: {
      method: 'POST',
      path: consolePaths.consoleFactor,
      codes: {
        1200: ok('consoleSignedIn'),
        1428: fail('consoleCodeRefused'),
        1491: fail('consoleStaffLocked'),
        4401: consoleNoSession,
      },
    },
    consoleSession: {
      method: 'GET',
      path: consolePaths.consoleSession,
      codes: { 1200: ok('consoleSignedIn'), 4401: consoleNoSession },
    },
    consoleSessionExtend: {
      method: 'POST',
      path: consolePaths.consoleSessionExtend,
      codes: { 1200: ok('consoleSessionExtended'), 4401: consoleNoSession },
    },
    consoleSignOut: {
      method: 'DELETE',
      path: consolePaths.consoleSession,
      codes: { 1200: noContent },
    },
    consoleCustomer: {
      method: 'POST',
      path: consolePaths.consoleCustomer,
      codes: {
        1200: ok('consoleCustomerFound'),
        1404: fail('consoleCustomerUnknown'),
        4401: consoleNoSession,
      },
    },
    consoleIssueCode: {
      method: 'POST',
      path: consolePaths.consoleIssueCode,
      codes: {
        1200: ok('consoleCodeIssued'),
        1403: consoleRefused,
        1404: fail('consoleCustomerUnknown'),
        1409: fail('consoleCustomerNotActive'),
        4401: consoleNoSession,
      },
    },
    consoleLift: {
      method: 'POST',
      path: consolePaths.consoleLift,
      codes: {
        1200: ok('consoleLifted'),
        1403: consoleRefused,
        1404: fail('consoleCustomerUnknown'),
        1409: fail('consoleNothingToLift'),
        4401: consoleNoSession,
      },
    },
    consoleAudit: {
      method: 'GET',
      path: consolePaths.consoleAudit,
      codes: { 1200: ok('success'), 1403: fail('consoleNotPermitted'), 4401: consoleNoSession },
    },
  } as const satisfies Record<string, OutcomeTable>;
}

export type ConsoleCallName = keyof typeof consoleOutcomeTables;

export type CallName = keyof typeof outcomeTables;
/** The core's calls (coreOutcomeTables): what the clients' generic readers take. */
export type CoreCallName = keyof typeof coreOutcomeTables;

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

/**
 * The client action of a code in a core call's table, or undefined when the table maps none (a
 * factor's screens read their factor's own table).
 */
export function clientAction(call: CoreCallName, code: number): ClientAction | undefined {
  return (coreOutcomeTables[call].codes as Codes)[code]?.action;
}

/** The messages of an outcome, the default first. */
export const outcomeMessages = (outcome: Outcome): readonly ServerMessageKey[] =>
  outcome.message === undefined
    ? []
    : typeof outcome.message === 'string'
      ? [outcome.message]
      : outcome.message;
