import { mail, security } from '../messages/en.json';
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
  'code-delivery-failed': 'Security code could not be delivered',
  'recovery-started': 'Account recovery started',
  'recovery-confirmed': 'Account recovery confirmed',
  'recovery-failed': 'Account recovery failed',
  'recovery-locked': 'Account recovery locked',
  'lock-lifted': 'A lock after wrong attempts lifted by your own sign-in',
  'password-changed': 'Password changed',
  'username-changed': 'Username changed',
  'trusted-device-bound': 'Browser trusted',
  'trusted-device-revoked': 'Trusted browser removed',
  'sign-out': 'Signed out',
  'push-sent': 'Notification sent to your mobile device',
  'push-limited': 'Notification limit reached',
  'push-approved': 'Notification approved',
  'push-declined': 'Notification declined',
  'push-wrong-number': 'Notification stopped: the number typed did not match',
  'push-fraud': 'Notification reported as fraud',
  'push-expired': 'Notification expired',
  'device-registered': 'Mobile device added',
  'device-renamed': 'Mobile device renamed',
  'device-removed': 'Mobile device removed',
  'token-resynced': 'Token app re-synced',
  'token-resync-failed': 'Token app re-sync failed',
  'factor-held': 'Verification method blocked until you recover your account or call us',
  'factor-hold-lifted': 'Blocked verification methods unblocked',
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
 * `changes`), when, and what to do if it wasn't the customer. English, from the service's catalog
 * (group `mail`), where the other languages are too.
 */
export const securityNoticeMessages = {
  /** {0} the product. */
  subject: mail.securityChangeSubject,
  /** {0} the change (a line of `changes`), {1} the time. */
  body: mail.securityChangeBody,
  /** {0} the support phone number. */
  notYou: mail.securityChangeNotYou,
  changes: {
    authenticatorAdded: mail['change.authenticatorAdded'],
    credentialAdded: mail['change.credentialAdded'],
    credentialRemoved: mail['change.credentialRemoved'],
    contactAdded: mail['change.contactAdded'],
    contactRemoved: mail['change.contactRemoved'],
    trustedBrowserRevoked: mail['change.trustedBrowserRevoked'],
    trustedBrowsersRevoked: mail['change.trustedBrowsersRevoked'],
    sessionEnded: mail['change.sessionEnded'],
    otherSessionsEnded: mail['change.otherSessionsEnded'],
  },
};
export type SecurityChange = keyof typeof securityNoticeMessages.changes;
