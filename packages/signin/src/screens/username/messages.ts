import type catalog from '../../../messages/en.json';
import { translator } from '../../messages/index.ts';

/** Change username and confirmation (widget spec §2, §5, §8); heading, button and rule 3 are ours. Loaded with these screens, not on the login route. */
export type UsernameTextsKey = keyof (typeof catalog)['username'];

export const tx = translator<UsernameTextsKey>();
