import { appCode } from '../messages/en.json';
/**
 * The authenticator app (TOTP) and the token app (widget spec §2 TOTP, token and resync screens,
 * §8): part of the catalog in messages.ts, in a module of their own so that the login routes never
 * carry them (a bundler places whole modules in chunks).
 */
export const appCodeMessages = appCode;
