import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption of credentials' secrets at rest (decision 021): AES-256-GCM under a key of the
 * configuration (CREDENTIAL_KEYS), a random 96-bit IV per value, and the credential's id and kind
 * (and the key id) as associated data, so a ciphertext copied to another row, another kind or
 * another key id does not decrypt.
 *
 * Stored form, one bytea: version (1 byte, 0x01) | IV (12 bytes) | ciphertext | tag (16 bytes);
 * the key id sits in a column of its own beside it. Nothing of the secret or the key is ever put
 * in an error message: errors name the credential and the key id only.
 */

const VERSION = 0x01;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

/** Key id -> 32-byte key, and the id that new secrets are written under. */
export type CredentialKeys = { current: string; keys: ReadonlyMap<string, Buffer> };

/** Where a ciphertext belongs: it decrypts only there. */
export type CredentialBinding = { id: string; kind: string };

/** A secret that cannot be read: its key is not configured, or it was not written for this row. */
export class CredentialSecretError extends Error {
  override name = 'CredentialSecretError';
  constructor(
    message: string,
    readonly credentialId: string,
    readonly keyId: string | null,
  ) {
    super(message);
  }
}

const associatedData = (binding: CredentialBinding, keyId: string) =>
  Buffer.from(`gatehouse/credential/v1\n${binding.id}\n${binding.kind}\n${keyId}`, 'utf8');

export class CredentialCipher {
  constructor(private readonly ring: CredentialKeys) {
    if (!ring.keys.has(ring.current))
      throw new Error(`The current credential key ${ring.current} is not configured`);
    for (const [id, key] of ring.keys) {
      if (key.length !== KEY_BYTES) throw new Error(`Credential key ${id} is not ${KEY_BYTES} bytes`);
    }
  }

  /** The key id new secrets are written under. */
  get currentKeyId(): string {
    return this.ring.current;
  }

  hasKey(keyId: string): boolean {
    return this.ring.keys.has(keyId);
  }

  /** Encrypts a secret for one credential under the current key. */
  encrypt(secret: Uint8Array, binding: CredentialBinding): { keyId: string; ciphertext: Buffer } {
    const keyId = this.ring.current;
    const key = this.ring.keys.get(keyId) as Buffer;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(binding, keyId));
    const body = Buffer.concat([cipher.update(secret), cipher.final()]);
    return { keyId, ciphertext: Buffer.concat([Buffer.of(VERSION), iv, body, cipher.getAuthTag()]) };
  }

  /** Decrypts a credential's secret; CredentialSecretError when it cannot (no key, wrong row, altered). */
  decrypt(ciphertext: Uint8Array, keyId: string, binding: CredentialBinding): Buffer {
    const key = this.ring.keys.get(keyId);
    if (!key) {
      throw new CredentialSecretError(
        `The secret of credential ${binding.id} is under key ${keyId}, which is not configured (CREDENTIAL_KEYS)`,
        binding.id,
        keyId,
      );
    }
    const data = Buffer.from(ciphertext);
    const unreadable = () =>
      new CredentialSecretError(
        `The secret of credential ${binding.id} does not decrypt under key ${keyId} (another key with that id, another row's ciphertext, or altered)`,
        binding.id,
        keyId,
      );
    if (data.length < 1 + IV_BYTES + TAG_BYTES || data[0] !== VERSION) throw unreadable();
    const iv = data.subarray(1, 1 + IV_BYTES);
    const tag = data.subarray(data.length - TAG_BYTES);
    const body = data.subarray(1 + IV_BYTES, data.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(binding, keyId));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      throw unreadable();
    }
  }
}
