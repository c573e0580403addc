import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software authenticator for the API tests (W3C WebAuthn Level 3 §6): an ES256 key pair, a
 * credential ID, a signature counter, and the authenticatorData / clientDataJSON / attestation
 * 'none' a browser would hand the page, built byte by byte (@simplewebauthn exports no
 * authenticator). `origin` and `rpId` are what the browser would put in.
 */

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export type Options = { challenge: string; rpId?: string; rp?: { id?: string } };

export class SoftAuthenticator {
  readonly id: Uint8Array;
  private readonly privateKey: KeyObject;
  private readonly cose: Uint8Array;
  counter: number;
  /** Whether the user was verified (the UV flag). */
  userVerified = true;

  constructor(
    readonly origin: string,
    readonly rpId = 'localhost',
    options: { counter?: number } = {},
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    this.cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x as string)],
        [-3, isoBase64URL.toBuffer(jwk.y as string)],
      ]),
    );
    this.id = new Uint8Array(randomBytes(32));
    this.counter = options.counter ?? 0;
  }

  get credentialId(): string {
    return b64(this.id);
  }

  /** The COSE public key, base64url (what registration stores). */
  get publicKey(): string {
    return b64(this.cose);
  }

  private authData(withCredential: boolean): Uint8Array {
    const flags = FLAG_UP | (this.userVerified ? FLAG_UV : 0) | (withCredential ? FLAG_AT : 0);
    const count = new Uint8Array(4);
    new DataView(count.buffer).setUint32(0, this.counter);
    const parts: Uint8Array[] = [sha256(this.rpId), new Uint8Array([flags]), count];
    if (withCredential) {
      const length = new Uint8Array(2);
      new DataView(length.buffer).setUint16(0, this.id.length);
      parts.push(new Uint8Array(16), length, this.id, this.cose);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a RegistrationResponseJSON with attestation 'none'. */
  register(options: Options) {
    const authData = this.authData(true);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get(): an AuthenticationResponseJSON for the challenge; the counter
   * goes up first (unless `counter` sets it, as a clone would).
   */
  assert(challenge: string, options: { counter?: number; origin?: string } = {}) {
    this.counter = options.counter ?? this.counter + 1;
    const authData = this.authData(false);
    const clientDataJSON = this.clientData('webauthn.get', challenge, options.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(new Uint8Array(signature)),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
