import { ConfigError, loadConfig } from '../config.ts';
import { openForTask } from '../db/database.ts';
import { describeError } from '../db/faults.ts';
import { systemClock } from '../lib/clock.ts';
import { CredentialCipher } from './cipher.ts';
import { CredentialStore } from './store.ts';

/**
 * `npm run credentials:rotate`: re-encrypts every credential secret under CREDENTIAL_KEY_ID
 * (docs/operations.md, "Rotating the credential key"). Run it with the new key current and the old
 * keys still in CREDENTIAL_KEYS; once it reports no failure, the old keys can be removed. Safe to
 * run while the service runs, and again: a secret already under the current key is left alone.
 * It prints counts, credential ids and key ids, never a secret or a key.
 */
try {
  const config = loadConfig();
  const db = await openForTask(config);
  try {
    const store = new CredentialStore(db, new CredentialCipher(config.credentialKeys), systemClock);
    const result = await store.rotate();
    console.log(`Re-encrypted ${result.reencrypted} credential secret(s) under key ${result.keyId}.`);
    for (const failure of result.failed) console.error(`Not re-encrypted: ${failure.reason}`);
    if (result.failed.length) {
      console.error(
        `${result.failed.length} secret(s) could not be read: keep their keys in CREDENTIAL_KEYS and run this again.`,
      );
      process.exitCode = 1;
    }
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Rotation failed: ${describeError(error)}`);
  process.exit(1);
}
