import { Status } from '@gatehouse/contract/client';
import type { MessageKey } from '../messages/index.ts';
import { type RoutePath, routes } from '../routes.ts';
import type { CallName } from './calls.ts';

/**
 * Widget spec §4, "Call status mapping", written as one table per call: status code -> action.
 * A reader can hold each table against the spec line by line; `interpret` reads them.
 */
export type Action =
  | { kind: 'SUCCESS' }
  | { kind: 'FORWARD'; call: CallName }
  | { kind: 'REDIRECT'; to: RoutePath; state?: Record<string, unknown> }
  /** Go where the answer's redirect path says; an answer without a usable one goes to the error route (§7). */
  | { kind: 'FOLLOW' }
  | { kind: 'CUSTOM'; name: 'callbacks' | 'totpCustom' }
  | { kind: 'COMPLETE' }
  /** A named error; `server` shows the server's own text (it carries a value, e.g. seconds). */
  | { kind: 'ERROR'; message: MessageKey; server?: true };

const success: Action = { kind: 'SUCCESS' };
const toRep: Action = { kind: 'REDIRECT', to: routes.authenticatorRep };
/** 1491 on a channel: the representative page, which says why the customer is there. */
const limitToRep: Action = { kind: 'REDIRECT', to: routes.authenticatorRep, state: { reason: 'limit' } };
const toCode: Action = { kind: 'REDIRECT', to: routes.authenticatorOtpCode };
const incorrectCode: Action = { kind: 'ERROR', message: 'error.incorrectCode' };
/** Widget spec §4 OTP flow and §5: a failed code check shows the server's own text. */
const incorrectCodeServer: Action = { kind: 'ERROR', message: 'error.incorrectCode', server: true };
/** Widget spec §8 'Security blocked': the blocked page with the spec's text. */
const securityBlocked = { reason: 'securityBlocked' };
const incorrectCredentials: Action = { kind: 'ERROR', message: 'error.incorrectCredentials' };

const otpSend = {
  [Status.SUCCESS]: toCode,
  // The contact or channel is not usable (the server says which): shown on the contact screen.
  [Status.FORBIDDEN]: { kind: 'ERROR', message: 'error.contactUnavailable', server: true },
  [Status.CARRIER_OUTAGE]: {
    kind: 'REDIRECT',
    to: routes.authenticatorOtpCode,
    state: { carrierOutage: true },
  },
  [Status.LIMIT_REACHED]: limitToRep,
} satisfies StatusTable;

const otpCheck = {
  [Status.SUCCESS]: success,
  [Status.UNAUTHENTICATED]: { kind: 'REDIRECT', to: routes.error, state: { reason: 'unauthorized' } },
  [Status.PASSWORD_EXPIRED]: incorrectCodeServer,
  [Status.INCORRECT_CODE]: incorrectCodeServer,
  [Status.LIMIT_REACHED]: limitToRep,
} satisfies StatusTable;

export type StatusTable = Partial<Record<number, Action>>;

export const statusTables: Record<CallName, StatusTable> = {
  passwordAuthentication: {
    [Status.SUCCESS]: { kind: 'FORWARD', call: 'sessionLogin' },
    // Not in the spec's table: the password is right but expired; session login's callbacks
    // then lead to the expired-password page (docs/decisions/005-widget-texts.md).
    [Status.PASSWORD_EXPIRED]: { kind: 'FORWARD', call: 'sessionLogin' },
    [Status.BLOCKED_FOR_RESET]: { kind: 'REDIRECT', to: routes.blocked, state: { reason: 'reset' } },
    [Status.BLOCKED]: { kind: 'REDIRECT', to: routes.error, state: securityBlocked },
    [Status.FORBIDDEN]: incorrectCredentials,
    [Status.ACCOUNT_DISABLED]: incorrectCredentials,
    [Status.RATE_LIMITED]: { kind: 'ERROR', message: 'error.rateLimited', server: true },
  },
  sessionLogin: {
    [Status.SUCCESS]: { kind: 'CUSTOM', name: 'callbacks' },
    [Status.AUTH_NOT_COMPLETED]: { kind: 'CUSTOM', name: 'callbacks' },
    [Status.CALLBACKS_REQUIRED]: { kind: 'CUSTOM', name: 'callbacks' },
    [Status.BLOCKED]: { kind: 'REDIRECT', to: routes.error },
    [Status.FORBIDDEN]: { kind: 'REDIRECT', to: routes.blocked, state: securityBlocked },
  },
  logout: { [Status.SUCCESS]: success },
  rememberGet: { [Status.SUCCESS]: success },
  rememberPut: { [Status.SUCCESS]: success },
  rememberPost: { [Status.SUCCESS]: success },
  attributes: { [Status.SUCCESS]: success },
  authenticators: { [Status.SUCCESS]: success },
  otpState: { [Status.SUCCESS]: success },
  otpSendSms: otpSend,
  otpSendVoice: otpSend,
  otpSendEmail: otpSend,
  otpCheckSms: otpCheck,
  otpCheckVoice: otpCheck,
  otpCheckEmail: otpCheck,
  otpCheckRep: otpCheck,
  svipStatus: { [Status.SUCCESS]: success },
  svipAuthentication: {
    [Status.SUCCESS]: success,
    [Status.INCORRECT_CODE]: incorrectCode,
    [Status.REDIRECT_REP]: toRep,
    [Status.LIMIT_REACHED]: { kind: 'REDIRECT', to: routes.authenticatorSvipSync },
  },
  svipSynchronization: {
    // Widget spec §4: 'Sync submit follows the server redirect'.
    [Status.SUCCESS]: { kind: 'FOLLOW' },
    [Status.INCORRECT_CODE]: incorrectCode,
    [Status.REDIRECT_REP]: toRep,
    [Status.TOTP_REDIRECT_REP]: toRep,
  },
  totpAuthentication: {
    [Status.SUCCESS]: success,
    [Status.AUTH_NOT_COMPLETED]: { kind: 'CUSTOM', name: 'totpCustom' },
    [Status.CALLBACKS_REQUIRED]: toRep,
    [Status.REDIRECT_REP]: toRep,
    [Status.TOTP_REDIRECT_REP]: toRep,
    [Status.INCORRECT_CODE]: incorrectCode,
    [Status.LIMIT_REACHED]: { kind: 'REDIRECT', to: routes.authenticatorTotpBlock },
  },
  pushAuthentication: { [Status.SUCCESS]: success },
  pushStatus: { [Status.SUCCESS]: success },
  trustedDevice: { [Status.SUCCESS]: success },
  changeUsername: {
    [Status.SUCCESS]: { kind: 'REDIRECT', to: routes.usernameConfirmation },
    [Status.BLOCKED_FOR_RESET]: { kind: 'REDIRECT', to: routes.blocked, state: { reason: 'reset' } },
    [Status.GUIDELINES_NOT_MET]: { kind: 'ERROR', message: 'error.usernameGuidelines' },
    // The server names the rule that failed (for example the 5 shared characters); show its text.
    [Status.USERNAME_GUIDELINES]: { kind: 'ERROR', message: 'error.usernameGuidelines', server: true },
    [Status.FORBIDDEN]: { kind: 'ERROR', message: 'error.wrongPassword' },
    [Status.USERNAME_TAKEN]: { kind: 'ERROR', message: 'error.usernameTaken' },
    [Status.USERNAME_MIN_LENGTH]: { kind: 'ERROR', message: 'error.usernameMinLength' },
    [Status.USERNAME_MAX_LENGTH]: { kind: 'ERROR', message: 'error.usernameMaxLength' },
    [Status.USERNAME_NO_ALPHA]: { kind: 'ERROR', message: 'error.usernameNoAlpha' },
    [Status.USERNAME_INVALID_CHARACTER]: { kind: 'ERROR', message: 'error.usernameInvalidCharacter' },
  },
  sessionUpdate: { [Status.SUCCESS]: success },
  sessionExtend: { [Status.SUCCESS]: success },
  clientLogs: { [Status.SUCCESS]: success },
};

/**
 * Calls whose failure the spec tells the widget to ignore: any status is treated as done
 * (widget spec §4: "A device-binding follow-up call is made; its failure is ignored").
 */
export const ignoredFailures: Partial<Record<CallName, Action>> = {
  trustedDevice: success,
  clientLogs: success,
  sessionUpdate: success,
};

/** Widget spec §4 "Push": what each push status means, as a table like the others. */
export type PushAction = 'continue' | 'poll' | 'denied' | 'failure';
export const pushStates: Record<string, PushAction> = {
  PENDING: 'poll',
  SUCCESS: 'continue',
  COMPLETED_SUCCESSFUL: 'continue',
  DECLINED: 'denied',
  FRAUD: 'denied',
  EXPIRED_PENDING: 'failure',
  EXPIRED_FAILURE: 'failure',
  COMPLETED_FAILURE: 'failure',
};
/** Any other push status keeps polling (spec: "otherwise polling continues"). */
export const interpretPush = (status: string): PushAction => pushStates[status] ?? 'poll';

/** A status the call's table does not list: the error names call, type, code and message. */
export class UnmappedStatusError extends Error {
  override name = 'UnmappedStatusError';
  constructor(
    readonly call: CallName,
    readonly errorType: string,
    readonly code: number,
    readonly serverMessage: string,
  ) {
    super(`Unmapped status for call ${call}: type ${errorType}, code ${code}, message "${serverMessage}"`);
  }
}

export function interpret(
  call: CallName,
  status: { code: number; message: string },
  errorType = 'NONE',
): Action {
  const action = statusTables[call][status.code] ?? ignoredFailures[call];
  if (!action) throw new UnmappedStatusError(call, errorType, status.code, status.message);
  return action;
}
