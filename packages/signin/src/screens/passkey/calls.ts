import type { AuthenticatorItem } from '@gatehouse/contract/client';
import { PASSKEY_TYPE, passkeySignInPaths as passkeyPaths } from '@gatehouse/contract/factors/passkey-paths';

/** The factor's authenticator type (the contract's PASSKEY_TYPE). */
export const passkeyType = PASSKEY_TYPE satisfies AuthenticatorItem['type'];

/**
 * The passkey's calls (passkey API): method, path, and the factor a step-up names in its header.
 * The paths come from the contract's passkey-paths.ts: the entry is on the login route, where the
 * contract's passkey schemas would add about 28 KB gzip and its tables, docs and texts about 2 KB
 * (decision 041b).
 */
export const passkeyCalls = {
  passkeyOptions: { method: 'POST', path: passkeyPaths.passkeyOptions, factor: passkeyType },
  passkeyAuthentication: { method: 'POST', path: passkeyPaths.passkeyAuthentication, factor: passkeyType },
  passkeyLoginOptions: { method: 'POST', path: passkeyPaths.passkeyLoginOptions },
  passkeyLoginAssertion: { method: 'POST', path: passkeyPaths.passkeyLoginAssertion },
} as const satisfies Record<string, { method: 'POST'; path: string; factor?: string }>;

export type PasskeyCall = keyof typeof passkeyCalls;
