import type catalog from '../../../messages/en.json';
import { translator } from '../../messages/index.ts';

/**
 * Push screens (widget spec §2, §4, §8), verbatim where the spec quotes them; the rest is ours
 * (docs/decisions/022-push-and-device.md, "Texts"). Loaded with these screens, not on the login route.
 */
export type PushTextsKey = keyof (typeof catalog)['push'];

export const tx = translator<PushTextsKey>();
