import { Status } from '@gatehouse/contract/client';
import {
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import type { ApiClient } from '../../api/client.ts';
import { holdProof } from './proof.ts';
import { passkeyCall } from './request.ts';

/**
 * Conditional mediation on the login screen (decision 041b): where the browser offers it, the
 * username field's autofill lists the saved passkeys; choosing one fills the username (the customer
 * still types the password: the login screen of the spec is unchanged) and holds the proof in
 * memory for the passkey step of this login. Nothing shows and nothing changes when the browser
 * cannot, the customer ignores it, or the server refuses: the login screen is the spec's.
 * Returns the stop for the pending request (the login screen is left).
 */
export function startConditional(
  client: ApiClient,
  idPrefix: string,
  setUsername: (name: string) => void,
): () => void {
  let live = true;
  let pending = false;
  void (async () => {
    if (!(await browserSupportsWebAuthnAutofill())) return;
    const options = await passkeyCall<{ options: PublicKeyCredentialRequestOptionsJSON }>(
      client,
      'passkeyLoginOptions',
    );
    const optionsJSON = options.envelope?.successData?.options;
    if (!live || options.status.code !== Status.SUCCESS || !optionsJSON) return;
    pending = true;
    const response = await startAuthentication({ optionsJSON, useBrowserAutofill: true }).finally(() => {
      pending = false;
    });
    if (!live) return;
    const answer = await passkeyCall<{ username?: string; proof?: string }>(client, 'passkeyLoginAssertion', {
      body: { response },
    });
    const data = answer.envelope?.successData;
    if (!live || answer.status.code !== Status.SUCCESS || !data?.username || !data.proof) return;
    holdProof(idPrefix, data.proof);
    setUsername(data.username);
  })().catch(() => undefined); // Autofill is a convenience: the form works without it.
  return () => {
    live = false;
    // The request waiting in the autofill ends with the login screen (a modal one is not ours).
    if (pending) WebAuthnAbortService.cancelCeremony();
  };
}
