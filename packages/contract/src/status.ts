/**
 * Status codes carried in `responseBaseInfo.status.code`. Names follow the specs' wording;
 * where a spec is silent the choice is recorded in docs/api.md.
 */
export const Status = {
  SUCCESS: 1200,
  /** Session login: a second factor is still due (portal: "authentication not completed"). */
  AUTH_NOT_COMPLETED: 1201,
  /** Password status (portal spec §4): the password is temporary; the update is a POST with only the password. */
  PASSWORD_TEMPORARY: 1201,
  CALLBACKS_REQUIRED: 1202,
  /** Password authentication: blocked for reset after too many failed attempts. */
  BLOCKED_FOR_RESET: 1203,
  REDIRECT_REP: 1204,
  /**
   * Password authentication: locked because a push was reported as fraud; recovery and a new
   * password unlock it (the spec is silent; 1203 stays the lockout after too many attempts).
   */
  LOCKED_BY_FRAUD: 1206,
  /** Password authentication and status: the password is correct but expired. */
  PASSWORD_EXPIRED: 1205,
  CARRIER_OUTAGE: 1224,
  GUIDELINES_NOT_MET: 1400,
  /** Blocked account (portal), error screen (widget), or no sign-in in progress. */
  BLOCKED: 1401,
  /** Invalid credentials / access prohibited, by call. */
  FORBIDDEN: 1403,
  BIRTH_DATE: 1427,
  INCORRECT_CODE: 1428,
  PASSWORD_REUSED: 1450,
  PASSWORD_LENGTH: 1471,
  PASSWORD_SEQUENTIAL: 1472,
  PASSWORD_PERSONAL_DATA: 1473,
  /** Password update: shares too much with the username. Change username: name taken. */
  SHARES_WITH_USERNAME: 1474,
  USERNAME_TAKEN: 1474,
  PASSWORD_REPEATS: 1475,
  PASSWORD_LETTER_AND_NUMBER: 1477,
  USERNAME_MIN_LENGTH: 1481,
  USERNAME_MAX_LENGTH: 1482,
  USERNAME_NO_ALPHA: 1483,
  USERNAME_INVALID_CHARACTER: 1484,
  USERNAME_GUIDELINES: 1485,
  PASSWORD_TOO_COMMON: 1486,
  PASSWORD_NUMBER: 1487,
  PASSWORD_LOWERCASE: 1488,
  PASSWORD_UPPERCASE: 1489,
  PASSWORD_SPECIAL: 1490,
  /** Send limit reached / minimum requirements not met / blocked, by call. */
  LIMIT_REACHED: 1491,
  TOTP_REDIRECT_REP: 1493,
  /** Push: no such transaction for this caller (unknown and foreign alike). Security page: no such item of this account. */
  UNKNOWN_TRANSACTION: 1404,
  /** Push: the transaction was answered already (a replayed or second answer). */
  ALREADY_ANSWERED: 1409,
  /** Security page: the contact is already on the account. */
  CONTACT_EXISTS: 1409,
  /**
   * Security page: the session has not proved a factor in a STEPUP journey within
   * SECURITY_STEPUP_MINUTES (HTTP 403); the portal hosts the widget's STEPUP journey.
   */
  STEP_UP_REQUIRED: 1412,
  /** Push: the transaction expired before the answer. */
  TRANSACTION_EXPIRED: 1410,
  /** Push: withdrawn before the answer, its sign-in having ended (the account locked). */
  TRANSACTION_WITHDRAWN: 1411,
  /** Password authentication: the account is closed or disabled (shown as incorrect credentials). */
  ACCOUNT_DISABLED: 4000,
  /** Request not valid against the contract schema. */
  BAD_REQUEST: 4400,
  /** No session, or the session expired. */
  UNAUTHENTICATED: 4401,
  /** CSRF token or origin refused. */
  CSRF_REFUSED: 4403,
  NOT_FOUND: 4404,
  RATE_LIMITED: 4429,
  UNKNOWN: 5000,
  UNAVAILABLE: 5003,
} as const;

export const ErrorType = {
  APPLICATION: 'APPLICATION_ERROR',
  SYSTEM: 'SYSTEM_ERROR',
} as const;
export type ErrorTypeValue = (typeof ErrorType)[keyof typeof ErrorType];
