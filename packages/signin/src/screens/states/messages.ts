import type catalog from '../../../messages/en.json';
import { translator } from '../../messages/index.ts';

/** Account-state pages (widget spec §2, §8); headings not quoted are ours. Loaded with these screens, not on the login route. */
export type StateTextsKey = keyof (typeof catalog)['states'];

export const tx = translator<StateTextsKey>();
