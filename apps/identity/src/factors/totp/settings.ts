import { limits } from '@gatehouse/contract';
import { z } from 'zod';
import { defineSettings, int } from '../settings-kit.ts';

/** The authenticator app (RFC 6238): skew in steps either way, wrong tries before the block, its length. */
export const settings = defineSettings({
  title: 'Authenticator app',
  schema: z.object({
    TOTP_SKEW_STEPS: int(0, 10)
      .default(1)
      .describe(
        "Time steps either way of the clock (the token's: its stored drift) whose code is accepted, for both apps. 0-10.",
      ),
    TOTP_MAX_WRONG_TRIES: int(1, 100)
      .default(5)
      .describe(
        'Wrong authenticator-app codes per account (across journeys and restarts; a right code resets the count). The one that reaches it answers 1491 (the TOTP block page) and ends the login journey. 1-100.',
      ),
    TOTP_BLOCK_MINUTES: int(1, 24 * 60)
      .default(limits.totpBlockMinutes)
      .describe(
        "How long the authenticator app then stays blocked: every code is refused with 1491, uncompared; then the count starts again. The block page's text names it. 1-1440.",
      ),
  }),
  read: (v) => ({
    skewSteps: v.TOTP_SKEW_STEPS,
    maxWrongTries: v.TOTP_MAX_WRONG_TRIES,
    blockMs: v.TOTP_BLOCK_MINUTES * 60_000,
  }),
});

export type TotpSettings = ReturnType<typeof settings.read>;
