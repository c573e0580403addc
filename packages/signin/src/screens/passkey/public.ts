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
export { passkeySecurityCalls } from './calls.ts';
export { ceremonyProblem } from './ceremony.ts';
