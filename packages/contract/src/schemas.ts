import { z } from 'zod';
import { factorTypes } from './factor-contracts.ts';
import { securityCode, text } from './fields.ts';
import { limits } from './limits.ts';

export { loneSurrogateMessage, nulCharacterMessage, securityCode, text } from './fields.ts';

/** Request and response bodies of every call of both specs' §7 tables. */

const requestBaseInfo = z.object({ sessionTokens: z.object({}).passthrough().optional() }).passthrough();
const base = { requestBaseInfo: requestBaseInfo.optional() };

export const usernameInput = text()
  .trim()
  .min(1, 'username is required')
  .max(limits.usernameInputMax, `username is longer than ${limits.usernameInputMax} characters`);
export const passwordInput = text()
  .min(1, 'password is required')
  .max(limits.passwordInputMax, `password is longer than ${limits.passwordInputMax} characters`);
export const emptyBody = z.object(base).optional();

// --- password and session ---------------------------------------------------------------
export const passwordAuthenticationRequest = z.object({
  ...base,
  username: usernameInput,
  password: passwordInput,
});

export const authenticatorType = z.enum([
  'OTP-SMS',
  'OTP-VOICE',
  'OTP-EMAIL',
  'OTP-REP',
  'TOTPSVIP',
  'PUSH',
  'TOTPAUTHN',
  // Each factor contract's own (factors/index.ts).
  ...factorTypes,
]);
export type AuthenticatorType = z.infer<typeof authenticatorType>;
export const authenticatorItem = z.object({
  type: authenticatorType,
  title: z.string().optional(),
  context: z.record(z.string(), z.unknown()).optional(),
});
export type AuthenticatorItem = z.infer<typeof authenticatorItem>;

export const sessionLoginData = z.object({
  username: z.string(),
  displayName: z.string(),
  authenticated: z.boolean(),
  authenticators: z.array(authenticatorItem).optional(),
  context: z.string().optional(),
});
export type SessionLoginData = z.infer<typeof sessionLoginData>;
/** GET /user/factor/authenticators: the second factors this account may use, in the server's order. */
export const authenticatorsData = z.object({
  authenticators: z.array(authenticatorItem),
  /** STEPUP: the methods held only by recently added credentials, not offered for this check (decision 030). */
  recent: z.array(authenticatorType).optional(),
});
export type AuthenticatorsData = z.infer<typeof authenticatorsData>;

/** The signed-in session as GET /user/session/login reports it (route guard). */
export const sessionData = z.object({
  authenticated: z.boolean(),
  username: z.string(),
  displayName: z.string(),
  signedInAt: z.string(),
  idleExpiresAt: z.string(),
  absoluteExpiresAt: z.string(),
  /** When the session last proved a second factor again (step-up); absent if it never did. */
  steppedUpAt: z.string().optional(),
});
export type SessionData = z.infer<typeof sessionData>;

export const sessionUpdateRequest = z.object({ ...base, context: text().max(200).optional() }).optional();
export const sessionExtendRequest = emptyBody;

export const passwordStatusRequest = z.object({ ...base, username: usernameInput.optional() }).optional();

export const passwordEnrollmentPut = z.object({
  ...base,
  username: usernameInput.optional(),
  newPassword: passwordInput,
});
export const passwordEnrollmentPost = z.union([
  z.object({ ...base, password: passwordInput }).strict(),
  z.object({ ...base, username: usernameInput, oldPassword: passwordInput, newPassword: passwordInput }),
]);

// --- identity -------------------------------------------------------------------------------
export const rememberOperation = z.enum(['ADD', 'DELETE']);
export const rememberPutRequest = z.object({
  ...base,
  username: usernameInput,
  operation: rememberOperation,
});
export const rememberPostRequest = z.object({ ...base, username: usernameInput });
export const savedUsername = z.object({
  friendlyName: z.string(),
  value: z.string(),
  index: z.number().int(),
  id: z.string(),
});
export type SavedUsername = z.infer<typeof savedUsername>;
export const rememberData = z.object({ usernames: z.array(savedUsername) });

export const identifyRequest = z.object({ ...base, username: usernameInput });
export const changeUsernameRequest = z.object({
  ...base,
  username: usernameInput,
  password: passwordInput,
});
export const changeUsernameData = z.object({ username: z.string() });
export const trustedDeviceRequest = z.object({ ...base, bindDevice: z.boolean() });
export const trustedDeviceData = z.object({ trusted: z.boolean(), expiresAt: z.string().optional() });
export type TrustedDeviceData = z.infer<typeof trustedDeviceData>;

export const attributesQuery = z.object({
  attributes: text().regex(
    /^(email|phone|deliveries)(,(email|phone|deliveries)){0,2}$/,
    'attributes must be email, phone or deliveries, comma-separated',
  ),
});
export const contactType = z.enum(['TEXT', 'PHONE', 'EMAIL', 'VOICE', 'REP']);
export const contact = z.object({
  type: contactType,
  value: z.string(),
  countryCode: z.string().optional(),
  label: z.string(),
  enable: z.boolean(),
});
export type Contact = z.infer<typeof contact>;
/** Portal spec §4: the password-reset flow's delivery options. */
export const recoveryDeliveries = ['EMAIL', 'TEXT', 'CALL', 'REP'] as const;
export const recoveryDelivery = z.enum(recoveryDeliveries);
export type RecoveryDelivery = z.infer<typeof recoveryDelivery>;
export const attributesData = z.object({
  email: z.array(contact).optional(),
  phone: z.array(contact).optional(),
  /**
   * Asked for in a recovery flow: the delivery options this account may recover by (the
   * deployment's RECOVERY_CHANNELS with an established contact for each), in the spec's order.
   */
  deliveries: z.array(recoveryDelivery).optional(),
});

// --- one-time codes -----------------------------------------------------------------------
export const otpStateQuery = z.object({
  timestamp: text()
    .regex(/^\d{1,16}$/)
    .optional(),
});
export const otpStateData = z.object({ phone: z.array(contact), email: z.array(contact) });
export type OtpStateData = z.infer<typeof otpStateData>;
export const otpSmsSend = z.object({
  ...base,
  phone: text().min(1).max(64),
  message: text().max(limits.smsTemplateMax),
});
export const otpVoiceSend = z.object({ ...base, phone: text().min(1).max(64) });
export const otpEmailSend = z.object({ ...base, email: text().min(1).max(254) });
export const otpCheck = z.object({ ...base, securityCode, bindDevice: z.boolean().optional() });
/** Recovery: send by TEXT, CALL or EMAIL to the contact on file whose masked value is given. */
export const recoverySend = z.object({
  ...base,
  delivery: z.enum(['EMAIL', 'TEXT', 'CALL']),
  contact: text().min(1).max(254),
});
/** Recovery: check the code of a delivery option (REP: the code a representative issued). */
export const recoveryCheck = z.object({ ...base, delivery: recoveryDelivery, securityCode });

// --- token app (VIP-style) and authenticator app -------------------------------------------
/** The account's token credentials: the public credential id (VSST + 8 digits) and its name. */
export const svipStatusData = z.object({
  credentials: z.array(z.object({ credentialId: z.string(), name: z.string() })),
});
/** Resync done: the drift now stored, in steps of 30 s (positive: the token runs ahead). */
export const svipSynchronizationData = z.object({ drift: z.number().int() });
export const svipAuthenticationRequest = z.object({
  ...base,
  credentialId: text().min(1).max(64),
  securityCode1: securityCode,
  bindDevice: z.boolean().optional(),
});
export const svipSynchronizationRequest = z.object({
  ...base,
  securityCode1: securityCode,
  securityCode2: securityCode,
});
export const totpAuthenticationRequest = z.object({
  ...base,
  securityCode,
  bindDevice: z.boolean().optional(),
});

// --- push ------------------------------------------------------------------------------------
export const pushStatusValue = z.enum([
  'PENDING',
  'SUCCESS',
  'COMPLETED_SUCCESSFUL',
  'DECLINED',
  'FRAUD',
  'EXPIRED_PENDING',
  'EXPIRED_FAILURE',
  'COMPLETED_FAILURE',
]);
export const pushInitRequest = z.object({
  ...base,
  transactionDescription: text().min(1).max(200),
  secureTransactionContent: text().min(2).max(2000),
  localizedPushKey: text().min(1).max(100),
  context: text().max(200).optional(),
});
export const pushInitData = z.object({
  id: z.string(),
  /** Number matching on (PUSH_NUMBER_MATCHING, default on): the 2-digit number the customer types on the device. */
  number: z.string().optional(),
  /** When the push expires (ISO 8601): the widget stops polling past it. */
  expiresAt: z.string().optional(),
});
export const pushStatusRequest = z.object({
  ...base,
  id: text().min(1).max(64),
  bindDevice: z.boolean().optional(),
});
export const pushStatusData = z.object({ status: pushStatusValue });

// --- client logs ---------------------------------------------------------------------------
export const clientLogsRequest = z.object({
  logs: z
    .array(
      z.object({
        level: z.enum(['debug', 'info', 'warn', 'error']),
        // Free text from the browser, never stored: the collector replaces control characters,
        // NUL included, before it logs (apps/identity/src/plugins/client-logs.ts).
        message: z.string().max(2000),
        timestamp: z.string().max(40).optional(),
      }),
    )
    .min(1)
    .max(limits.clientLogEntriesMax),
});

// --- device-risk beacon (widget spec §7, docs/decisions/045-device-risk-step.md) ------------
const riskToken = (max: number) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_.:-]{1,${max}}$`), 'letters, digits and _ . : - only');
/**
 * The signals a device-risk provider's script reports, as the widget forwards them to the first-party
 * beacon: the provider's name, its score (0 no risk to 100 certain fraud), its reason codes and its
 * own reference of the device session. Tokens only, never free text: nothing here reaches a page.
 */
export const deviceRiskBeaconRequest = z
  .object({
    provider: riskToken(40),
    score: z.number().int().min(0).max(100),
    reasons: z.array(riskToken(40)).max(limits.riskReasonsMax).default([]),
    reference: riskToken(100).optional(),
  })
  .strict();
export type DeviceRiskSignals = z.infer<typeof deviceRiskBeaconRequest>;

// --- development outbox --------------------------------------------------------------------
export const outboxQuery = z.object({ to: text().min(1).max(254) });
export const outboxMessage = z.object({
  channel: z.enum(['email', 'sms', 'voice']),
  to: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  sentAt: z.string(),
});
export const outboxResponse = z.object({ messages: z.array(outboxMessage) });
export type OutboxMessage = z.infer<typeof outboxMessage>;

export const healthResponse = z.object({ status: z.enum(['ok', 'unavailable']) });
