import {
  type DeviceProofPurpose,
  deviceProofMessage,
  jwkThumbprint,
  type P256PublicKey,
  type PushDecision,
  pushAnswerMessage,
  toBase64url,
} from '@gatehouse/contract/client';
import type { KeyStore, RememberedAccount } from './keyStore.ts';

export type DeviceProof = { key: string; time: string; signature: string };

/**
 * The device's identity (docs/decisions/022-push-and-device.md): one P-256 key pair per browser
 * installation, the private key non-extractable. Only the public key leaves it, as a JWK; proofs
 * and answers are signatures, which go in request bodies only (never a URL, a log or web storage).
 */
export type DeviceKey = {
  publicKey: P256PublicKey;
  /** RFC 7638 thumbprint of the public key: the device's name on the server. */
  thumbprint: string;
  proof(purpose: DeviceProofPurpose): Promise<DeviceProof>;
  /** The signature of an answer to a push, over pushAnswerMessage. */
  signAnswer(id: string, decision: PushDecision, number: string): Promise<string>;
  /** The accounts the device last read as its own, kept beside the key (KeyStore). */
  accounts?: { get(): Promise<RememberedAccount[]>; set(list: RememberedAccount[]): Promise<void> };
};

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** The stored key pair, or a new one stored first. */
export async function loadDeviceKey(store: KeyStore, now: () => Date = () => new Date()): Promise<DeviceKey> {
  const pair =
    (await store.get()) ??
    (await store.addIfAbsent(
      (await crypto.subtle.generateKey(ECDSA, false, ['sign', 'verify'])) as CryptoKeyPair,
    ));
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const publicKey: P256PublicKey = { kty: 'EC', crv: 'P-256', x: jwk.x ?? '', y: jwk.y ?? '' };
  const thumbprint = await jwkThumbprint(publicKey);
  const sign = async (text: string) =>
    toBase64url(
      new Uint8Array(await crypto.subtle.sign(SIGN, pair.privateKey, new TextEncoder().encode(text))),
    );
  return {
    publicKey,
    thumbprint,
    async proof(purpose) {
      const time = now().toISOString();
      return { key: thumbprint, time, signature: await sign(deviceProofMessage(purpose, time, thumbprint)) };
    },
    signAnswer: (id, decision, number) => sign(pushAnswerMessage(id, decision, number)),
    accounts: { get: () => store.getAccounts(), set: (list) => store.setAccounts(list) },
  };
}
