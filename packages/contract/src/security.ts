import { z } from 'zod';
import { securityCode, text } from './fields.ts';
import { blockedCharactersList, hasBlockedCharacters } from './rules/free-text.ts';

/**
 * The portal's security page (`#/security`, issue 12; docs/decisions/025-security-page-api.md):
 * the calls a signed-in customer manages every factor with. Every call needs the signed-in session
 * cookie and a step-up (a factor proved in a STEPUP journey) within SECURITY_STEPUP_MINUTES; without
 * one it answers 1412 (HTTP 403), and the portal hosts the widget in the STEPUP journey.
 *
 * Ids are opaque strings (a session's is a public id of its own, never its token or the token's
 * hash). Times are ISO 8601.
 */

const base = { requestBaseInfo: z.object({}).passthrough().optional() };

/** An id the page got from the overview: every one is a UUID (anything else is a 400). */
export const securityItemId = text().regex(
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  'id must be a UUID',
);

/** A name the customer gives an authenticator app. */
export const authenticatorName = text()
  .trim()
  .min(1, 'name is required')
  .max(60, 'name is longer than 60 characters')
  // Control characters and bidirectional controls could disguise a name (red-team finding 2).
  .refine(
    (value) => !/[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u.test(value),
    'name has control characters',
  )
  // Portal spec §5's blocked characters, where a customer types free text (decision 045b).
  .refine(
    (value) => !hasBlockedCharacters(value),
    `name has a character that is not allowed: ${blockedCharactersList}`,
  );

// --- overview --------------------------------------------------------------------------------
/** An authenticator app or a push device of the account; any factor's credential in `credentials`. */
export const securityAppItem = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /**
   * Added less than CONTACT_WAIT_DAYS ago (decision 030): it signs in, but cannot confirm changes
   * on this page (nor take sign-in requests while an older device exists) until `usableFrom`.
   */
  recentlyAdded: z.boolean().optional(),
  usableFrom: z.string().optional(),
});
export type SecurityAppItem = z.infer<typeof securityAppItem>;

/** A token credential: credentialId is the token's public id (VSST…), shown to the customer. */
export const securityTokenItem = securityAppItem.extend({ credentialId: z.string() });
export type SecurityTokenItem = z.infer<typeof securityTokenItem>;

/**
 * A phone or e-mail. `masked` as the widget's contact screens show it. A contact added less than
 * CONTACT_WAIT_DAYS ago is `recentlyAdded` (the widget lists it with enable false) until `usableFrom`.
 */
export const securityPhoneItem = z.object({
  id: z.string(),
  masked: z.string(),
  /** The phone also takes voice calls. */
  voice: z.boolean(),
  createdAt: z.string(),
  usableFrom: z.string(),
  recentlyAdded: z.boolean(),
});
export type SecurityPhoneItem = z.infer<typeof securityPhoneItem>;
export const securityEmailItem = securityPhoneItem.omit({ voice: true });
export type SecurityEmailItem = z.infer<typeof securityEmailItem>;

/** A browser trusted to skip the second factor at sign-in; `current` is this browser. */
export const trustedBrowserItem = z.object({
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type TrustedBrowserItem = z.infer<typeof trustedBrowserItem>;

/** A signed-in session of the account; `current` is the one asking. */
export const signedInSessionItem = z.object({
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  address: z.string(),
  signedInAt: z.string(),
  lastActivityAt: z.string(),
  current: z.boolean(),
});
export type SignedInSessionItem = z.infer<typeof signedInSessionItem>;

/**
 * A security event of the account's audit trail. `event` is the audit event name (for example
 * `login.password`, `security.contact.added`); `description` is its customer-facing text
 * (securityActivityKey, by event); `outcome` is success or failure.
 */
export const securityActivityItem = z.object({
  id: z.string(),
  event: z.string(),
  outcome: z.string(),
  at: z.string(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  address: z.string().nullable(),
  description: z.string(),
});
export type SecurityActivityItem = z.infer<typeof securityActivityItem>;

/** GET /user/security/overview. */
export const securityOverviewData = z.object({
  /** When this step-up stops counting: the page asks for a new one then. */
  stepUpExpiresAt: z.string(),
  /** Seconds from this answer until the step-up stops counting (the page's clock need not be the server's). */
  stepUpEndsInSeconds: z.number().int(),
  /** The page warns this many seconds before the step-up ends (TIME_LIMIT_WARNING_SECONDS). */
  warningSeconds: z.number().int(),
  authenticators: z.array(securityAppItem),
  pushDevices: z.array(securityAppItem),
  tokens: z.array(securityTokenItem),
  phones: z.array(securityPhoneItem),
  emails: z.array(securityEmailItem),
  /**
   * Every factor's credentials, by factor key (its module's folder name, e.g. 'totp', 'otp'), each
   * item in the app shape (a contact's name is its masked label): a new factor's items appear here
   * with no change to this contract. The typed lists above stay for the factors that predate it.
   */
  credentials: z.record(z.string(), z.array(securityAppItem)),
  trustedBrowsers: z.array(trustedBrowserItem),
  sessions: z.array(signedInSessionItem),
  /** Newest first, at most 20. */
  activity: z.array(securityActivityItem),
});
export type SecurityOverviewData = z.infer<typeof securityOverviewData>;

// --- authenticator app -------------------------------------------------------------------------
export const authenticatorEnrollmentRequest = z.object(base).optional();
/**
 * A pending authenticator app: the page shows `otpauthUri` as a QR code and `secret` (base32) as
 * text for manual entry. It counts only once confirmed with a code, before `expiresAt`.
 */
export const authenticatorEnrollmentData = z.object({
  enrollmentId: z.string(),
  secret: z.string(),
  otpauthUri: z.string(),
  expiresAt: z.string(),
});
export type AuthenticatorEnrollmentData = z.infer<typeof authenticatorEnrollmentData>;

export const authenticatorConfirmationRequest = z.object({
  ...base,
  enrollmentId: securityItemId,
  securityCode,
  /** Default 'Authenticator app'. */
  name: authenticatorName.optional(),
});
export const authenticatorConfirmationData = z.object({ authenticator: securityAppItem });
export type AuthenticatorConfirmationData = z.infer<typeof authenticatorConfirmationData>;

/** Removes an authenticator app, a token or a push device of this account. */
export const credentialRemoveRequest = z.object({ ...base, id: securityItemId });

// --- phones and e-mails --------------------------------------------------------------------------
export const contactKind = z.enum(['phone', 'email']);
export type ContactKind = z.infer<typeof contactKind>;
/**
 * A phone number (any usual writing: the server normalises it to E.164; without a country code it
 * is read as a US number) or an e-mail address. `voice`: the phone also takes calls (phone only).
 */
export const contactAddRequest = z.object({
  ...base,
  kind: contactKind,
  value: text().trim().min(1, 'value is required').max(254, 'value is longer than 254 characters'),
  voice: z.boolean().optional(),
});
/** A code was sent to the new contact; it must come back with contacts/confirmation before expiresAt. */
export const contactAddData = z.object({
  confirmationId: z.string(),
  masked: z.string(),
  expiresAt: z.string(),
});
export type ContactAddData = z.infer<typeof contactAddData>;

export const contactConfirmationRequest = z.object({
  ...base,
  confirmationId: securityItemId,
  securityCode,
});
/** The new contact: recentlyAdded true until usableFrom. */
export const contactConfirmationData = z.object({
  kind: contactKind,
  phone: securityPhoneItem.optional(),
  email: securityEmailItem.optional(),
});
export type ContactConfirmationData = z.infer<typeof contactConfirmationData>;

export const contactRemoveRequest = z.object({ ...base, id: securityItemId });

// --- trusted browsers and sessions ---------------------------------------------------------------
/** One trusted browser by id, or all of them ({ all: true }). */
export const trustedBrowserRevokeRequest = z.union([
  z.object({ ...base, id: securityItemId }).strict(),
  z.object({ ...base, all: z.literal(true) }).strict(),
]);
export const trustedBrowserRevokeData = z.object({ revoked: z.number().int() });

/** One other session by id, or every session but this one ({ allOthers: true }). */
export const sessionEndRequest = z.union([
  z.object({ ...base, id: securityItemId }).strict(),
  z.object({ ...base, allOthers: z.literal(true) }).strict(),
]);
export const sessionEndData = z.object({ ended: z.number().int() });
