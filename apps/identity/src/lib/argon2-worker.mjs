// The argon2id worker of the password pool (passwords.ts): plain JavaScript, so that it loads
// without a TypeScript loader in any runner. Each call blocks this worker thread only.
import { hashSync, verifySync } from '@node-rs/argon2';

/** argon2id hash of a password with the given options (algorithm 2 is argon2id). */
export function hash({ password, options }) {
  return hashSync(password, { ...options, algorithm: 2 });
}

/** Whether the password matches the stored hash; false for a hash that cannot be read. */
export function verify({ storedHash, password }) {
  try {
    return verifySync(storedHash, password);
  } catch {
    return false;
  }
}
