import { passwordUpdateMessages, Status } from '@gatehouse/contract/client';

/**
 * Portal spec §8 "Password update", HTTP 400 codes: the message the portal shows for each, as the
 * spec quotes them. 1488 falls through to the 1489 (uppercase) message, as the spec says. Any
 * other 400 code shows the generic message.
 */
export const passwordUpdate400: Record<number, string> = {
  1475: passwordUpdateMessages.passwordRepeats,
  1472: passwordUpdateMessages.passwordSequential,
  1471: passwordUpdateMessages.passwordLength,
  1491: passwordUpdateMessages.passwordMinimum,
  1487: passwordUpdateMessages.passwordNumber,
  // The spec's 1488 falls through to the 1489 message.
  1488: passwordUpdateMessages.passwordUppercase,
  1489: passwordUpdateMessages.passwordUppercase,
  1490: passwordUpdateMessages.passwordNeedsSpecial,
  1477: passwordUpdateMessages.passwordLetterAndNumber,
  1486: passwordUpdateMessages.passwordTooCommon,
  1427: passwordUpdateMessages.passwordBirthDate,
  1473: passwordUpdateMessages.passwordPersonalData,
  1474: passwordUpdateMessages.passwordSharesWithUsername,
  1450: passwordUpdateMessages.passwordReused,
};

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
  if (
    stateCode === Status.SUCCESS ||
    stateCode === Status.BLOCKED_FOR_RESET ||
    stateCode === Status.PASSWORD_EXPIRED
  ) {
    return {
      method: 'PUT',
      body: { requestBaseInfo, username: input.username, newPassword: input.newPassword },
    };
  }
  if (stateCode === Status.AUTH_NOT_COMPLETED) {
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
export const updateSuccess = new Set<number>([Status.SUCCESS, Status.AUTH_NOT_COMPLETED]);
/** Blocked or expired: the support message with 1491. */
export const updateBlocked = new Set<number>([
  Status.BLOCKED_FOR_RESET,
  Status.PASSWORD_EXPIRED,
  Status.BLOCKED,
]);
