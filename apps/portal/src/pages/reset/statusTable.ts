import { Status } from '@gatehouse/contract/client';

/**
 * Portal spec §8 "Password update", HTTP 400 codes: the message the portal shows for each, as the
 * spec quotes them. 1488 falls through to the 1489 (uppercase) message, as the spec says. Any
 * other 400 code shows the generic message.
 */
export const passwordUpdate400: Record<number, string> = {
  1475: 'Passwords cannot have more than 5 instances of a single number or letter.',
  1472: 'Passwords cannot have more than 5 sequential numbers.',
  1471: 'Password length requirements not met.',
  1491: 'Password does not meet minimum requirements.',
  1487: 'Passwords need at least one number.',
  1488: 'Passwords need at least one uppercase letter.',
  1489: 'Passwords need at least one uppercase letter.',
  1490: 'Passwords need at least one special character.',
  1477: 'Passwords need at least one letter and one number.',
  1486: 'Password is too common.',
  1427: "Passwords cannot contain the user's birth date.",
  1473: "Passwords cannot contain the user's SSN, Tax ID, G number, or username.",
  1474: 'Passwords cannot share more than 5 characters with usernames.',
  1450: 'Your new password cannot match any of your 6 previous passwords. Please try again.',
};

/** Portal spec §4 "Enrollment call": the user-state code decides the method and the body. */
export function enrollmentRequest(
  stateCode: number,
  input: { username: string; newPassword: string; initialPassword: string },
): { method: 'PUT' | 'POST'; body: Record<string, unknown> } {
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
