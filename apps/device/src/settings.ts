import { appDefaults } from '@gatehouse/contract/client';

/**
 * The device app's fixed settings. It signs in through the portal's context (the session exists
 * only to register the device and is ended at once), under its own application name.
 */
export const settings = {
  appId: appDefaults.portalAppId,
  appName: 'Gatehouse Device',
  context: appDefaults.portalContext,
  subEvent: appDefaults.portalSubEvent,
  /** The text-message sender and the representative's number, as the portal's widget has them. */
  smsSender: 'PrimeSrv',
  repPhone: '1-800-555-0199',
  /** Re-read the pushes this often even while the live channel is open (decision 022). */
  pollMs: 10_000,
  /** Live channel reconnection: first wait, doubled per failure up to the last. */
  backoffMs: [1_000, 30_000] as const,
  /** A page hidden this long stops its live channel and polling until it is shown again. */
  hiddenPauseMs: 60_000,
} as const;
