import { console } from '../messages/en.json';
/**
 * The representative console's texts (apps/console; docs/decisions/028-representative-console.md): a
 * module of its own, so the widget's and the portal's login routes never load them. The server's
 * envelope texts (consoleMessages, part of serverMessages) and the console's screen texts
 * (consoleTexts, read only by apps/console).
 */
export const consoleMessages = console;

/** The verification methods a representative records before issuing a code (a required choice). */
export const verificationMethods = ['callback', 'knowledge', 'document', 'existing-session'] as const;
export type VerificationMethod = (typeof verificationMethods)[number];

/** What a representative may lift, each with a required reason. */
export const liftActions = ['unlock', 'unblock', 'unlock-recovery', 'require-password-reset'] as const;
export type LiftAction = (typeof liftActions)[number];

export const staffRoles = ['representative', 'supervisor'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** The console's screen texts ({0}-style placeholders). */
export const consoleTexts = {
  productName: 'Gatehouse Console',
  windowTitle: '{0} - Gatehouse Console',
  errorTitlePrefix: 'Error: ',
  skipToContent: 'Skip to content',
  mainNav: 'Console',
  navCustomer: 'Find a customer',
  navAudit: 'Audit trail',
  signOut: 'Sign out',
  signedInAs: 'Signed in as {0} ({1})',
  roles: { representative: 'representative', supervisor: 'supervisor' } satisfies Record<StaffRole, string>,
  errorSummaryTitle: 'There is a problem',
  somethingWrong: 'Something went wrong. Please try again.',
  offline: 'The console cannot reach the service. Check the connection and try again.',
  sessionEnded: 'Your console session ended after 15 minutes without activity. Sign in again.',
  // sign-in
  signInTitle: 'Staff sign-in',
  signInIntro: 'For bank staff only. Every action in the console is recorded.',
  staffName: 'Staff name',
  password: 'Password',
  signIn: 'Sign in',
  nameRequired: 'Enter your staff name.',
  passwordRequired: 'Enter your password.',
  factorTitle: 'Authenticator code',
  factorIntro: 'Enter the 6-digit code your authenticator app shows for Gatehouse Console.',
  factorCode: 'Authenticator code',
  factorCodeRequired: 'Enter the 6-digit code from your authenticator app.',
  verify: 'Verify',
  startAgain: 'Start again',
  // customer
  customerTitle: 'Find a customer',
  customerIntro: 'Enter the exact username the customer gives you. There is no search by other details.',
  username: 'Customer username',
  usernameRequired: 'Enter the customer username.',
  find: 'Find',
  customerHeading: 'Customer {0}',
  stateHeading: 'State',
  state: {
    status: 'Sign-in',
    statusValues: {
      active: 'Active',
      locked: 'Locked after failed passwords',
      blocked: 'Blocked for security reasons',
      disabled: 'Closed',
    } as Record<string, string>,
    recovery: 'Recovery by e-mail',
    recoveryLocked: 'Locked until {0}',
    recoveryOpen: 'Open',
    forced: 'Required at next sign-in',
    forcedNone: 'Nothing',
    forcedValues: {
      passwordExpired: 'a new password (expired)',
      temporaryPassword: 'a new password (temporary)',
      usernameUpdate: 'a new username',
    } as Record<string, string>,
    failedLogins: 'Failed passwords since the last success',
    liveCode: 'Temporary security code',
    liveCodeUntil: 'A code is live until {0}',
    liveCodeNone: 'None',
  },
  staffAccountNotice: 'This customer account belongs to a staff member.',
  ownAccountNotice: 'This is your own customer account: you cannot act on it.',
  contactsHeading: 'Contacts',
  noContacts: 'No phone or e-mail on file.',
  factorsHeading: 'Enrolled factors',
  noFactors: 'No second factor enrolled: the customer can use a temporary security code.',
  eventsHeading: 'Recent security events',
  noEvents: 'No security events yet.',
  eventTime: 'Time',
  eventName: 'Event',
  eventOutcome: 'Outcome',
  // issue a code
  issueHeading: 'Issue a temporary security code',
  issueIntro:
    'Verify the caller first. The code is shown once, works once, for this customer only, and expires in {0} minutes.',
  verification: 'How did you verify the caller?',
  verificationRequired: 'Choose how you verified the caller.',
  verificationLabels: {
    callback: 'Called back on the phone number on file',
    knowledge: 'Answered questions only the customer can know',
    document: 'Showed photo identification in a branch',
    'existing-session': 'Confirmed from a signed-in session on the mobile app',
  } satisfies Record<VerificationMethod, string>,
  verificationNote: 'Note on the verification',
  verificationNoteHint: 'What you checked, in a few words. It goes to the audit trail.',
  noteRequired: 'Write a note on how you verified the caller.',
  issue: 'Issue code',
  issuedHeading: 'Temporary security code',
  issuedCode: 'Read this code to the customer: {0}',
  issuedExpires: 'It expires at {0}. It is not shown again.',
  // lift
  liftHeading: 'Lift a block',
  liftAction: 'What to lift',
  liftActionRequired: 'Choose what to lift.',
  liftLabels: {
    unlock: 'Unlock after failed passwords',
    unblock: 'Unblock after a security block',
    'unlock-recovery': 'Unlock recovery by e-mail',
    'require-password-reset': 'Require a new password at next sign-in',
  } satisfies Record<LiftAction, string>,
  reason: 'Reason',
  reasonHint: 'Why, in a few words. It goes to the audit trail and the customer is told by e-mail.',
  reasonRequired: 'Write the reason.',
  lift: 'Apply',
  // audit
  auditTitle: 'Audit trail',
  auditIntroSupervisor:
    'Every console action by every staff member. Filter by staff member, customer or action.',
  auditIntroRepresentative: 'Your own console actions.',
  filterStaff: 'Staff member',
  filterCustomer: 'Customer username',
  filterEvent: 'Action',
  filterAny: 'Any',
  filter: 'Filter',
  auditEmpty: 'No console actions match.',
  auditStaff: 'Staff',
  auditCustomer: 'Customer',
  auditDetail: 'Reason or verification',
  auditEvents: {
    'console-sign-in': 'Signed in',
    'console-sign-in-failed': 'Sign-in refused',
    'console-sign-out': 'Signed out',
    'console-lookup': 'Looked up a customer',
    'rep-code-issued': 'Issued a security code',
    'console-unlock': 'Unlocked after failed passwords',
    'console-unblock': 'Unblocked',
    'console-unlock-recovery': 'Unlocked recovery',
    'console-require-password-reset': 'Required a new password',
    'console-refused': 'Refused an action',
  } as Record<string, string>,
} as const;
