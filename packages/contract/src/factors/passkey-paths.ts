/**
 * The passkey's type and paths, with no schema: what the widget's login route imports (its entry's
 * call table) without the zod schemas of passkey.ts, which re-exports them
 * (docs/decisions/041b-passkeys-client.md). Nothing here may import zod.
 */

export const PASSKEY_TYPE = 'PASSKEY' as const;

export const passkeyPaths = {
  /** Sign-in or step-up (the journey of the session cookie): a challenge for this journey. */
  passkeyOptions: '/user/factor/passkey/options',
  passkeyAuthentication: '/user/factor/passkey/authentication',
  /** The login screen, before the password (conditional mediation): a challenge bound to the browser. */
  passkeyLoginOptions: '/user/factor/passkey/login-options',
  passkeyLoginAssertion: '/user/factor/passkey/login-assertion',
  /** The security page: registration. */
  securityPasskeyOptions: '/user/security/passkeys/options',
  securityPasskeys: '/user/security/passkeys',
} as const;
