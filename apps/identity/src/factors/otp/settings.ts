import { createHmac } from 'node:crypto';
import { limits } from '@gatehouse/contract';
import { z } from 'zod';
import { DEVELOPMENT_SECRET, defineSettings, int, secretWeakness } from '../settings-kit.ts';

/** One-time codes (text, voice, e-mail; recovery shares them): life, wrong tries, sends before the block, send limits, the HMAC pepper. */
export const settings = defineSettings({
  title: 'One-time codes',
  schema: z.object({
    OTP_EXPIRY_MINUTES: int(1, 24 * 60)
      .default(limits.otpExpiryMinutes)
      .describe('A one-time code expires this long after it is sent. 1-1440.'),
    OTP_MAX_WRONG_TRIES: int(1, 100)
      .default(limits.otpMaxWrongTries)
      .describe(
        'Wrong codes per account and channel (counted across resends, flows and restarts; a correct code resets it). The one that reaches it locks the recovery channel for `RECOVERY_LOCK_MINUTES` (1491), never the sign-in. 1-100.',
      ),
    OTP_SENDS_BEFORE_BLOCK: int(1, 100)
      .default(limits.emailOtpSendsBeforeBlock)
      .describe(
        "Codes sent without a correct one entered; the next send locks the account's recovery channel for `RECOVERY_LOCK_MINUTES` and answers 1491 (portal spec §9: blocked after 3 sends without entry). The account's sign-in is never locked by it. 1-100.",
      ),
    OTP_SEND_CLIENT_MAX: int(1, 100000)
      .default(60)
      .describe(
        'Code sends per client address per window (then 429): room for a bank branch or an office behind one address (decision 051); each account, number and country keeps its own limits.',
      ),
    OTP_SEND_ACCOUNT_MAX: int(1, 10000)
      .default(5)
      .describe('Code sends per account per window, from any address (then 429).'),
    OTP_SEND_WINDOW_SECONDS: int(1, 86400).default(900).describe('Window of both send limits.'),
    OTP_PEPPER: z.string().min(32, 'must be at least 32 characters').optional().meta({
      description:
        'Key of the HMAC-SHA-256 under which codes are stored. At least 32 characters. Changing it (or `SESSION_SECRET` when unset) makes the codes outstanding at that moment fail.',
      shownDefault: 'derived from `SESSION_SECRET`',
    }),
  }),
  read: (v, base) => ({
    expiryMs: v.OTP_EXPIRY_MINUTES * 60_000,
    maxWrongTries: v.OTP_MAX_WRONG_TRIES,
    sendsBeforeBlock: v.OTP_SENDS_BEFORE_BLOCK,
    /** Key of the HMAC that one-time codes are stored under (never the code itself). */
    pepper:
      v.OTP_PEPPER ??
      createHmac('sha256', base.sessionSecret).update('gatehouse-otp-pepper-v1').digest('hex'),
    send: {
      client: { max: v.OTP_SEND_CLIENT_MAX, windowMs: v.OTP_SEND_WINDOW_SECONDS * 1000 },
      account: { max: v.OTP_SEND_ACCOUNT_MAX, windowMs: v.OTP_SEND_WINDOW_SECONDS * 1000 },
    },
  }),
  productionChecks: (v, stop) => {
    if (v.OTP_PEPPER === undefined) return;
    if (v.OTP_PEPPER.includes(DEVELOPMENT_SECRET))
      stop('OTP_PEPPER', 'is the development value published in the source');
    const weakness = secretWeakness(v.OTP_PEPPER);
    if (weakness) stop('OTP_PEPPER', weakness);
  },
});

export type OtpSettings = ReturnType<typeof settings.read>;
