/**
 * The texts of the portal's shell and login page (portal spec §1, §2, §8), verbatim where the spec
 * quotes them. The other pages' texts load with those pages: pages/page-messages.ts and
 * pages/recovery-messages.ts.
 */
export const messages = {
  productName: 'Prime Portal',
  skipToContent: 'Skip to main content',
  disclosure: 'Inactive sessions in secured areas will time out after four hours.',
  supportLine: 'Please contact login support at {0}',
  supportLineLogout: 'For Login support, please email {0}',
  copyright: '© {0} Prime Services. All rights reserved.',
  version: 'Version {0}',
  footerNav: 'Legal and help',
  browserRequirements: 'Browser requirements',
  userAgreement: 'User agreement',
  privacy: 'Privacy',
  security: 'Security',
  signInRegion: 'Sign in',
  signInTitle: 'Sign in',
  signedInAnnouncement: 'Signed in. Opening the portal.',
  otherContext:
    'This sign-in was for another service, not the Prime Portal, so you have been signed out. Please sign in again.',
  errorTitlePrefix: 'Error: ',
} as const;
