import { z } from 'zod';
import { PUSH_NUMBER_DIGITS, pushDecisions } from './device-core.ts';
import { pushStatusValue, text } from './schemas.ts';

// The zod-free half (proof and answer texts, the thumbprint, base64url) is device-core.ts, which the
// browser entry (client.ts) exports too.
export * from './device-core.ts';

/**
 * The companion device app's calls (apps/device; docs/decisions/022-push-and-device.md).
 *
 * A device is a P-256 key pair made with WebCrypto in the device app (the private key
 * non-extractable, kept in IndexedDB). Its public key (a JWK) is the push credential of each account
 * that registered it; its RFC 7638 thumbprint names it. Every call but `register` is authenticated
 * by a device proof: an ECDSA P-256 / SHA-256 signature (IEEE P1363 r||s, 64 bytes, base64url, as
 * WebCrypto makes it) over `deviceProofMessage(purpose, time, key)`, with a time the server accepts
 * within DEVICE_PROOF_WINDOW_SECONDS of its clock. An answer to a push is signed on its own, over
 * `pushAnswerMessage(...)`: the transaction id makes it single use.
 */

const base64url = (bytes: number) =>
  z
    .string()
    .length(Math.ceil((bytes * 4) / 3))
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A P-256 public key as a JWK, only the members RFC 7638's thumbprint reads. */
export const p256PublicKey = z
  .object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: base64url(32),
    y: base64url(32),
  })
  .strip();
export type P256PublicKey = z.infer<typeof p256PublicKey>;

/** The RFC 7638 thumbprint of a device key: SHA-256, base64url (43 characters). */
export const deviceKeyId = base64url(32);
/** An ECDSA P-256 signature, IEEE P1363 (r||s), base64url (86 characters). */
export const deviceSignature = base64url(64);

export const deviceProof = z.object({
  /** The device key's thumbprint. */
  key: deviceKeyId,
  /** ISO 8601 time of signing. */
  time: z.string().datetime({ offset: true }),
  signature: deviceSignature,
});
export type DeviceProof = z.infer<typeof deviceProof>;

export const pushDecision = z.enum(pushDecisions);

const base = { requestBaseInfo: z.object({}).passthrough().optional() };

/** The journey a push serves, as the server's journey row says (never the caller's `journey`). */
export const pushJourney = z.enum(['LOGIN', 'STEPUP']);

/**
 * What a push card shows on the device: only what the server derives (docs/decisions/032): the
 * browser and system its own parser read from the send's User-Agent (empty when it names none), the
 * push's own creation time, the host the send came from (Origin, else Host) and the journey kind of
 * the journey row. Nothing of the widget's secureTransactionContent or transactionDescription.
 */
export const pushContent = z.object({
  browserName: z.string(),
  osName: z.string(),
  time: z.string(),
  host: z.string(),
  journey: pushJourney,
});
export type PushContent = z.infer<typeof pushContent>;

/** A push as the device sees it. */
export const devicePush = z.object({
  id: z.string(),
  /** The account's username, as the customer knows it. */
  username: z.string(),
  status: pushStatusValue,
  /** The server's text by journey: 'Sign-in request' or 'Identity check'. */
  description: z.string(),
  content: pushContent,
  createdAt: z.string(),
  expiresAt: z.string(),
  answeredAt: z.string().nullable(),
  /**
   * Number matching on for this push: an approval must carry the 2-digit number the sign-in screen
   * shows, typed by the customer. The device is never told the number, nor choices that hold it.
   */
  numberMatching: z.boolean(),
});
export type DevicePush = z.infer<typeof devicePush>;

export const devicePushesRequest = z.object({ ...base, proof: deviceProof });
/** Pending pushes first, then the last answered or expired ones (newest first). */
export const devicePushesData = z.object({ pushes: z.array(devicePush) });

export const devicePushAnswerRequest = z.object({
  ...base,
  id: text().min(1).max(64),
  decision: pushDecision,
  /** The number the customer typed (the one the sign-in screen shows), when number matching is on. */
  number: z
    .string()
    .regex(new RegExp(`^\\d{${PUSH_NUMBER_DIGITS}}$`), `number must be ${PUSH_NUMBER_DIGITS} digits`)
    .optional(),
  key: deviceKeyId,
  signature: deviceSignature,
});
export const devicePushAnswerData = z.object({ status: pushStatusValue });

export const deviceStreamRequest = z.object({ ...base, proof: deviceProof });

export const deviceName = text()
  .trim()
  .min(1, 'name is required')
  .max(60, 'name is longer than 60 characters');

/** Needs a signed-in session (cookie) that proved a second factor other than push just now. */
export const deviceRegisterRequest = z.object({
  ...base,
  publicKey: p256PublicKey,
  name: deviceName,
  /** Purpose 'register': shows the caller holds the private key. */
  proof: deviceProof,
});

/** One account this device is the push device of. */
export const deviceRegistration = z.object({
  /** The push credential's id. */
  id: z.string(),
  username: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type DeviceRegistration = z.infer<typeof deviceRegistration>;
export const deviceRegisterData = z.object({ registration: deviceRegistration });
export const deviceRegistrationsRequest = z.object({ ...base, proof: deviceProof });
export const deviceRegistrationsData = z.object({ registrations: z.array(deviceRegistration) });
export const deviceRenameRequest = z.object({
  ...base,
  id: text().min(1).max(64),
  name: deviceName,
  proof: deviceProof,
});
export const deviceRemoveRequest = z.object({ ...base, id: text().min(1).max(64), proof: deviceProof });

/** Development: the demo accounts whose seeded push device this browser can claim. */
export const demoDevicesData = z.object({
  accounts: z.array(z.object({ username: z.string(), about: z.string() })),
});
/**
 * Development: the demo accounts with a token credential, each with its RFC 6238 otpauth:// URI
 * (issuer 'VIP', label the credential id), for the device app's codes page.
 */
export const demoTokensData = z.object({
  accounts: z.array(z.object({ username: z.string(), credentialId: z.string(), uri: z.string() })),
});
export const demoDeviceClaimRequest = z.object({
  ...base,
  username: text().min(1).max(50),
  publicKey: p256PublicKey,
  proof: deviceProof,
});
