import type { AuthenticatorItem } from '@gatehouse/contract/client';

/** The factor's authenticator type (the contract's PASSKEY_TYPE). */
export const passkeyType = 'PASSKEY' satisfies AuthenticatorItem['type'];

/**
 * The passkey's calls (passkey API): method, path, and the factor a step-up names in its header.
 * The paths are the contract's `passkeyPaths` (calls.test.ts holds them equal), written out here
 * because the entry is on the login route and the contract's passkey module carries its zod
 * schemas, which would add about 28 KB gzip to it (decision 041b).
 */
export const passkeyCalls = {
  passkeyOptions: { method: 'POST', path: '/user/factor/passkey/options', factor: passkeyType },
  passkeyAuthentication: { method: 'POST', path: '/user/factor/passkey/authentication', factor: passkeyType },
  passkeyLoginOptions: { method: 'POST', path: '/user/factor/passkey/login-options' },
  passkeyLoginAssertion: { method: 'POST', path: '/user/factor/passkey/login-assertion' },
} as const satisfies Record<string, { method: 'POST'; path: string; factor?: string }>;

export type PasskeyCall = keyof typeof passkeyCalls;

/** The security page's passkey calls (the contract's `securityPasskeyOptions`, `securityPasskeyAdd`). */
export const passkeySecurityCalls = {
  securityPasskeyOptions: { method: 'POST', path: '/user/security/passkeys/options' },
  securityPasskeyAdd: { method: 'POST', path: '/user/security/passkeys' },
} as const;
