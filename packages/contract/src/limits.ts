/** Business constants and limits of both specs' §9, and the policy defaults of design.md. */
export const limits = {
  codeLength: 6,
  otpExpiryMinutes: 30,
  pushPollMs: 3000,
  pushPollRetries: 2,
  pushSendLimit: 3,
  tokenFailuresBeforeSync: 2,
  totpBlockMinutes: 5,
  usernameInputMax: 50,
  usernameMin: 8,
  usernameMax: 15,
  usernameShortThreshold: 9,
  usernameMidMax: 11,
  usernameLongThreshold: 12,
  usernameMinLetters: 2,
  usernameMaxRepeat: 4,
  sharedCharactersMax: 5,
  passwordMin: 8,
  passwordMax: 20,
  passwordInputMax: 128,
  passwordHistory: 6,
  /** More than this many of one letter or digit in a row is refused (1475). */
  passwordMaxRepeat: 5,
  /** This many or more digits counting up or down (12345) are refused (1472). */
  passwordSequentialDigits: 5,
  /** Wrong one-time codes per account and channel before the flow ends and the account is blocked. */
  otpMaxWrongTries: 5,
  emailOtpSendsBeforeBlock: 3,
  /** Second factor: wrong codes per account and channel before the channel is refused (1491). */
  factorMaxWrongTries: 5,
  /** Second factor: sends per account and channel without a correct code before 1491. */
  factorMaxSends: 5,
  /** How long a channel stays refused after either limit (minutes since the last try or send). */
  factorLockoutMinutes: 30,
  /** A contact added less than this many days ago is shown with enable false (widget spec §5). */
  contactWaitDays: 2,
  /** A bound device skips the second factor for this many days (login journey only). */
  trustDeviceDays: 30,
  /** The text-message template: at most this long, with the placeholder exactly once. */
  smsTemplateMax: 400,
  smsCodePlaceholder: '$$CODE$$',
  sessionIdleHours: 4,
  sessionAbsoluteHours: 12,
  focusDelayMs: 400,
  desktopMinWidthPx: 512,
  cardWidthPx: 448,
  codeCardWidthPx: 400,
  toastTimeoutMs: 5000,
  toastExtendedTimeoutMs: 1000,
  toastEaseMs: 300,
  alertFadeMs: 150,
  expandMs: 250,
  requestIdRandomLength: 32,
  /** Client log collector: largest body in bytes, entries per request, characters kept per message. */
  clientLogBodyBytes: 16384,
  clientLogEntriesMax: 50,
  clientLogMessageMax: 500,
} as const;

export const appDefaults = {
  portalAppId: 'PRIMESRVPORTAL',
  portalAppName: 'Prime Portal',
  requestIdPrefix: 'REQ',
  tokenType: 'ET',
  tokenLocation: 'cookie',
  portalContext: 'PRIMESRVPORTAL',
  subEventDefault: 'dom_login',
  portalSubEvent: 'prime_login',
} as const;
