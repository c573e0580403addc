import { passkey } from '../../messages/en.json';
import {
  fail,
  incorrectCodeServer,
  noSession,
  ok,
  securityError,
  securityGuard,
  success,
  toRep,
} from '../outcome-builders.ts';
import type { OutcomeTable } from '../outcomes.ts';
import { Status } from '../status.ts';
import { PASSKEY_TYPE, passkeySecurityPaths, passkeySignInPaths } from './passkey-paths.ts';

/**
 * The passkey's server texts, outcome tables and their docs (and its type and paths, from
 * passkey-paths.ts), with no schema: what the contract composes (factors/index.ts) and the passkey
 * screen reads, without the zod schemas of passkey.ts, which re-exports all of this
 * (docs/decisions/041b-passkeys-client.md). No login route imports it (its entry reads
 * passkey-paths.ts; the clients' generic tables are the core's). Nothing here may import zod.
 */

export { PASSKEY_TYPE, passkeySecurityPaths, passkeySignInPaths };

/** Every passkey path: sign-in and step-up, and the security page's registration. */
export const passkeyPaths = { ...passkeySignInPaths, ...passkeySecurityPaths } as const;

/** The server's texts of the passkey calls (catalog group `passkey`, English and Spanish). */
export const passkeyMessages = passkey;

// --- outcome tables --------------------------------------------------------------------------------
const refused = incorrectCodeServer;

export const passkeyOutcomeTables = {
  passkeyOptions: {
    method: 'POST',
    path: passkeyPaths.passkeyOptions,
    codes: {
      1200: ok('success', success),
      1204: fail(['appCodeUnavailable', 'passkeyHeld'], toRep),
      4401: noSession,
    },
  },
  passkeyAuthentication: {
    method: 'POST',
    path: passkeyPaths.passkeyAuthentication,
    codes: {
      1200: ok('factorVerified', success),
      // passkeyHeld: held after repeated blocks until a recovery or the console (decision 033).
      1204: fail(['appCodeUnavailable', 'passkeyHeld'], toRep),
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

// --- the factor contract's parts (factor-contracts.ts composes them; factors/index.ts lists this file) --
export const types = [PASSKEY_TYPE] as const;
export const paths = passkeyPaths;
export const outcomeTables = passkeyOutcomeTables;
export const securityOutcomeTables = passkeySecurityOutcomeTables;
export const outcomeDocs = passkeyOutcomeDocs;
export const serverMessages = passkeyMessages;
