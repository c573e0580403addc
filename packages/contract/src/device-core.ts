/**
 * The zod-free half of the device contract (device.ts has the schemas): what a device signs, the
 * RFC 7638 thumbprint of its key and base64url, for the device app through the browser entry
 * (client.ts, docs/decisions/006-bundle-budgets.md) and for the server through device.ts.
 */

/** What a device proof is for; `rename` and `remove` name the registration, `claim` the account. */
export type DeviceProofPurpose =
  | 'pushes'
  | 'stream'
  | 'register'
  | 'registrations'
  | `rename:${string}`
  | `remove:${string}`
  | `claim:${string}`;

export const pushDecisions = ['APPROVE', 'DECLINE', 'FRAUD'] as const;
export type PushDecision = (typeof pushDecisions)[number];

/** The text a device proof signs. */
export const deviceProofMessage = (purpose: DeviceProofPurpose, time: string, key: string) =>
  `gatehouse-device-v1\n${purpose}\n${time}\n${key}`;

/** How many digits the number of number matching has: the sign-in screen shows it, the device types it (decision 032). */
export const PUSH_NUMBER_DIGITS = 2;

/** The text an answer to a push signs (`number`: the matched number, '' when matching is off). */
export const pushAnswerMessage = (id: string, decision: PushDecision, number: string) =>
  `gatehouse-push-answer-v1\n${id}\n${decision}\n${number}`;

/** RFC 7638 thumbprint of a P-256 JWK (WebCrypto's SHA-256, in browsers and Node alike). */
export async function jwkThumbprint(key: { kty: 'EC'; crv: 'P-256'; x: string; y: string }): Promise<string> {
  const canonical = `{"crv":"${key.crv}","kty":"${key.kty}","x":"${key.x}","y":"${key.y}"}`;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return toBase64url(new Uint8Array(digest));
}

export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
