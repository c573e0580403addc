import { appDefaults } from '@gatehouse/contract';
import { z } from 'zod';
import type { Config } from '../../config.ts';

/**
 * The passkey's settings (its slice of the environment; docs/decisions/041-passkeys.md). The RP ID
 * is the registrable domain passkeys are bound to (W3C WebAuthn §5.1.2: a passkey made for one RP
 * ID never signs for another); the origins are the pages allowed to run the ceremonies. Without
 * PASSKEY_ORIGINS, the service's own origins (PUBLIC_ORIGIN and ALLOWED_ORIGINS; in development
 * http://localhost:8080).
 */
const positive = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);
const list = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().url()).min(1));

export const passkeySettings = z.object({
  PASSKEY_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as bank.example (no scheme, no port)')
    .default('localhost'),
  PASSKEY_RP_NAME: z.string().min(1).max(64).default(appDefaults.portalAppName),
  PASSKEY_ORIGINS: list.optional(),
  /** How long a challenge (and a login screen's proof) may be answered. */
  PASSKEY_CHALLENGE_SECONDS: positive(300, 3600),
  /** Assertions that do not verify before the passkey is blocked for PASSKEY_BLOCK_MINUTES. */
  PASSKEY_MAX_WRONG_TRIES: positive(5, 100),
  PASSKEY_BLOCK_MINUTES: positive(5, 1440),
});

export type PasskeySettings = {
  rpId: string;
  rpName: string;
  origins: string[];
  challengeMs: number;
  maxWrongTries: number;
  blockMs: number;
};

/** The passkey's settings from the environment; a bad one stops the start with its name. */
export function loadPasskeySettings(
  config: Config,
  env: Record<string, string | undefined> = process.env,
): PasskeySettings {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(passkeySettings.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const parsed = passkeySettings.safeParse(relevant);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid setting ${String(issue.path[0] ?? 'PASSKEY_*')}: ${issue.message}`);
  }
  const v = parsed.data;
  const origins = (v.PASSKEY_ORIGINS ?? [config.publicOrigin, ...config.allowedOrigins]).map(
    (o) => new URL(o).origin,
  );
  return {
    rpId: v.PASSKEY_RP_ID.toLowerCase(),
    rpName: v.PASSKEY_RP_NAME,
    origins: [...new Set(origins)],
    challengeMs: v.PASSKEY_CHALLENGE_SECONDS * 1000,
    maxWrongTries: v.PASSKEY_MAX_WRONG_TRIES,
    blockMs: v.PASSKEY_BLOCK_MINUTES * 60_000,
  };
}
