/**
 * The zod-free part of the contract, for browser code: paths, status codes, limits, headers,
 * messages, shared rules, the device app's proof helpers and the envelope's types. The server imports the whole contract
 * ('@gatehouse/contract'), schemas included; the clients import this.
 */

export { appDefaults, clientLimits as limits } from './client-limits.ts';
export type { ConsoleAuditEvent, ConsoleCustomer, ConsoleStaff } from './console.ts';
export * from './console-messages.ts';
export * from './customer-paths.ts';
export type { DevicePush, DeviceRegistration, P256PublicKey, PushContent } from './device.ts';
export * from './device-core.ts';
export * from './device-messages.ts';
export type { Callback, Envelope } from './envelope-core.ts';
export { statusOf, UNKNOWN_ERROR } from './envelope-core.ts';
export * from './format.ts';
export * from './headers.ts';
export * from './http.ts';
export * from './messages.ts';
export * from './outcomes.ts';
export * from './paths.ts';
export * from './push-messages.ts';
export * from './recovery-messages.ts';
export * from './rules/free-text.ts';
export * from './rules/password.ts';
export * from './rules/username.ts';
export type {
  AuthenticatorItem,
  AuthenticatorsData,
  Contact,
  OtpStateData,
  OutboxMessage,
  SavedUsername,
  SessionData,
  SessionLoginData,
  TrustedDeviceData,
} from './schemas.ts';
export type {
  AuthenticatorConfirmationData,
  AuthenticatorEnrollmentData,
  ContactAddData,
  ContactConfirmationData,
  ContactKind,
  SecurityActivityItem,
  SecurityAppItem,
  SecurityEmailItem,
  SecurityOverviewData,
  SecurityPhoneItem,
  SecurityTokenItem,
  SignedInSessionItem,
  TrustedBrowserItem,
} from './security.ts';
export * from './security-messages.ts';
export * from './security-outcomes.ts';
export * from './security-paths.ts';
export * from './server-messages.ts';
export * from './sms-template.ts';
export * from './status.ts';
