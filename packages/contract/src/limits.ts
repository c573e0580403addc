import { clientLimits } from './client-limits.ts';

export { appDefaults } from './client-limits.ts';

/** Business constants and limits of both specs' §9, and the policy defaults of design.md. */
export const limits = {
  ...clientLimits,
  otpExpiryMinutes: 30,
  totpBlockMinutes: 5,
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
  /** The longest CONTACT_WAIT_DAYS a deployment may set (config.ts). */
  contactWaitMaxDays: 30,
  /** A bound device skips the second factor for this many days (login journey only). */
  trustDeviceDays: 30,
  /** The text-message template: at most this long, with the placeholder exactly once. */
  smsTemplateMax: 400,
  smsCodePlaceholder: '$$CODE$$',
  sessionIdleHours: 4,
  sessionAbsoluteHours: 12,
  desktopMinWidthPx: 512,
  cardWidthPx: 448,
  codeCardWidthPx: 400,
  toastTimeoutMs: 5000,
  toastExtendedTimeoutMs: 1000,
  toastEaseMs: 300,
  alertFadeMs: 150,
  expandMs: 250,
  /** Client log collector: largest body in bytes, entries per request, characters kept per message. */
  clientLogBodyBytes: 16384,
  clientLogEntriesMax: 50,
  /** The device-risk beacon (decision 045): its body, and how many reasons one names. */
  riskBeaconBodyBytes: 2048,
  riskReasonsMax: 10,
} as const;
