import { console } from '../messages/en.json';
/**
 * The representative console's part of the contract (apps/console; docs/decisions/028-representative-console.md):
 * a module of its own, so the widget's and the portal's login routes never load it. The server's
 * envelope texts (consoleMessages, part of serverMessages) and the values the console's calls name.
 * The console's screen texts are its own catalog, apps/console/messages (decision 029).
 */
export const consoleMessages = console;

/** The verification methods a representative records before issuing a code (a required choice). */
export const verificationMethods = ['callback', 'knowledge', 'document', 'existing-session'] as const;
export type VerificationMethod = (typeof verificationMethods)[number];
/** What a representative's code is for: the sign-in's second factor, or a password recovery. */
export const repCodePurposes = ['factor', 'recovery'] as const;
export type RepCodePurpose = (typeof repCodePurposes)[number];

/** What a representative may lift, each with a required reason. */
export const liftActions = [
  'unlock',
  'unblock',
  'unlock-recovery',
  'unblock-factors',
  'require-password-reset',
] as const;
export type LiftAction = (typeof liftActions)[number];

export const staffRoles = ['representative', 'supervisor'] as const;
export type StaffRole = (typeof staffRoles)[number];
