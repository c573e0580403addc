import { passkeySecurityPaths as passkeyPaths } from '@gatehouse/contract/factors/passkey-paths';

/**
 * What the passkey folder offers other packages (`@gatehouse/signin/factors/passkey`): the
 * portal's security page registers a passkey with the browser's ceremony from here, so it needs
 * no WebAuthn library of its own.
 */
export {
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  startRegistration,
} from '@simplewebauthn/browser';
export { ceremonyProblem } from './ceremony.ts';

/**
 * The security page's passkey calls (the contract's `securityPasskeyOptions`, `securityPasskeyAdd`), here, not in
 * calls.ts: the widget's login route carries that file.
 */
export const passkeySecurityCalls = {
  securityPasskeyOptions: { method: 'POST', path: passkeyPaths.securityPasskeyOptions },
  securityPasskeyAdd: { method: 'POST', path: passkeyPaths.securityPasskeys },
} as const;
