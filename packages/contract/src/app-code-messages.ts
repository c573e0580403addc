/**
 * The authenticator app (TOTP) and the token app (widget spec §2 TOTP, token and resync screens,
 * §8): part of the catalog in messages.ts, in a module of their own so that the login routes never
 * carry them (a bundler places whole modules in chunks).
 */
export const appCodeMessages = {
  /** 1491 of the authenticator app: the TOTP block page's text (widget spec §2); {0} the minutes. */
  totpBlocked:
    'Sorry, your account has been temporarily blocked due to too many attempts. Please try again {0} minutes from the time you first saw this message.',
  /** 1491 of the token app: the widget goes to the resync screen (widget spec §4 "Token flow"). */
  tokenSyncRequired: 'We need to re-sync',
  /** 1200 of the resync: the drift is stored; the widget follows redirectPath to the token screen. */
  tokenResynced: 'Your security code app is in sync again.',
  /** 1204: the account has no such app, or cannot use it; the widget goes to the representative page. */
  appCodeUnavailable: 'This verification method is not available for your account.',
} as const;
