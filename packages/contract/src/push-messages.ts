import { push } from '../messages/en.json';
/**
 * Push (widget spec §2 push screens, decision 022; the device app's call texts are in device-messages.ts): part
 * of the catalog in messages.ts, in a module of their own so that the login routes (which read
 * factorMessages) never carry them: a bundler places whole modules in chunks.
 */
export const pushMessages = push;
