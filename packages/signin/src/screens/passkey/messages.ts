import type catalog from '../../../messages/en.json';
import { translator } from '../../messages/index.ts';

/** The passkey screen's texts: the catalogs' `passkey` group, loaded with the screen. */
export type PasskeyTextsKey = keyof (typeof catalog)['passkey'];

export const tx = translator<PasskeyTextsKey>();
