/**
 * The constants browser code reads, apart from the business and policy limits of limits.ts, so
 * the login routes carry these and not the whole list: `@gatehouse/contract/client` exports them
 * as `limits`.
 */
export const clientLimits = {
  codeLength: 6,
  pushPollMs: 3000,
  pushPollRetries: 2,
  pushSendLimit: 3,
  tokenFailuresBeforeSync: 2,
  usernameInputMax: 50,
  passwordInputMax: 128,
  focusDelayMs: 400,
  requestIdRandomLength: 32,
  clientLogMessageMax: 500,
  /** Widget spec §7: the device-risk step's real-time beacon polls every 10 seconds (decision 045). */
  riskBeaconIntervalMs: 10_000,
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
