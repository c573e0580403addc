import { type ClientAction, type Codes, coreOutcomeTables } from '@gatehouse/contract/client';
import type { MessageKey } from '../messages/index.ts';
import { type RoutePath, routes } from '../routes.ts';
import type { CallName } from './calls.ts';

/**
 * Widget spec §4, "Call status mapping": one table per call, status code -> action. The tables
 * are the client side of the contract's outcome tables (packages/contract/src/outcomes.ts), where
 * a reader holds each against the spec line by line; `interpret` reads them.
 */
export type Action =
  | { kind: 'SUCCESS' }
  | { kind: 'FORWARD'; call: CallName }
  | { kind: 'REDIRECT'; to: RoutePath; state?: Record<string, unknown> }
  /** Go where the answer's redirect path says; an answer without a usable one goes to the error route (§7). */
  | { kind: 'FOLLOW' }
  | { kind: 'CUSTOM'; name: 'callbacks' | 'totpCustom' }
  /** A named error; `server` shows the server's own text (it carries a value, e.g. seconds). */
  | { kind: 'ERROR'; message: MessageKey; server?: true };

const success: Action = { kind: 'SUCCESS' };

/** The contract's client action in the widget's terms: a screen becomes its route, an error its catalog key. */
function toAction(action: ClientAction): Action {
  switch (action.kind) {
    case 'REDIRECT':
      return action.state
        ? { kind: 'REDIRECT', to: routes[action.to], state: { ...action.state } }
        : { kind: 'REDIRECT', to: routes[action.to] };
    case 'ERROR':
      return action.server
        ? { kind: 'ERROR', message: `error.${action.error}` as MessageKey, server: true }
        : { kind: 'ERROR', message: `error.${action.error}` as MessageKey };
    case 'FORWARD':
      return { kind: 'FORWARD', call: action.call as CallName };
    default:
      return action;
  }
}

export type StatusTable = Partial<Record<number, Action>>;

/**
 * The client side of a call's outcome table (packages/contract/src/outcomes.ts): code -> action.
 * The core's calls only: a factor whose calls are in its own contract file reads its
 * table in its own screens, so the login route carries none of it (decision 041b).
 */
function tableOf(call: CallName): StatusTable {
  const table: StatusTable = {};
  if (!Object.hasOwn(coreOutcomeTables, call)) return table;
  const codes = coreOutcomeTables[call as keyof typeof coreOutcomeTables].codes as Codes;
  for (const [code, outcome] of Object.entries(codes)) {
    if (outcome.action) table[Number(code)] = toAction(outcome.action);
  }
  return table;
}

const tables = new Map<CallName, StatusTable>();

/** The table of a call of widget spec §7, read from the contract's outcome tables once. */
export function statusTableOf(call: CallName): StatusTable {
  let table = tables.get(call);
  if (!table) {
    table = tableOf(call);
    tables.set(call, table);
  }
  return table;
}

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
export const interpretPush = (status: string): PushAction =>
  Object.hasOwn(pushStates, status) ? (pushStates[status] as PushAction) : 'poll';

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
  const action = statusTableOf(call)[status.code] ?? ignoredFailures[call];
  if (!action) throw new UnmappedStatusError(call, errorType, status.code, status.message);
  return action;
}
