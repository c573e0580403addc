import { device } from '../messages/en.json';
/**
 * The texts of the device app's calls (decision 022), a module of their own: the widget's and the
 * portal's login routes load messages.ts and never show these (docs/decisions/019-small-router.md).
 */
export const deviceMessages = device;
