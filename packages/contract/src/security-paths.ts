/**
 * The portal's security page (docs/decisions/025-security-page-api.md): the signed-in session after
 * a step-up within SECURITY_STEPUP_MINUTES; schemas in security.ts, tables in security-outcomes.ts.
 * A module of its own: a bundler places whole modules in chunks, and paths.ts is on the login
 * routes, which never call these (the portal's login-route budget, bench/bundle-size.ts).
 */
export const securityPaths = {
  securityOverview: '/user/security/overview',
  securityAuthenticatorEnrollment: '/user/security/authenticator/enrollment',
  securityAuthenticatorConfirmation: '/user/security/authenticator/confirmation',
  securityCredentialRemove: '/user/security/credentials/remove',
  securityContacts: '/user/security/contacts',
  securityContactConfirmation: '/user/security/contacts/confirmation',
  securityContactRemove: '/user/security/contacts/remove',
  securityTrustedBrowserRevoke: '/user/security/trusted-browsers/revoke',
  securitySessionEnd: '/user/security/sessions/end',
} as const;
