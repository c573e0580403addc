import { factorOutcomeDocs } from './factor-contracts.ts';
import type { ConsoleCallName } from './outcomes.ts';
import type { AnyCallName } from './security-outcomes.ts';
import { Status } from './status.ts';

/**
 * The one-line description of each code of each outcome table, for docs/api.md and the OpenAPI
 * document. Kept apart from outcomes.ts so the browser entry does not carry the prose; only the
 * server and the doc generator import it (from '@gatehouse/contract').
 */
export const genericOutcomeDocs: Readonly<Record<number, string>> = {
  [Status.BAD_REQUEST]:
    'The request does not match the contract: a missing field, a wrong type, malformed JSON, a body larger than BODY_LIMIT_BYTES, a NUL character or a lone surrogate, a URL that cannot be decoded (HTTP 415 for a body that is not JSON)',
  [Status.UNAUTHENTICATED]: 'No session, or it ended or expired',
  [Status.CSRF_REFUSED]: 'CSRF token missing or wrong, or a foreign Origin (state-changing calls)',
  [Status.NOT_FOUND]: 'No such endpoint (a wrong method on a known path too)',
  [Status.RATE_LIMITED]: 'Rate limited; Retry-After gives the seconds to wait',
  [Status.UNKNOWN]: 'A fault in the service',
  [Status.UNAVAILABLE]:
    'The database cannot be reached or did not answer in time, a message could not be delivered, or the service is shutting down',
};

const noSession = 'No login transaction with a factor due and no signed-in session (HTTP 401)';
const policy = (what: string) => `HTTP 400: ${what}`;
const sendDocs = {
  [Status.SUCCESS]:
    "Sent: 'We sent the code to (XXX) XXX-0143. It will expire after 30 minutes.' (voice: 'We're calling …'); earlier unused codes of the channel stop working",
  [Status.CARRIER_OUTAGE]:
    "SMS_OUTAGE is set: 'There may be a problem texting a code to your number at this time', ruleData { carrierOutage: true }; the code is still sent",
  [Status.FORBIDDEN]:
    'The contact id is not one of this account, not usable yet (CONTACT_WAIT_DAYS), or not of this channel (voice: a phone that takes calls), or a number of a refused type or range (PHONE_REFUSED_TYPES, PHONE_REFUSED_RANGES); or the channel is not allowed. Nothing is sent',
  [Status.LIMIT_REACHED]:
    'FACTOR_MAX_SENDS sends without a correct code, or FACTOR_MAX_WRONG_TRIES wrong codes, on this channel within FACTOR_LOCKOUT_MINUTES; or the channel is held after FACTOR_BLOCKS_BEFORE_HOLD locks (until a recovery or the console); nothing is sent (the widget goes to the representative page)',
  [Status.RATE_LIMITED]:
    "A limit on texts and calls to this number (PHONE_DESTINATION_HOURLY_MAX, PHONE_DESTINATION_DAILY_MAX, across accounts), its country (PHONE_COUNTRY_DAILY_MAX) or the service (PHONE_DAILY_MAX) is reached: 'We can't send more codes to this phone number right now. …' with Retry-After; nothing is sent",
  [Status.UNAUTHENTICATED]: noSession,
};
const checkDocs = {
  [Status.SUCCESS]:
    'Right code: the session is authenticated under a new ET token (login), or proved the factor again (step-up: steppedUpAt recorded). No redirectPath; the login journey continues with session login. bindDevice true (login only) trusts the device',
  [Status.PASSWORD_EXPIRED]:
    'Not sent: widget spec §4 lists 1205 for a failed code check; this server answers a wrong or expired code with 1428',
  [Status.INCORRECT_CODE]:
    "'Security code not recognized. Try again.' (wrong, expired, replaced or already used)",
  [Status.LIMIT_REACHED]:
    'FACTOR_MAX_WRONG_TRIES wrong codes on this channel (counted per account across resends and restarts): the login transaction ends (step-up: the session stays, the channel is refused); the FACTOR_BLOCKS_BEFORE_HOLD-th such lock within FACTOR_HOLD_WINDOW_HOURS holds the channel until a recovery or the console lifts it, and the owner is told',
  [Status.UNAUTHENTICATED]: noSession,
  [Status.BLOCKED]: 'Another simultaneous request finished this login transaction first (HTTP 401)',
};
const enrollmentDocs = {
  [Status.SUCCESS]: "'Password changed successfully': other sessions end, a lockout is lifted",
  [Status.AUTH_NOT_COMPLETED]:
    "Not sent: portal spec §8's 'second success code'; this server answers 1200 only",
  [Status.PASSWORD_LENGTH]: policy('not 8-20 characters'),
  [Status.PASSWORD_UPPERCASE]: policy('no uppercase letter'),
  [Status.PASSWORD_LOWERCASE]: policy('no lowercase letter'),
  [Status.PASSWORD_NUMBER]: policy('no number'),
  [Status.PASSWORD_SPECIAL]: policy('contains a special character (forbidden by our policy)'),
  [Status.PASSWORD_REPEATS]: policy('more than 5 of one character in a row'),
  [Status.PASSWORD_SEQUENTIAL]: policy('5 or more sequential digits'),
  [Status.PASSWORD_TOO_COMMON]: policy('on the common-password list'),
  [Status.BIRTH_DATE]: policy('contains the birth date'),
  [Status.PASSWORD_PERSONAL_DATA]: policy('contains the SSN / tax id or the username'),
  [Status.SHARES_WITH_USERNAME]: policy('shares 5 or more consecutive characters with the username'),
  [Status.PASSWORD_REUSED]: policy('matches the current or one of the 6 previous passwords'),
  [Status.PASSWORD_LETTER_AND_NUMBER]:
    'Not sent: portal spec §8 lists it; our policy checks upper case, lower case and digits one by one (1489, 1488, 1487)',
  [Status.FORBIDDEN]: "The username given is not the flow's",
  [Status.LIMIT_REACHED]:
    "The account is blocked for security reasons or closed: 'Please contact {email} for assistance (status code 1491).' (the portal's §8 text for a 1491 with HTTP 400 is 'Password does not meet minimum requirements.')",
  [Status.BLOCKED_FOR_RESET]:
    "Not sent by PUT: portal spec §8's blocked status (the portal shows the support message)",
  [Status.PASSWORD_EXPIRED]:
    "Not sent: portal spec §8's expired status (the portal shows the support message)",
  [Status.BLOCKED]: "Not sent: portal spec §8's blocked status (the portal shows the support message)",
  [Status.UNAUTHENTICATED]:
    "No recovery flow with a confirmed code: 'Cannot access this page without OTP confirmation' (HTTP 401)",
};

const securityGuardDocs = {
  [Status.STEP_UP_REQUIRED]:
    "HTTP 403: the session has not proved a factor in a STEPUP journey (a trusted device never counts) within SECURITY_STEPUP_MINUTES: 'Please verify your identity to continue.' The portal hosts the widget's STEPUP journey, then asks again",
  [Status.UNAUTHENTICATED]: 'No signed-in session, or it ended or expired (HTTP 401)',
};
const securityRateDoc =
  'More than SECURITY_RATE_MAX enrollments, contact adds and confirmations a minute for the account (HTTP 429, Retry-After)';
const securityItemUnknownDoc = 'No such item of this account (an id of another account alike)';
const securityConfirmationDocs = {
  [Status.INCORRECT_CODE]:
    "'Security code not recognized. Try again.': wrong (counted atomically; SECURITY_CONFIRM_MAX_TRIES wrong codes end the request), or a time step already used",
  [Status.LIMIT_REACHED]:
    'The wrong code that reached SECURITY_CONFIRM_MAX_TRIES: the request ends (start again)',
  [Status.UNKNOWN_TRANSACTION]:
    'Unknown, expired, finished, or ended by too many wrong codes (an id of another session alike)',
};

export const outcomeDocs: Readonly<
  Record<Exclude<AnyCallName, ConsoleCallName>, Readonly<Record<number, string>>>
> = {
  passwordAuthentication: {
    [Status.SUCCESS]:
      'Password correct: the login transaction starts (new ET cookie, new XSRF-TOKEN); continue with session login',
    [Status.PASSWORD_EXPIRED]:
      'Password correct but expired: the login transaction starts; session login returns the callbacks',
    [Status.BLOCKED_FOR_RESET]:
      'Locked after too many failed attempts: the password must be reset. Told only to the right password, and to the attempt that reaches LOGIN_LOCKOUT_FAILURES',
    [Status.LOCKED_BY_FRAUD]:
      'Locked because a push to the account was reported as fraud (PUSH_FRAUD_LOCKS_ACCOUNT): recovery and a new password unlock it. Told only to the right password',
    [Status.BLOCKED]: "Blocked for security reasons (right password only), with redirectPath '/blocked'",
    [Status.FORBIDDEN]:
      'Incorrect username or password (the same answer for an unknown username, and for a locked, blocked or closed account with a wrong password)',
    [Status.ACCOUNT_DISABLED]:
      'The account is closed (right password only; shown as incorrect username or password)',
    [Status.RATE_LIMITED]: 'Rate limited per client address and per account (Retry-After)',
  },
  sessionLogin: {
    [Status.SUCCESS]:
      'Signed in (no callbacks): a new ET token, a new XSRF-TOKEN, SESSION_SCTX when there is a context; successData { username, displayName, authenticated: true, context? }',
    [Status.AUTH_NOT_COMPLETED]:
      'A second factor is due: successData.authenticators lists the allowed ones (OTP-SMS, OTP-VOICE, OTP-EMAIL in that order; empty when the account has no usable contact). A device trusted for the account skips this (1200)',
    [Status.CALLBACKS_REQUIRED]:
      'callbacks say what must happen first (PASSWORD/EXPIRED, PASSWORD/SETUP, IDENTITY/MAINTENANCE)',
    [Status.BLOCKED]: 'No login transaction in progress, or a simultaneous request completed it (HTTP 401)',
    [Status.FORBIDDEN]:
      "The account was blocked or locked since the password step; or a prohibited location (account flag or PROHIBITED_NETWORKS): redirectPath '/prohibited', \"You can't access this website right now\". The transaction ends",
  },
  session: {
    [Status.SUCCESS]:
      'Signed in: successData { authenticated, username, displayName, signedInAt, idleExpiresAt, absoluteExpiresAt, steppedUpAt? }; counts as activity',
  },
  logout: {
    [Status.SUCCESS]:
      'HTTP 204: the session ends on the server and its cookies are cleared (also without a session)',
  },
  sessionUpdate: { [Status.SUCCESS]: 'HTTP 204: activity and the host context recorded' },
  sessionExtend: {
    [Status.SUCCESS]: 'HTTP 204: the idle limit moves forward (never past the absolute limit)',
  },
  rememberGet: {
    [Status.SUCCESS]:
      "'User Identified' with successData.usernames when the device has saved usernames, else 'User Not Identified' and an empty list",
  },
  rememberPut: {
    [Status.SUCCESS]: 'Saved (ADD) or not saved any more (DELETE, also when it was not saved)',
    [Status.FORBIDDEN]:
      'ADD without a live session (login transaction or signed in) of the account with that username',
  },
  rememberPost: {
    [Status.SUCCESS]: 'The saved username is now first',
    [Status.FORBIDDEN]: 'This device has no such saved username',
  },
  changeUsername: {
    [Status.SUCCESS]: 'Changed: successData.username is the new username ("You\'ve changed your username")',
    [Status.BLOCKED_FOR_RESET]:
      'Too many wrong passwords: the account is locked and its sessions end (as password authentication)',
    [Status.GUIDELINES_NOT_MET]:
      'Not sent: widget spec §4 lists 1400 for guidelines not met; this server names the rule (1481-1485)',
    [Status.USERNAME_GUIDELINES]:
      'A run of repeated or sequential characters, or more than 5 consecutive characters shared with the password',
    [Status.FORBIDDEN]: 'Incorrect password (the current password is wrong; counts toward the lockout)',
    [Status.USERNAME_TAKEN]: 'The username is taken (by another account, or it is the current one)',
    [Status.USERNAME_MIN_LENGTH]: 'Fewer than 8 characters',
    [Status.USERNAME_MAX_LENGTH]: 'More than 15 characters',
    [Status.USERNAME_NO_ALPHA]: '9-11 characters with fewer than 2 letters',
    [Status.USERNAME_INVALID_CHARACTER]: 'A character other than a letter or digit',
  },
  identifyUsername: {
    [Status.SUCCESS]: "A known username: 'User Identified'; a flow starts (a new GH_RECOVERY)",
    [Status.FORBIDDEN]:
      "Unknown (or closed) username: 'The information provided is invalid. Please try again.' (a flow row without an account is made all the same)",
  },
  attributes: {
    [Status.SUCCESS]:
      "successData.email (and .phone when asked): masked values, never the full address; .deliveries when asked in a recovery flow: the options of RECOVERY_CHANNELS the account has an established contact for (REP always), e.g. ['EMAIL', 'TEXT', 'CALL', 'REP']",
    [Status.UNAUTHENTICATED]: 'No recovery flow of a known user and no session (HTTP 401)',
  },
  authenticators: {
    [Status.SUCCESS]:
      'successData.authenticators: [{ type }] in the order OTP-SMS, OTP-VOICE, OTP-EMAIL; empty when none is usable',
  },
  otpState: {
    [Status.SUCCESS]:
      "successData: { phone: [{ type: 'TEXT', value: <contact id>, countryCode?, label: '(XXX) XXX-0143', enable }], email: [{ type: 'EMAIL', value: <contact id>, label: 'a****1@example.com', enable }] }",
  },
  otpSendSms: sendDocs,
  otpSendVoice: {
    ...sendDocs,
    [Status.CARRIER_OUTAGE]:
      'Not sent: the widget handles 1224 on every send (widget spec §4); only a text reports the carrier outage',
  },
  otpSendEmail: {
    ...sendDocs,
    [Status.SUCCESS]:
      "Recovery: sent to the matching address on file ('A validation code has been emailed to you. …'). Second factor: 'We sent the code to a****1@example.com. It will expire after 30 minutes.'",
    [Status.CARRIER_OUTAGE]:
      'Not sent: the widget handles 1224 on every send (widget spec §4); only a text reports the carrier outage',
    [Status.FORBIDDEN]:
      'Recovery: the address given matches none on file. Second factor: not a usable e-mail contact of this account, or e-mail not allowed. Nothing is sent',
    [Status.LIMIT_REACHED]:
      "Recovery: this send would be the 4th without a code entered (the recovery channel is locked for RECOVERY_LOCK_MINUTES and the owner is told; sign-in is untouched), or recovery is locked, or the account is blocked: 'Please contact {email} for assistance (status code 1491).' Second factor: FACTOR_MAX_SENDS or FACTOR_MAX_WRONG_TRIES reached on e-mail",
    [Status.UNAUTHENTICATED]: 'No recovery flow of a known user and no session (HTTP 401)',
  },
  otpCheckSms: checkDocs,
  otpCheckVoice: checkDocs,
  otpCheckEmail: {
    ...checkDocs,
    [Status.SUCCESS]:
      'Recovery: the code is right, the flow is confirmed (the password may be reset). Second factor: as for text and voice (a new ET token; no redirectPath)',
    [Status.INCORRECT_CODE]:
      "Recovery: 'Your one-time code is invalid. Please try again or request a new code.' Second factor: 'Security code not recognized. Try again.' (wrong, expired, replaced or already used)",
    [Status.LIMIT_REACHED]:
      'Recovery: too many wrong codes for the account (OTP_MAX_WRONG_TRIES, counted across resends): the flow ends and the recovery channel is locked for RECOVERY_LOCK_MINUTES; or recovery is locked, or the account is blocked. Second factor: as for text and voice',
    [Status.UNAUTHENTICATED]:
      'No recovery flow of a known user, and no session whose factor is due (HTTP 401)',
  },
  recoverySend: {
    [Status.SUCCESS]:
      "Sent to the established contact on file whose masked value was given: EMAIL 'A validation code has been emailed to you. …', TEXT 'We sent the code to (XXX) XXX-0143. …', CALL 'We're calling (XXX) XXX-0143 with the code. …'; every other established contact is told",
    [Status.FORBIDDEN]:
      'The masked contact matches no established contact of that kind, or the delivery option is not in RECOVERY_CHANNELS. Nothing is sent',
    [Status.LIMIT_REACHED]:
      "The send would be the (OTP_SENDS_BEFORE_BLOCK + 1)-th without a code entered, on any recovery channel (recovery is locked for RECOVERY_LOCK_MINUTES and the owner told; sign-in is untouched), or recovery is locked, or the account is blocked: 'Please contact {email} for assistance (status code 1491).'",
    [Status.UNAUTHENTICATED]: 'No recovery flow of a known user (HTTP 401)',
  },
  recoveryCheck: {
    [Status.SUCCESS]: 'The code is right: the flow is confirmed (the password may be reset)',
    [Status.FORBIDDEN]: 'The delivery option is not in RECOVERY_CHANNELS',
    [Status.INCORRECT_CODE]:
      "'Your one-time code is invalid. Please try again or request a new code.' (wrong, expired, replaced, used, or no code sent or issued)",
    [Status.LIMIT_REACHED]:
      'OTP_MAX_WRONG_TRIES wrong codes for the account across every recovery channel: the flow ends and recovery is locked for RECOVERY_LOCK_MINUTES; or recovery is locked, or the account is blocked',
    [Status.UNAUTHENTICATED]: 'No recovery flow of a known user (HTTP 401)',
  },
  otpCheckRep: {
    ...checkDocs,
    [Status.SUCCESS]:
      'The temporary security code a representative issued for this account in the console (REP_CODE_MINUTES, single use): signed in (login) or proved again (step-up), as with any factor',
    [Status.INCORRECT_CODE]:
      "'Security code not recognized. Try again.' (wrong, expired, replaced, used, or issued for another customer): counted as a wrong try",
    [Status.LIMIT_REACHED]:
      'FACTOR_MAX_WRONG_TRIES wrong codes (per account): refused for FACTOR_LOCKOUT_MINUTES; the login transaction ends',
  },
  passwordStatus: {
    [Status.SUCCESS]: 'Normal: the update is a PUT',
    [Status.PASSWORD_TEMPORARY]: 'Temporary password: the update is a POST with only the password (CREATE)',
    [Status.BLOCKED_FOR_RESET]: 'Locked (too many failed sign-ins) or blocked: the update is a PUT',
    [Status.PASSWORD_EXPIRED]: 'Expired: the update is a PUT',
    [Status.FORBIDDEN]: "The username given is not the flow's or the session's",
    [Status.UNAUTHENTICATED]:
      "Neither a confirmed recovery flow nor a session: 'Cannot access this page without OTP confirmation' (HTTP 401)",
  },
  passwordEnrollmentPut: enrollmentDocs,
  passwordEnrollmentPost: {
    ...enrollmentDocs,
    [Status.FORBIDDEN]:
      "Old password wrong or unknown username (counted as a failed sign-in), or the username is not the flow's",
    [Status.BLOCKED_FOR_RESET]:
      'The wrong old password reached the lockout (the portal shows the support message)',
    [Status.UNAUTHENTICATED]:
      '{ password } without a confirmed recovery flow; or the old-password form for an account with a second factor and a current password, from a browser not signed in with that factor (HTTP 401)',
    [Status.RATE_LIMITED]: 'Old-password attempts count against the sign-in rate limits (HTTP 429)',
  },
  trustedDevice: {
    [Status.SUCCESS]:
      "bindDevice true: 'This device is trusted.', successData { trusted: true, expiresAt }; false: 'This device is not trusted.', successData { trusted: false }",
    [Status.FORBIDDEN]:
      'bindDevice true from a session that did not pass a one-time-code factor at sign-in (step-up, a trusted device, no factor due), or without a device cookie; nothing is bound',
  },
  clientLogs: {
    [Status.SUCCESS]: 'HTTP 204: each entry is written to the server log, cleaned',
    [Status.BAD_REQUEST]: 'Not valid, too many entries, or a body too large (HTTP 400)',
    [Status.RATE_LIMITED]: 'More than CLIENT_LOG_RATE_MAX requests a minute from this client (HTTP 429)',
  },
  riskBeacon: {
    [Status.SUCCESS]:
      "HTTP 204: the signals are recorded on this browser's login journey (the latest replaces the last)",
    [Status.BAD_REQUEST]: 'Not valid against the contract schema, or a body over 2048 bytes (HTTP 400)',
    [Status.BLOCKED]: 'No login journey of this browser is in progress (HTTP 401)',
    [Status.NOT_FOUND]: 'The device-risk step is off (RISK_SCRIPT_URL unset): HTTP 404',
    [Status.RATE_LIMITED]: 'More than RISK_BEACON_RATE_MAX requests a minute from this client (HTTP 429)',
  },
  health: { [Status.SUCCESS]: '{"status":"ok"} (no envelope) while the process runs' },
  ready: {
    [Status.SUCCESS]: '{"status":"ok"} (no envelope) when the database answers within DB_READY_TIMEOUT_MS',
    [Status.UNAVAILABLE]: 'The database does not answer (HTTP 503, envelope)',
  },
  live: {
    [Status.SUCCESS]:
      '{"status":"ok"} (no envelope) while the process runs; sets no cookie and writes no info log line (a probe)',
  },
  openapi: { [Status.SUCCESS]: 'The OpenAPI 3.1 document (no envelope)' },
  apiDocs: { [Status.SUCCESS]: 'The reference as a script-free HTML page' },
  devOutbox: {
    [Status.SUCCESS]:
      '{ messages: [{ channel, to, text, code, sentAt }] }, newest first, at most 50 (no envelope)',
  },
  svipStatus: {
    [Status.SUCCESS]:
      "successData.credentials: [{ credentialId: 'VSST…', name }], the account's token credentials, oldest first (empty: none)",
    [Status.UNAUTHENTICATED]: noSession,
  },
  svipAuthentication: {
    [Status.SUCCESS]:
      "A code of the token's clock (its stored drift, TOTP_SKEW_STEPS either way) never accepted before: LOGIN signs in under a new ET token (bindDevice true trusts the device), STEPUP proves the factor again",
    [Status.INCORRECT_CODE]:
      "'Security code not recognized. Try again.': wrong, or a code (time step) accepted before; a wrong one counts for the journey",
    [Status.REDIRECT_REP]:
      "No token credential of the account by that credentialId, or the account cannot sign in; or the token is blocked ('temporarily blocked': TOKEN_MAX_WRONG_TRIES wrong codes and resyncs of the account across journeys, for TOKEN_BLOCK_MINUTES, uncompared) or held after FACTOR_BLOCKS_BEFORE_HOLD blocks within FACTOR_HOLD_WINDOW_HOURS (until a recovery or the console; the owner is told): the representative page",
    [Status.LIMIT_REACHED]:
      "'We need to re-sync': the journey's TOKEN_FAILURES_BEFORE_SYNC wrong codes were reached (the widget opens the resync screen); every later code of the journey answers the same, uncompared, until a resync succeeds",
    [Status.UNAUTHENTICATED]: noSession,
  },
  svipSynchronization: {
    [Status.SUCCESS]:
      "Two consecutive codes of the account's token found within TOKEN_RESYNC_WINDOW_MINUTES either way of its clock, newer than any accepted step: the new drift is stored (successData.drift, in steps), the journey's wrong codes start again, redirectPath '/authenticator/svip' (the token screen, where the token's current code signs in once)",
    [Status.INCORRECT_CODE]:
      "'Security code not recognized. Try again.': not two consecutive codes of the window, or a step already accepted; counts for the journey",
    [Status.REDIRECT_REP]:
      "The account has no token credential, or cannot sign in; or the token is blocked ('temporarily blocked', TOKEN_MAX_WRONG_TRIES wrong codes and resyncs of the account, for TOKEN_BLOCK_MINUTES) or held after FACTOR_BLOCKS_BEFORE_HOLD blocks: the representative page",
    [Status.TOTP_REDIRECT_REP]:
      'TOKEN_SYNC_MAX_TRIES failed resyncs in this journey: the representative page (every later resync of the journey answers the same)',
    [Status.UNAUTHENTICATED]: noSession,
  },
  totpAuthentication: {
    [Status.SUCCESS]:
      'A code of the authenticator app (RFC 6238 SHA-1, 6 digits, 30 s, TOTP_SKEW_STEPS either way) of a later time step than any accepted before: LOGIN signs in under a new ET token (bindDevice true trusts the device), STEPUP proves the factor again',
    [Status.AUTH_NOT_COMPLETED]:
      'Not sent: widget spec §4 maps it to a custom callback; this server has none here',
    [Status.CALLBACKS_REQUIRED]: 'Not sent: widget spec §4 maps it to the representative page',
    [Status.REDIRECT_REP]:
      'The account has no authenticator app, or cannot sign in; or the app is held: the FACTOR_BLOCKS_BEFORE_HOLD-th block within FACTOR_HOLD_WINDOW_HOURS holds it until a recovery or the console lifts it (every code refused uncompared; the owner is told): the representative page',
    [Status.TOTP_REDIRECT_REP]: 'Not sent: widget spec §4 maps it to the representative page',
    [Status.INCORRECT_CODE]:
      "'Security code not recognized. Try again.': wrong (counted), or a time step accepted before (a replay; not counted)",
    [Status.LIMIT_REACHED]:
      'TOTP_MAX_WRONG_TRIES wrong codes (across journeys; a right code resets the count): the factor is blocked for TOTP_BLOCK_MINUTES and every code is refused uncompared until then; the login journey of the code that reached the limit ends (the widget shows the TOTP block page)',
    [Status.UNAUTHENTICATED]: noSession,
  },
  pushAuthentication: {
    [Status.SUCCESS]:
      "A push transaction starts and goes to the account's device; successData.id is polled with push/status (and successData.number shown when number matching is on)",
    [Status.FORBIDDEN]: 'The account has no push device, or push is not among its authenticators',
    [Status.LIMIT_REACHED]: 'The journey sent its 3 pushes: try another method',
    [Status.UNAUTHENTICATED]: 'No login with a second factor due and no signed-in session',
  },
  pushStatus: {
    [Status.SUCCESS]:
      'successData.status: PENDING, COMPLETED_SUCCESSFUL (the journey continues: LOGIN signs in, STEPUP rotates the session), DECLINED, FRAUD (the login journey ends), EXPIRED_PENDING or COMPLETED_FAILURE',
    [Status.UNKNOWN_TRANSACTION]: "No such push in this browser's journey (unknown and foreign alike)",
    [Status.UNAUTHENTICATED]: 'No login with a second factor due and no signed-in session',
  },
  devicePushes: {
    [Status.SUCCESS]:
      "successData.pushes: the device's pending pushes, then its recent answered or expired ones",
    [Status.FORBIDDEN]: 'The device proof does not verify, or its time is outside the window',
  },
  devicePushAnswer: {
    [Status.SUCCESS]: "The answer is recorded: successData.status is the push's new status",
    [Status.FORBIDDEN]: "Unsigned, or not signed by this push's device, or the matched number is wrong",
    [Status.UNKNOWN_TRANSACTION]: 'No such push',
    [Status.ALREADY_ANSWERED]: 'The push was answered already (a replay or a second answer)',
    [Status.TRANSACTION_EXPIRED]: 'The push expired before the answer',
    [Status.TRANSACTION_WITHDRAWN]:
      'The push was withdrawn before the answer: its sign-in ended (the account locked, or its sessions were ended). Nothing is approved',
  },
  deviceStream: {
    [Status.SUCCESS]:
      "text/event-stream: a `pushes` event whenever the device's pushes change, a comment every 15 s",
    [Status.FORBIDDEN]: 'The device proof does not verify',
  },
  deviceRegister: {
    [Status.SUCCESS]:
      'The key is now a push device of the signed-in account (recent for CONTACT_WAIT_DAYS); every established contact is told',
    [Status.FORBIDDEN]:
      "The session has no step-up within SECURITY_STEPUP_MINUTES (the security page's, proved by an established credential; the sign-in's own factor never counts), or the proof does not verify",
    [Status.LIMIT_REACHED]:
      'The account holds CREDENTIAL_MAX_PUSH_DEVICES push devices already: nothing is added',
    [Status.UNAUTHENTICATED]: 'No signed-in session',
  },
  deviceRegistrations: {
    [Status.SUCCESS]: 'successData.registrations: the accounts this device approves for',
    [Status.FORBIDDEN]: 'The device proof does not verify',
  },
  deviceRename: {
    [Status.SUCCESS]: 'Renamed',
    [Status.FORBIDDEN]: 'The device proof does not verify',
    [Status.UNKNOWN_TRANSACTION]: 'No such registration of this device',
  },
  deviceRemove: {
    [Status.SUCCESS]: 'Removed: the account no longer sends pushes to this device',
    [Status.FORBIDDEN]: 'The device proof does not verify',
    [Status.UNKNOWN_TRANSACTION]: 'No such registration of this device',
  },
  devDemoDevices: { [Status.SUCCESS]: 'Development: the demo accounts with a seeded push device' },
  devDemoTokens: {
    [Status.SUCCESS]: "Development: the demo accounts' token credentials as otpauth:// URIs",
  },
  devDemoDeviceClaim: {
    [Status.SUCCESS]: "Development: this device's key becomes the demo account's seeded push device",
    [Status.FORBIDDEN]: 'The device proof does not verify',
    [Status.UNKNOWN_TRANSACTION]: 'No demo account with push by that username',
  },
  securityOverview: {
    [Status.SUCCESS]:
      'successData { stepUpExpiresAt, authenticators, pushDevices, tokens, phones, emails, trustedBrowsers, sessions, activity }: every factor of the account, its trusted browsers, its signed-in sessions (browser, OS, address) and its last 20 security events, newest first',
    ...securityGuardDocs,
  },
  securityAuthenticatorEnrollment: {
    [Status.SUCCESS]:
      'successData { enrollmentId, secret (base32), otpauthUri, expiresAt }: a pending authenticator app, its secret stored encrypted, for SECURITY_ENROLLMENT_MINUTES; it counts only once confirmed',
    [Status.LIMIT_REACHED]: 'The account holds CREDENTIAL_MAX_APPS authenticator and token apps already',
    ...securityGuardDocs,
    [Status.RATE_LIMITED]: securityRateDoc,
  },
  securityAuthenticatorConfirmation: {
    [Status.SUCCESS]:
      'A current code of the pending secret (TOTP_SKEW_STEPS either way): the authenticator app is a credential of the account now (successData.authenticator), recent for CONTACT_WAIT_DAYS; an audit event and a notice to every established contact',
    ...securityConfirmationDocs,
    [Status.LIMIT_REACHED]:
      'The wrong code that reached SECURITY_CONFIRM_MAX_TRIES (the request ends), or the account holds CREDENTIAL_MAX_APPS apps already',
    ...securityGuardDocs,
  },
  securityCredentialRemove: {
    [Status.SUCCESS]:
      'The authenticator app, token or push device is removed; an audit event and an e-mail notice',
    [Status.FORBIDDEN]:
      'It is the last usable second factor of the account (a phone, e-mail, authenticator app, token or push device), or its last established one (CONTACT_WAIT_DAYS, decision 030): nothing is removed',
    [Status.UNKNOWN_TRANSACTION]: securityItemUnknownDoc,
    ...securityGuardDocs,
  },
  securityContactAdd: {
    [Status.SUCCESS]:
      'A 6-digit code is sent to the new phone (text message) or e-mail address: successData { confirmationId, masked, expiresAt } (OTP_EXPIRY_MINUTES)',
    [Status.GUIDELINES_NOT_MET]:
      "Not a valid phone number (read as E.164, a national number as US) or e-mail address; or a number of a refused type or range (PHONE_REFUSED_TYPES, PHONE_REFUSED_RANGES: 'We can't send codes to this kind of number …'): nothing is sent",
    [Status.CONTACT_EXISTS]: 'The phone number or e-mail address is already on the account',
    [Status.LIMIT_REACHED]:
      'The account holds CREDENTIAL_MAX_CONTACTS phones and e-mail addresses already: no code is sent',
    [Status.RATE_LIMITED]: `${securityRateDoc}; or a limit on codes to new numbers: this number's (PHONE_DESTINATION_HOURLY_MAX, PHONE_DESTINATION_DAILY_MAX, across accounts), the account's (PHONE_NEW_NUMBERS_DAILY_MAX), the country's (PHONE_COUNTRY_DAILY_MAX) or the service's (PHONE_DAILY_MAX)`,
    ...securityGuardDocs,
  },
  securityContactConfirmation: {
    [Status.SUCCESS]:
      "The right code: the phone or e-mail is a credential of the account now, created now, so it stays unusable (enable false, 'recently added') for CONTACT_WAIT_DAYS; successData { kind, phone | email }; an audit event and an e-mail notice",
    ...securityConfirmationDocs,
    [Status.LIMIT_REACHED]:
      'The wrong code that reached SECURITY_CONFIRM_MAX_TRIES (the request ends), or the account holds CREDENTIAL_MAX_CONTACTS contacts already',
    [Status.CONTACT_EXISTS]: 'The contact was added to the account meanwhile',
    ...securityGuardDocs,
  },
  securityContactRemove: {
    [Status.SUCCESS]: 'The phone or e-mail is removed; an audit event and an e-mail notice',
    [Status.FORBIDDEN]:
      'It is the last usable (or last established) second factor of the account, or its last established e-mail address (notices and recovery go there; a recent one waiting does not count): nothing is removed',
    [Status.UNKNOWN_TRANSACTION]: securityItemUnknownDoc,
    ...securityGuardDocs,
  },
  securityTrustedBrowserRevoke: {
    [Status.SUCCESS]:
      '{ id }: that browser is not trusted any more; { all: true }: none is (successData.revoked counts them). Each must pass the second factor again; an audit event and an e-mail notice',
    [Status.UNKNOWN_TRANSACTION]: securityItemUnknownDoc,
    ...securityGuardDocs,
  },
  securitySessionEnd: {
    [Status.SUCCESS]:
      '{ id }: that session ends (its cookie answers 401 from now on); { allOthers: true }: every session of the account but this one (successData.ended counts them); an audit event and an e-mail notice',
    [Status.FORBIDDEN]: 'The id is the current session (sign out ends it)',
    [Status.UNKNOWN_TRANSACTION]: securityItemUnknownDoc,
    ...securityGuardDocs,
  },
  // The docs of each factor contract's calls (factors/index.ts).
  ...factorOutcomeDocs,
};

const consoleNoSession =
  'No console session (a customer session or none): sign in with name, password and authenticator code (HTTP 401)';
const consoleRefusedDoc =
  "Not permitted: a representative on a staff member's customer account, anyone on their own, or another staff member's audit";
/** The representative console's calls (docs/decisions/028-representative-console.md). */
export const consoleOutcomeDocs: Record<ConsoleCallName, Readonly<Record<number, string>>> = {
  consoleSignIn: {
    [Status.SUCCESS]:
      'Name and password right: the authenticator-app code is due (a short-lived staff cookie, path /api/console)',
    [Status.FORBIDDEN]:
      'Unknown name, wrong password or a disabled staff member (one answer for all; wrong passwords never lock a member, they count per client and name: STAFF_PASSWORD_MAX_TRIES, then 4429)',
    [Status.LIMIT_REACHED]:
      'The right password of a member locked after STAFF_LOCKOUT_FAILURES wrong authenticator codes: refused for STAFF_LOCKOUT_MINUTES',
  },
  consoleFactor: {
    [Status.SUCCESS]:
      'Signed in: a new staff session cookie; it ends after STAFF_IDLE_MINUTES without a call',
    [Status.INCORRECT_CODE]: 'Wrong authenticator code, or one accepted before (replay)',
    [Status.LIMIT_REACHED]:
      'STAFF_LOCKOUT_FAILURES wrong authenticator codes (each try reserved before the compare): refused, nothing compared, for STAFF_LOCKOUT_MINUTES',
    [Status.UNAUTHENTICATED]: 'No password step in progress, or it expired (checked before the body)',
  },
  consoleSession: {
    [Status.SUCCESS]:
      "successData: the signed-in staff member (name, role, idle minutes, the warning's lead in seconds)",
    [Status.UNAUTHENTICATED]: consoleNoSession,
  },
  consoleSessionExtend: {
    [Status.SUCCESS]:
      'successData: the signed-in staff member, as GET gives it; the idle limit moved forward (never past STAFF_ABSOLUTE_MINUTES)',
    [Status.UNAUTHENTICATED]: consoleNoSession,
  },
  consoleSignOut: { [Status.SUCCESS]: 'Signed out (also without a session)' },
  consoleCustomer: {
    [Status.SUCCESS]:
      'successData: state, masked contacts, enrolled factors, recent security events of the customer with exactly this username',
    [Status.UNKNOWN_TRANSACTION]: 'No customer has exactly this username',
    [Status.UNAUTHENTICATED]: consoleNoSession,
  },
  consoleIssueCode: {
    [Status.SUCCESS]:
      'successData.code: 6 digits, shown this once; it replaces any live code of the customer and expires after REP_CODE_MINUTES',
    [Status.FORBIDDEN]: consoleRefusedDoc,
    [Status.UNKNOWN_TRANSACTION]: 'No customer has exactly this username',
    [Status.ALREADY_ANSWERED]: 'The account is locked, blocked or closed: lift the block first',
    [Status.UNAUTHENTICATED]: consoleNoSession,
  },
  consoleLift: {
    [Status.SUCCESS]: 'Lifted; the customer is told by e-mail',
    [Status.FORBIDDEN]: consoleRefusedDoc,
    [Status.UNKNOWN_TRANSACTION]: 'No customer has exactly this username',
    [Status.ALREADY_ANSWERED]: 'The account is not in the state this action lifts',
    [Status.UNAUTHENTICATED]: consoleNoSession,
  },
  consoleAudit: {
    [Status.SUCCESS]: 'successData.events: console actions, newest first (a representative: only their own)',
    [Status.FORBIDDEN]: consoleRefusedDoc,
    [Status.UNAUTHENTICATED]: consoleNoSession,
  },
};

/** The description of a code of a call: its own line, else the generic one. */
export const outcomeDoc = (call: AnyCallName, code: number): string =>
  (call in consoleOutcomeDocs
    ? consoleOutcomeDocs[call as ConsoleCallName]
    : outcomeDocs[call as Exclude<AnyCallName, ConsoleCallName>])[code] ??
  genericOutcomeDocs[code] ??
  '';
