/**
 * What a browser ceremony's failure means for the customer (navigator.credentials.get or create,
 * through @simplewebauthn/browser, which keeps the DOMException's name):
 * - 'cancelled': NotAllowedError, the customer closed the prompt or it timed out (WebAuthn §5.1.4);
 * - 'aborted': our own abort (a newer request replaced it): nothing to say;
 * - 'exists': InvalidStateError on create, this authenticator already holds one of the account's;
 * - 'unavailable': anything else (no WebAuthn, an RP ID this page cannot use, the device failed).
 */
export type CeremonyProblem = 'cancelled' | 'aborted' | 'exists' | 'unavailable';

export function ceremonyProblem(error: unknown): CeremonyProblem {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return 'aborted';
  if (name === 'NotAllowedError') return 'cancelled';
  if (name === 'InvalidStateError') return 'exists';
  return 'unavailable';
}
