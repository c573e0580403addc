import { z } from 'zod';
import { passkey } from '../../messages/en.json';
import type { ClientAction, Codes, Outcome, OutcomeTable } from '../outcomes.ts';
import { text } from '../schemas.ts';
import { securityAppItem } from '../security.ts';
import { Status } from '../status.ts';
import { PASSKEY_TYPE, passkeyPaths } from './passkey-paths.ts';

/**
 * The passkey factor (WebAuthn; docs/decisions/041-passkeys.md): its paths (passkey-paths.ts, zod-free
 * for the widget's login route), call schemas, outcome tables, their one-line docs and its texts, in one file importable as
 * `@gatehouse/contract/factors/passkey`. The WebAuthn JSON shapes are the ones
 * @simplewebauthn/browser sends and @simplewebauthn/server reads (W3C WebAuthn Level 3 §5.1, "JSON
 * serialisation"); every field is bounded so a hostile body is the 400 envelope, never a 500.
 */

export { PASSKEY_TYPE, passkeyPaths };

/** The server's texts of the passkey calls (catalog group `passkey`, English and Spanish). */
export const passkeyMessages = passkey;

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

// --- outcome tables --------------------------------------------------------------------------------
// The builders of outcomes.ts, here again: outcomes.ts takes these tables into its own, so this
// file may not read it at load time.
const success = { kind: 'SUCCESS' } as const;
const ok = (message: Outcome['message'], action?: ClientAction): Outcome =>
  action ? { http: 200, message, action } : { http: 200, message };
const fail = (message: Outcome['message'], action?: ClientAction, http = 200): Outcome =>
  action ? { http, message, failure: true, action } : { http, message, failure: true };
const error = (name: 'incorrectCode' | 'securityRefused' | 'stepUpRequired', server?: true): ClientAction =>
  server ? { kind: 'ERROR', error: name, server } : { kind: 'ERROR', error: name };
const toRep = { kind: 'REDIRECT', to: 'authenticatorRep' } as const;
const noSession = fail(
  ['sessionExpired'],
  { kind: 'REDIRECT', to: 'error', state: { reason: 'unauthorized' } },
  401,
);
const refused = error('incorrectCode', true);
const securityError = error('securityRefused', true);
const securityGuard: Codes = {
  1412: fail('stepUpRequired', error('stepUpRequired'), 403),
  4401: fail('sessionExpired', undefined, 401),
};

export const passkeyOutcomeTables = {
  passkeyOptions: {
    method: 'POST',
    path: passkeyPaths.passkeyOptions,
    codes: {
      1200: ok('success', success),
      1204: fail('appCodeUnavailable', toRep),
      4401: noSession,
    },
  },
  passkeyAuthentication: {
    method: 'POST',
    path: passkeyPaths.passkeyAuthentication,
    codes: {
      1200: ok('factorVerified', success),
      1204: fail('appCodeUnavailable', toRep),
      1403: fail('passkeyNotRecognized', refused),
      1428: fail(['passkeyChallengeExpired', 'passkeyNotVerified'], refused),
      1491: fail('passkeyBlocked', toRep),
      1401: fail('noLoginInProgress', undefined, 401),
      4401: noSession,
    },
  },
  passkeyLoginOptions: {
    method: 'POST',
    path: passkeyPaths.passkeyLoginOptions,
    codes: { 1200: ok('success', success) },
  },
  passkeyLoginAssertion: {
    method: 'POST',
    path: passkeyPaths.passkeyLoginAssertion,
    codes: {
      1200: ok('success', success),
      1403: fail('passkeyNotRecognized', refused),
      1428: fail(['passkeyChallengeExpired', 'passkeyNotVerified'], refused),
    },
  },
} as const satisfies Record<string, OutcomeTable>;

/** The security page's passkey calls: part of securityOutcomeTables (security-outcomes.ts). */
export const passkeySecurityOutcomeTables = {
  securityPasskeyOptions: {
    method: 'POST',
    path: passkeyPaths.securityPasskeyOptions,
    codes: { 1200: ok('success', success), 1491: fail('capApps', securityError), ...securityGuard },
  },
  securityPasskeyAdd: {
    method: 'POST',
    path: passkeyPaths.securityPasskeys,
    codes: {
      1200: ok('passkeyAdded', success),
      1409: fail('passkeyExists', securityError),
      1428: fail(['passkeyChallengeExpired', 'passkeyNotVerified'], securityError),
      1491: fail('capApps', securityError),
      ...securityGuard,
    },
  },
} as const satisfies Record<string, OutcomeTable>;
export type PasskeyCallName = keyof typeof passkeyOutcomeTables | keyof typeof passkeySecurityOutcomeTables;

const challengeDoc =
  "1428 'passkeyChallengeExpired': no challenge of this journey (or browser) matches: it was used, it expired (PASSKEY_CHALLENGE_SECONDS) or it was issued for another journey; 'passkeyNotVerified': the signature, origin (PASSKEY_ORIGINS), RP ID (PASSKEY_RP_ID) or user verification did not check out";
const stepUpDoc = 'No step-up within SECURITY_STEPUP_MINUTES (HTTP 403)';

/** The one-line description of each code of the passkey's tables (docs/api.md, the OpenAPI document): part of outcomeDocs. */
export const passkeyOutcomeDocs: Record<PasskeyCallName, Readonly<Record<number, string>>> = {
  passkeyOptions: {
    [Status.SUCCESS]:
      "successData { options }: PublicKeyCredentialRequestOptionsJSON with a fresh single-use challenge bound to this journey (PASSKEY_CHALLENGE_SECONDS), allowCredentials the account's passkeys usable for it (a recent one signs in, never a step-up), userVerification 'required'",
    [Status.REDIRECT_REP]: 'The account has no passkey usable for this journey',
    [Status.UNAUTHENTICATED]: 'No login transaction with a factor due and no signed-in session (HTTP 401)',
  },
  passkeyAuthentication: {
    [Status.SUCCESS]:
      "The passkey's assertion (or the login screen's proof) checks out: the login signs in, a step-up records the factor (steppedUpAt); the proof is phishing-resistant (session_factors); bindDevice (login) trusts the device",
    [Status.REDIRECT_REP]: 'The account has no passkey usable for this journey',
    [Status.FORBIDDEN]:
      "'passkeyNotRecognized': the credential is not one of this account's passkeys usable for this journey, its counter went backwards (a clone: audited passkey-counter-regressed, the passkey is suspended), or the proof is not this account's, browser's, unused and unexpired",
    [Status.INCORRECT_CODE]: challengeDoc,
    [Status.LIMIT_REACHED]:
      'PASSKEY_MAX_WRONG_TRIES assertions that did not verify: the passkey is blocked for PASSKEY_BLOCK_MINUTES (the login journey ends)',
    [Status.BLOCKED]: 'Another request finished this journey first',
    [Status.UNAUTHENTICATED]: 'No login transaction with a factor due and no signed-in session (HTTP 401)',
  },
  passkeyLoginOptions: {
    [Status.SUCCESS]:
      'successData { options } with empty allowCredentials, for conditional mediation on the login screen; the challenge is bound to this browser by the HttpOnly passkey_login cookie (PASSKEY_CHALLENGE_SECONDS, single use); rate limited per address',
  },
  passkeyLoginAssertion: {
    [Status.SUCCESS]:
      "successData { username, proof }: the passkey's account, and a single-use proof that completes the passkey factor of that account's login journey from this browser (PASSKEY_CHALLENGE_SECONDS)",
    [Status.FORBIDDEN]:
      "'passkeyNotRecognized': no active account holds this passkey for sign-in, or its counter went backwards",
    [Status.INCORRECT_CODE]: challengeDoc,
  },
  securityPasskeyOptions: {
    [Status.SUCCESS]:
      "successData { options }: PublicKeyCredentialCreationOptionsJSON, attestation 'none', a resident key and user verification required, excludeCredentials the account's passkeys, an opaque user handle",
    [Status.LIMIT_REACHED]: 'The account holds CREDENTIAL_MAX_APPS authenticator apps, tokens and passkeys',
    [Status.STEP_UP_REQUIRED]: stepUpDoc,
    [Status.UNAUTHENTICATED]: 'No signed-in session (HTTP 401)',
  },
  securityPasskeyAdd: {
    [Status.SUCCESS]:
      'The passkey is a credential of the account (kind passkey), named by the customer: successData { passkey }; an audit event and an e-mail notice',
    [Status.CONTACT_EXISTS]: 'This passkey is registered already',
    [Status.INCORRECT_CODE]: challengeDoc,
    [Status.LIMIT_REACHED]: 'The account holds CREDENTIAL_MAX_APPS authenticator apps, tokens and passkeys',
    [Status.STEP_UP_REQUIRED]: stepUpDoc,
    [Status.UNAUTHENTICATED]: 'No signed-in session (HTTP 401)',
  },
};
