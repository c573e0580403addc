/**
 * The passkey's type and paths, and nothing else: all a login route reads of the passkey's contract
 * (the widget's entry). passkey-calls.ts (its tables, docs and texts) and passkey.ts (its schemas)
 * re-export them; a login route importing those would carry their tables and texts too, as a module
 * is bundled whole where any page reads all of it (docs/decisions/041b-passkeys-client.md).
 */

export const PASSKEY_TYPE = 'PASSKEY' as const;

/** The sign-in and step-up paths (the widget's entry). */
export const passkeySignInPaths = {
  /** Sign-in or step-up (the journey of the session cookie): a challenge for this journey. */
  passkeyOptions: '/user/factor/passkey/options',
  passkeyAuthentication: '/user/factor/passkey/authentication',
  /** The login screen, before the password (conditional mediation): a challenge bound to the browser. */
  passkeyLoginOptions: '/user/factor/passkey/login-options',
  passkeyLoginAssertion: '/user/factor/passkey/login-assertion',
} as const;

/** The security page's paths (registration): the portal's passkey section. */
export const passkeySecurityPaths = {
  securityPasskeyOptions: '/user/security/passkeys/options',
  securityPasskeys: '/user/security/passkeys',
} as const;
