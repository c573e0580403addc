import { security } from '../messages/en.json';
/**
 * The portal's security page (issue 12; docs/decisions/025-security-page-api.md): the texts of its
 * calls' answers (securityMessages, part of serverMessages), the customer-facing line of each audit
 * event in the activity list, and the e-mail notice of a change. A module of its own: the login
 * routes never load it; the portal's security page imports it on demand.
 */
export const securityMessages = security;

/**
 * The customer-facing line of each audit event in the page's recent activity (by event name of
 * apps/identity/src/audit/audit.ts); an event without one shows `other`.
 */
export const securityActivityMessages = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in attempt with a wrong password',
  lockout: 'Sign-in locked after too many attempts',
  'factor-passed': 'Identity verified',
  'factor-failed': 'Incorrect security code entered',
  'factor-locked': 'Verification method blocked after too many attempts',
  'step-up': 'Identity verified again',
  'code-issued': 'Security code sent',
  'recovery-started': 'Account recovery started',
  'recovery-confirmed': 'Account recovery confirmed',
  'recovery-failed': 'Account recovery failed',
  'recovery-locked': 'Account recovery locked',
  'password-changed': 'Password changed',
  'username-changed': 'Username changed',
  'trusted-device-bound': 'Browser trusted',
  'trusted-device-revoked': 'Trusted browser removed',
  'sign-out': 'Signed out',
  'push-sent': 'Notification sent to your mobile device',
  'push-limited': 'Notification limit reached',
  'push-approved': 'Notification approved',
  'push-declined': 'Notification declined',
  'push-fraud': 'Notification reported as fraud',
  'push-expired': 'Notification expired',
  'device-registered': 'Mobile device added',
  'device-renamed': 'Mobile device renamed',
  'device-removed': 'Mobile device removed',
  'token-resynced': 'Token app re-synced',
  'token-resync-failed': 'Token app re-sync failed',
  'security.authenticator-added': 'Authenticator app added',
  'security.authenticator-failed': 'Incorrect code while adding an authenticator app',
  'security.credential-removed': 'Verification method removed',
  'security.contact-code-sent': 'Code sent to a new phone number or email address',
  'security.contact-added': 'Phone number or email address added',
  'security.contact-failed': 'Incorrect code while adding a phone number or email address',
  'security.contact-removed': 'Phone number or email address removed',
  'security.trusted-browser-revoked': 'Trusted browser removed',
  'security.session-ended': 'Signed-in session ended',
  other: 'Security event',
} as const;
export type SecurityActivityEvent = Exclude<keyof typeof securityActivityMessages, 'other'>;

/**
 * The e-mail notice of a change (never a secret or a code): subject, the change (one line of
 * `changes`), when, and what to do if it wasn't the customer.
 */
export const securityNoticeMessages = {
  subject: 'A change was made to your security settings',
  /** {0} the change (a line of `changes`), {1} the time (UTC). */
  body: 'A change was made to your security settings: {0}, on {1}.',
  /** {0} the support phone number. */
  notYou: "If this wasn't you, call {0}.",
  changes: {
    authenticatorAdded: 'an authenticator app was added',
    credentialRemoved: 'a verification method was removed',
    contactAdded: 'a phone number or email address was added',
    contactRemoved: 'a phone number or email address was removed',
    trustedBrowserRevoked: 'a trusted browser was removed',
    trustedBrowsersRevoked: 'every trusted browser was removed',
    sessionEnded: 'a signed-in session was ended',
    otherSessionsEnded: 'your other signed-in sessions were ended',
  },
} as const;
export type SecurityChange = keyof typeof securityNoticeMessages.changes;
