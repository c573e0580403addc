import { createHmac } from 'node:crypto';
import { KEY_BYTES } from './cipher.ts';

/**
 * The credential keys of the configuration: CREDENTIAL_KEYS is `id:base64,id:base64` (each key 32
 * random bytes, `openssl rand -base64 32`), CREDENTIAL_KEY_ID the id new secrets are written under.
 * Parsing never puts a key in a message: a bad entry is named by its position and id.
 */

/** Key ids: short, printable, no separators. */
const keyIdPattern = /^[A-Za-z0-9_-]{1,32}$/;
const base64Pattern = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/** The id of the key derived from the session secret outside production mode. */
export const DEVELOPMENT_KEY_ID = 'dev';

/** The development and test key: derived from the session secret, so it is stable across restarts. */
export function developmentCredentialKey(sessionSecret: string): Buffer {
  return createHmac('sha256', sessionSecret).update('gatehouse-credential-key-v1').digest();
}

/** Parses CREDENTIAL_KEYS; throws an Error whose message names the bad entry (never its key). */
export function parseCredentialKeys(text: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) throw new Error('must list at least one key as id:base64');
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    const encoded = colon > 0 ? entry.slice(colon + 1) : '';
    const where = keyIdPattern.test(id) ? `key ${id}` : `entry ${index + 1}`;
    if (!keyIdPattern.test(id)) {
      throw new Error(
        `${where} must be id:base64, the id of 1 to 32 letters, digits, - or _ (such as k1:<openssl rand -base64 32>)`,
      );
    }
    if (keys.has(id)) throw new Error(`${where} is listed twice`);
    const key = base64Pattern.test(encoded)
      ? Buffer.from(encoded, /[-_]/.test(encoded) ? 'base64url' : 'base64')
      : null;
    if (!key || key.length !== KEY_BYTES) {
      throw new Error(`${where} must be ${KEY_BYTES} bytes in base64 (openssl rand -base64 32)`);
    }
    keys.set(id, key);
  });
  return keys;
}

/**
 * Why a key is too weak for production, or null. Judged by its bytes: 32 random bytes have about 30
 * distinct values and are almost never all printable text; a key made of a password or a pattern
 * is refused (fewer than 16 distinct bytes, all printable ASCII, or a repeated pattern).
 */
export function credentialKeyWeakness(key: Buffer): string | null {
  const weak = 'is too weak: use 32 random bytes (openssl rand -base64 32)';
  if (new Set(key).size < 16) return weak;
  if (key.every((b) => b >= 0x20 && b < 0x7f)) return `${weak}; this one is printable text, not random bytes`;
  for (let period = 1; period <= key.length / 2; period++) {
    if (key.every((b, i) => i < period || b === key[i - period])) return weak;
  }
  return null;
}
