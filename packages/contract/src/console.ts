import { z } from 'zod';
import { liftActions, repCodePurposes, staffRoles, verificationMethods } from './console-messages.ts';
import { securityCode, text, usernameInput } from './schemas.ts';

/**
 * Request and response bodies of the representative console's calls (consolePaths;
 * docs/decisions/028-representative-console.md).
 */

/** A staff member's name: lowercase letters, digits, '.', '_' or '-', 3-32 characters, a letter first. */
export const staffNamePattern = /^[a-z][a-z0-9._-]{2,31}$/;
export const staffName = text()
  .trim()
  .toLowerCase()
  .regex(staffNamePattern, 'name must be 3-32 lowercase letters, digits, ".", "_" or "-", a letter first');
export const staffRole = z.enum(staffRoles);

export const consoleSignInRequest = z.object({
  name: staffName,
  password: text().min(1, 'password is required').max(128, 'password is longer than 128 characters'),
});
export const consoleFactorRequest = z.object({ securityCode });

export const consoleStaffData = z.object({
  name: z.string(),
  role: staffRole,
  /** The staff session ends after this many minutes without a call (STAFF_IDLE_MINUTES). */
  idleMinutes: z.number().int(),
  /** The time-limit warning shows this many seconds before the idle end (TIME_LIMIT_WARNING_SECONDS). */
  warningSeconds: z.number().int(),
  /** A temporary security code's life (REP_CODE_MINUTES). */
  codeMinutes: z.number().int(),
});
export type ConsoleStaff = z.infer<typeof consoleStaffData>;

/** Line and paragraph breaks (and tabs): one space each run in an audit text. */
const breaks = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/**
 * Control characters (Unicode Cc) and the bidirectional controls (ALM, LRM, RLM, the embeddings and
 * overrides LRE-RLO, the isolates LRI-PDI): never kept in an audit text, where they would reorder or
 * hide what a supervisor reads (issue 22, finding 8).
 */
const unsafe = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
/** An audit text as one line of visible text: breaks become spaces, controls go, spaces collapse. */
export const auditLine = (value: string): string =>
  value.replace(breaks, ' ').replace(unsafe, '').replace(/ {2,}/g, ' ').trim();

/**
 * A note or reason that goes to the audit trail: required, one short paragraph, stored as one line
 * (auditLine: control and bidirectional characters stripped; docs/decisions/031-staff-like-customers.md).
 */
const auditText = (field: string) =>
  text()
    .overwrite(auditLine)
    .min(3, `${field} must be at least 3 characters`)
    .max(500, `${field} is longer than 500 characters`);

export const consoleCustomerRequest = z.object({ username: usernameInput });
export const consoleIssueCodeRequest = z.object({
  username: usernameInput,
  purpose: z.enum(repCodePurposes).default('factor'),
  verification: z.enum(verificationMethods),
  note: auditText('note'),
});
export const consoleLiftRequest = z.object({
  username: usernameInput,
  action: z.enum(liftActions),
  reason: auditText('reason'),
});

const iso = z.string();
export const consoleCustomerData = z.object({
  username: z.string(),
  displayName: z.string(),
  /** active | locked | blocked | disabled */
  status: z.string(),
  failedLogins: z.number().int(),
  /** Until when recovery by e-mail is locked; null when it is open. */
  recoveryLockedUntil: iso.nullable(),
  /** What the next sign-in requires: passwordExpired, temporaryPassword, usernameUpdate. */
  forced: z.array(z.string()),
  contacts: z.array(z.object({ kind: z.enum(['phone', 'email']), label: z.string() })),
  factors: z.array(z.object({ kind: z.string(), name: z.string(), lockedUntil: iso.nullable() })),
  events: z.array(z.object({ at: iso, event: z.string(), outcome: z.string() })),
  /** When the live temporary security code expires; null without one. */
  liveCodeExpiresAt: iso.nullable(),
  /** The account belongs to a staff member (only a supervisor acts on it). */
  staffAccount: z.boolean(),
  /** The account is the signed-in staff member's own (nobody acts on their own). */
  ownAccount: z.boolean(),
});
export type ConsoleCustomer = z.infer<typeof consoleCustomerData>;

export const consoleIssuedData = z.object({ code: z.string(), expiresAt: iso });

export const consoleAuditQuery = z.object({
  staff: staffName.optional(),
  customer: usernameInput.optional(),
  event: text().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export const consoleAuditData = z.object({
  events: z.array(
    z.object({
      at: iso,
      event: z.string(),
      outcome: z.string(),
      staff: z.string().nullable(),
      customer: z.string().nullable(),
      detail: z.string(),
    }),
  ),
});
export type ConsoleAuditEvent = z.infer<typeof consoleAuditData>['events'][number];
