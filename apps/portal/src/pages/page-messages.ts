/** Texts of the signed-in, logout and no-access pages (portal spec §2, §8), verbatim where the spec
 * quotes them; loaded with those pages, not on the login route. */
export const pageMessages = {
  homeTitle: 'Your account',
  signedInHeading: 'Welcome, {0}',
  signedInAs: 'You are signed in as {0}.',
  sessionTimes: 'Your session ends after four hours without activity.',
  securitySettings: 'Security settings',
  signOut: 'Sign out',
  checkingSession: 'Checking your session',
  loggingOut: 'Signing you out',
  sessionEnded: 'Session Ended',
  signedOut: 'You were successfully signed out of the portal',
  backToSignIn: 'Back to sign in',
  logoutProblem: 'There was a problem',
  logoutRetrySuffix: ' please click logout to retry',
  logoutRetry: 'Logout',
  accessDenied: 'Access Denied',
  checkNetwork: 'Check your network connection',
} as const;
