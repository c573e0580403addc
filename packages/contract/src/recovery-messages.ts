import { password, passwordUpdate, recovery } from '../messages/en.json';
/**
 * The portal's recovery and password texts (portal spec §2, §4, §5, §8), quoted verbatim; part of
 * the catalog in messages.ts, in a module of their own so that the sign-in screens never load them.
 */
/** Recovery by e-mail code (portal spec §2, §4, §8). */
export const recoveryMessages = recovery;

/** Password update (portal spec §8 table, verbatim). */
export const passwordUpdateMessages = passwordUpdate;

/** The reset screen's password rules (portal spec §5), in the spec's order, and the mismatch. */
export const passwordMessages = password;
