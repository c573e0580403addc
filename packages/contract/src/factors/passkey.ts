import { z } from 'zod';
import { text } from '../schemas.ts';
import { securityAppItem } from '../security.ts';
import { PASSKEY_TYPE } from './passkey-calls.ts';

/**
 * The passkey factor (WebAuthn; docs/decisions/041-passkeys.md): its call schemas here, and (re-exported)
 * its type, paths, texts, outcome tables and their docs from passkey-calls.ts, which holds no schema so
 * the login routes can read them without zod; importable as `@gatehouse/contract/factors/passkey`. The WebAuthn JSON shapes are the ones
 * @simplewebauthn/browser sends and @simplewebauthn/server reads (W3C WebAuthn Level 3 §5.1, "JSON
 * serialisation"); every field is bounded so a hostile body is the 400 envelope, never a 500.
 */

export * from './passkey-calls.ts';

// --- schemas ---------------------------------------------------------------------------------------
const base = { requestBaseInfo: z.object({}).passthrough().optional() };

/** base64url without padding (RFC 4648 §5), at most `max` characters. */
const b64url = (max: number) =>
  text()
    .min(1)
    .max(max, `longer than ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

const transports = z
  .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
  .max(8)
  .optional();
const clientExtensionResults = z.record(z.string().max(64), z.unknown()).default({});
const attachment = z.enum(['platform', 'cross-platform']).optional();

/** AuthenticationResponseJSON (navigator.credentials.get). */
export const authenticationResponse = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(1024),
    userHandle: b64url(1024).optional(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults,
});

/** RegistrationResponseJSON (navigator.credentials.create), attestation 'none'. */
export const registrationResponse = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16384),
    authenticatorData: b64url(8192).optional(),
    transports,
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
  authenticatorAttachment: attachment,
  clientExtensionResults,
});

/** The options the browser is given (PublicKeyCredentialRequestOptionsJSON / CreationOptionsJSON). */
const publicKeyOptions = z.object({ challenge: z.string() }).passthrough();
export const passkeyOptionsRequest = z.object(base).optional();
export const passkeyOptionsData = z.object({ options: publicKeyOptions });

/**
 * The passkey's answer at sign-in or step-up: a `response` of the passkey prompt, or the `proof`
 * of the login screen's conditional mediation (login-assertion), for a login journey of the same
 * account and browser, once.
 */
export const passkeyAuthenticationRequest = z.union([
  z.object({ ...base, response: authenticationResponse, bindDevice: z.boolean().optional() }).strict(),
  z
    .object({
      ...base,
      proof: text().regex(/^[0-9a-f-]{36}$/i, 'proof must be a UUID'),
      bindDevice: z.boolean().optional(),
    })
    .strict(),
]);
export const passkeyAuthenticationData = z.object({
  authenticated: z.literal(true),
  factor: z.literal(PASSKEY_TYPE),
  steppedUpAt: z.string().optional(),
  trustedDeviceExpiresAt: z.string().optional(),
});

export const passkeyLoginAssertionRequest = z.object({ ...base, response: authenticationResponse }).strict();
export const passkeyLoginAssertionData = z.object({ username: z.string(), proof: z.string() });

/** A name the customer gives a passkey: 1-40 characters, no control characters. */
export const passkeyName = text()
  .trim()
  .min(1, 'name is required')
  .max(40, 'name is longer than 40 characters')
  .refine(
    (value) => !/[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u.test(value),
    'name has control characters',
  );
export const passkeyRegistrationRequest = z
  .object({ ...base, name: passkeyName, response: registrationResponse })
  .strict();
export const passkeyRegistrationData = z.object({ passkey: securityAppItem });

export type PasskeyAuthenticationRequest = z.infer<typeof passkeyAuthenticationRequest>;
export type PasskeyLoginAssertionData = z.infer<typeof passkeyLoginAssertionData>;
export type PasskeyRegistrationData = z.infer<typeof passkeyRegistrationData>;
