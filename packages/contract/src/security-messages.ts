import { activity, mail, security } from '../messages/en.json';
/**
 * The portal's security page (issue 12; docs/decisions/025-security-page-api.md): the texts of its
 * calls' answers (securityMessages, part of serverMessages), the customer-facing line of each audit
 * event in the activity list, and the e-mail notice of a change. A module of its own: the login
 * routes never load it; the portal's security page imports it on demand.
 */
export const securityMessages = security;

/** The catalog's key of an audit event's line in the page's recent activity: `activity.<event>`. */
export type SecurityActivityKey = keyof typeof activity;

/**
 * The catalog key of an audit event's customer-facing line in the page's recent activity (by event
 * name of apps/identity/src/audit/audit.ts; the service answers it in the request's language): an
 * event without a line of its own shows `activity.other`.
 */
export const securityActivityKey = (event: string): SecurityActivityKey =>
  `activity.${event}` in activity ? (`activity.${event}` as SecurityActivityKey) : 'activity.other';

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
