import {
  type DeviceProof,
  type DeviceProofPurpose,
  deviceProofMessage,
  fromBase64url,
  jwkThumbprint,
  type P256PublicKey,
  p256PublicKey,
} from '@gatehouse/contract';
import type { Clock } from '../../lib/clock.ts';

/**
 * Device keys (docs/decisions/022-push-and-device.md): a P-256 public key as a JWK, named by its RFC
 * 7638 thumbprint; signatures are ECDSA / SHA-256 in IEEE P1363 form (r||s), as WebCrypto makes them,
 * verified with Node's WebCrypto.
 */

const { subtle } = globalThis.crypto;
const encoder = new TextEncoder();

/** The stored form of a device key: the members the thumbprint reads, in its order. */
export const canonicalJwk = (key: P256PublicKey): string =>
  `{"crv":"${key.crv}","kty":"${key.kty}","x":"${key.x}","y":"${key.y}"}`;

/** A stored public part (JSON of a JWK) as a key, or undefined when it is not a P-256 public key. */
export function parsePublicPart(publicPart: string | null): P256PublicKey | undefined {
  if (!publicPart) return undefined;
  try {
    const parsed = p256PublicKey.safeParse(JSON.parse(publicPart));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const thumbprint = (key: P256PublicKey): Promise<string> => jwkThumbprint(key);

/**
 * Whether `signature` (base64url, 64 bytes r||s) is the key's signature over `message`. False for
 * anything that does not verify: a point off the curve, bytes that are not base64url, a wrong length.
 */
export async function verifySignature(
  key: P256PublicKey,
  message: string,
  signature: string,
): Promise<boolean> {
  try {
    const bytes = fromBase64url(signature);
    if (bytes.length !== 64) return false;
    const imported = await subtle.importKey(
      'jwk',
      { kty: key.kty, crv: key.crv, x: key.x, y: key.y, ext: true },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    return await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, imported, bytes, encoder.encode(message));
  } catch {
    return false;
  }
}

/** Whether the proof's time is within the window of the clock. */
export function proofTimely(proof: DeviceProof, clock: Clock, windowMs: number): boolean {
  const at = Date.parse(proof.time);
  return Number.isFinite(at) && Math.abs(clock.now().getTime() - at) <= windowMs;
}

/** A proof by `key` for `purpose`: timely, named by the key's thumbprint, and signed by it. */
export async function proofHolds(
  proof: DeviceProof,
  purpose: DeviceProofPurpose,
  key: P256PublicKey,
  clock: Clock,
  windowMs: number,
): Promise<boolean> {
  if (!proofTimely(proof, clock, windowMs)) return false;
  if ((await thumbprint(key)) !== proof.key) return false;
  return verifySignature(key, deviceProofMessage(purpose, proof.time, proof.key), proof.signature);
}
