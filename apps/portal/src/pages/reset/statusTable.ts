import {
  type ClientAction,
  type Codes,
  clientAction,
  coreOutcomeTables,
  passwordUpdateMessages,
} from '@gatehouse/contract/client';
import type { PortalTextKey } from '../../texts.ts';

/** The client actions of the password update's outcome tables (PUT and POST), by code. */
const updateActions = [
  coreOutcomeTables.passwordEnrollmentPut,
  coreOutcomeTables.passwordEnrollmentPost,
].flatMap((table) =>
  Object.entries(table.codes as Codes).flatMap(([code, outcome]) =>
    outcome.action ? [[Number(code), outcome.action] as const] : [],
  ),
);
const codesWhere = (test: (action: ClientAction) => boolean) =>
  new Set(updateActions.filter(([, action]) => test(action)).map(([code]) => code));
const isPolicyText = (error: string): error is keyof typeof passwordUpdateMessages =>
  error in passwordUpdateMessages;

/**
 * Portal spec §8 "Password update", HTTP 400 codes: the catalog text the portal shows for each (in
 * English as the spec quotes them) (the outcome tables name it; 1488 falls through to the 1489 message, as the
 * spec says). Any other 400 code shows the generic message.
 */
export const passwordUpdate400: Record<number, PortalTextKey> = Object.fromEntries(
  updateActions.flatMap(([code, action]) =>
    action.kind === 'ERROR' && isPolicyText(action.error)
      ? [[code, `passwordUpdate.${action.error}` as const]]
      : [],
  ),
);

/**
 * Portal spec §4 "Enrollment call": the user-state code decides the method and the body. The
 * third form (POST with username, old and new password) needs the initial password, which the
 * portal keeps in memory only, for one journey (portal spec §3; never in storage). Without it
 * (a reload, or recovery started from #/username) the form cannot be sent: null, and the screen
 * shows the server's message (docs/decisions/007-portal-recovery.md).
 */
export function enrollmentRequest(
  stateCode: number,
  input: { username: string; newPassword: string; initialPassword?: string },
): { method: 'PUT' | 'POST'; body: Record<string, unknown> } | null {
  const requestBaseInfo = { sessionTokens: {} };
  // The user-state call's outcome table forwards to the PUT, or to the POST with only the password.
  const action = clientAction('passwordStatus', stateCode);
  const forward = action?.kind === 'FORWARD' ? action.call : undefined;
  if (forward === 'passwordEnrollmentPut') {
    return {
      method: 'PUT',
      body: { requestBaseInfo, username: input.username, newPassword: input.newPassword },
    };
  }
  if (forward === 'passwordEnrollmentPost') {
    return { method: 'POST', body: { requestBaseInfo, password: input.newPassword } };
  }
  if (!input.initialPassword) return null;
  return {
    method: 'POST',
    body: {
      requestBaseInfo,
      username: input.username,
      oldPassword: input.initialPassword,
      newPassword: input.newPassword,
    },
  };
}

/** Password-update success statuses (portal spec §8: "success or a second success code"). */
export const updateSuccess = codesWhere((action) => action.kind === 'SUCCESS');
/** Blocked or expired: the support message with 1491. */
export const updateBlocked = codesWhere(
  (action) => action.kind === 'ERROR' && action.error === 'contactSupport',
);
