import { factor, identity, login } from '../messages/en.json';
/**
 * Texts that the server sends in envelopes and the clients show: one catalog, keyed, quoted
 * verbatim from the specs. Screen texts live in each app's own catalog; these are the shared ones.
 * The portal's recovery and reset texts are in recovery-messages.ts and the server's whole catalog
 * in server-messages.ts: modules of their own, so a client's first screen loads only the groups it
 * reads (a bundler places whole modules in chunks, not single exports).
 */
/** Sign-in, session and protocol messages (both specs §8, design.md's envelope). */
export const loginMessages = login;

/** Saved usernames, change username and account states (widget spec §2, §7, §8). */
export const identityMessages = identity;

/** One-time-code second factor, step-up and trusted device (widget spec §2, §4, §8). */
export const factorMessages = factor;
