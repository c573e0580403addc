import { appDefaults } from '@gatehouse/contract';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { defineSettings, int, list } from '../settings-kit.ts';

/**
 * The passkey's settings (its slice of the environment; docs/decisions/041-passkeys.md). The RP ID
 * is the registrable domain passkeys are bound to (W3C WebAuthn §5.1.2: a passkey made for one RP
 * ID never signs for another); the origins are the pages allowed to run the ceremonies.
 */
export const settings = defineSettings({
  title: 'Passkeys',
  schema: z.object({
    PASSKEY_RP_ID: z
      .string()
      .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as bank.example (no scheme, no port)')
      .default('localhost')
      .describe(
        'The relying party ID passkeys are bound to: the registrable domain of the pages (no scheme, no port). A passkey made for one RP ID never signs for another.',
      ),
    PASSKEY_RP_NAME: z
      .string()
      .min(1)
      .max(64)
      .default(appDefaults.portalAppName)
      .describe("The name the browser's passkey prompt shows. 1-64 characters."),
    PASSKEY_ORIGINS: list
      .pipe(z.array(z.url()))
      .default([])
      .describe(
        "Comma-separated origins allowed to run the ceremonies. Unset: PUBLIC_ORIGIN and ALLOWED_ORIGINS; outside production mode, when PUBLIC_ORIGIN is on this machine (localhost, 127.0.0.1), that host on any port (a development or test server's own port).",
      ),
    PASSKEY_CHALLENGE_SECONDS: int(1, 3600)
      .default(300)
      .describe('How long a challenge (and a login screen’s proof) may be answered; single use. 1-3600.'),
    PASSKEY_MAX_WRONG_TRIES: int(1, 100)
      .default(5)
      .describe('Assertions that do not verify (per account) before the passkey is blocked (1491). 1-100.'),
    PASSKEY_BLOCK_MINUTES: int(1, 24 * 60)
      .default(5)
      .describe('How long the passkey then stays blocked. 1-1440.'),
  }),
  read: (v, base) => ({
    rpId: v.PASSKEY_RP_ID.toLowerCase(),
    rpName: v.PASSKEY_RP_NAME,
    origins: [...new Set(v.PASSKEY_ORIGINS.map((o) => new URL(o).origin))],
    production: base.production,
    challengeMs: v.PASSKEY_CHALLENGE_SECONDS * 1000,
    maxWrongTries: v.PASSKEY_MAX_WRONG_TRIES,
    blockMs: v.PASSKEY_BLOCK_MINUTES * 60_000,
  }),
});

export type PasskeySettings = ReturnType<typeof settings.read>;

/** The passkey's settings, as config.ts composed them (`config.factors.passkey`). */
export const passkeySettingsOf = (config: Config) => config.factors.passkey as PasskeySettings;

const loopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

/**
 * The origins a ceremony's response may come from, given the origin its client data names:
 * PASSKEY_ORIGINS; without it the service's own (PUBLIC_ORIGIN, ALLOWED_ORIGINS), and, outside
 * production mode with PUBLIC_ORIGIN on this machine, that host on any port: a development or test
 * server listens on a port of its own (as the console's development origin does, config.ts). Never
 * an arbitrary origin: production mode takes only the configured ones.
 */
export function expectedOrigins(config: Config, claimed: string | undefined): string[] {
  const own = passkeySettingsOf(config);
  if (own.origins.length) return own.origins;
  const configured = [
    ...new Set([config.publicOrigin, ...config.allowedOrigins].map((o) => new URL(o).origin)),
  ];
  if (own.production || !claimed) return configured;
  try {
    const publicUrl = new URL(config.publicOrigin);
    const url = new URL(claimed);
    const samePlace =
      loopback(publicUrl.hostname) &&
      url.hostname === publicUrl.hostname &&
      url.protocol === publicUrl.protocol;
    return samePlace && url.origin === claimed ? [...configured, url.origin] : configured;
  } catch {
    return configured;
  }
}
