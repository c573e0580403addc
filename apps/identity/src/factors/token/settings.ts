import { limits } from '@gatehouse/contract';
import { z } from 'zod';
import { defineSettings, int } from '../settings-kit.ts';

/** The token app: wrong codes per journey before the resync, its look-ahead window (RFC 4226 §7.4), wrong resyncs before 1493, the account-wide block. */
export const settings = defineSettings({
  title: 'Token app',
  schema: z.object({
    TOKEN_FAILURES_BEFORE_SYNC: int(1, 100)
      .default(limits.tokenFailuresBeforeSync)
      .describe(
        'Wrong token codes per journey before the answer is 1491, which sends the widget to its resync screen (widget spec §9); further codes of the journey answer the same until a resync succeeds. 1-100.',
      ),
    TOKEN_RESYNC_WINDOW_MINUTES: int(1, 60)
      .default(5)
      .describe(
        "The resync's window (RFC 4226 §7.4): minutes either way of the token's clock (the server's plus the stored drift; 10 steps each way at 30 s) searched for the two consecutive codes. Both must be newer than the last accepted step; the first is recorded as accepted, so the token's current code then signs in once. Replaces `TOKEN_RESYNC_WINDOW` (steps; 100 accepted codes 50 minutes old), which is no longer read. 1-60.",
      ),
    TOKEN_SYNC_MAX_TRIES: int(1, 100)
      .default(3)
      .describe('Failed resyncs per journey before the answer is 1493 (the representative page). 1-100.'),
    TOKEN_MAX_WRONG_TRIES: int(1, 100)
      .default(5)
      .describe(
        "Wrong token codes and failed resyncs per account, across journeys and restarts (a right code or resync resets the count). The one that reaches it blocks the token: 1204 ('temporarily blocked', the representative page). 1-100.",
      ),
    TOKEN_BLOCK_MINUTES: int(1, 24 * 60)
      .default(5)
      .describe(
        'How long the token then stays blocked: every code and resync is refused, uncompared; then the count starts again (and the block counts towards `FACTOR_BLOCKS_BEFORE_HOLD`). 1-1440.',
      ),
  }),
  read: (v) => ({
    failuresBeforeSync: v.TOKEN_FAILURES_BEFORE_SYNC,
    /** How far either way of the token's clock a resync looks. */
    resyncWindowMs: v.TOKEN_RESYNC_WINDOW_MINUTES * 60_000,
    syncMaxTries: v.TOKEN_SYNC_MAX_TRIES,
    /** Wrong codes and resyncs of the account's token (across journeys) before it is blocked, and for how long. */
    maxWrongTries: v.TOKEN_MAX_WRONG_TRIES,
    blockMs: v.TOKEN_BLOCK_MINUTES * 60_000,
  }),
});

export type TokenSettings = ReturnType<typeof settings.read>;
