import { type AddKey, translator } from '../../messages/index.ts';

/** The add-an-account page's texts (group `add` of apps/device/messages), loaded with its chunk. */
export const ta = translator<AddKey>();
