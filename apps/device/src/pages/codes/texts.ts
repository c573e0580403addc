import { type CodesKey, translator } from '../../messages/index.ts';

/** The codes page's texts (group `codes` of apps/device/messages), loaded with the page's chunk. */
export const tc = translator<CodesKey>();
