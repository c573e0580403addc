import type catalog from '../../../messages/en.json';
import { translator } from '../../messages/index.ts';

/**
 * The token app and authenticator app screens (widget spec §2, §5), verbatim where the spec
 * quotes them; the parameters are mapped in docs/decisions/024-token-and-authenticator-app.md
 * ("Widget"). Loaded with these screens, never on the login route.
 */
export type AppCodeTextsKey = keyof (typeof catalog)['appCodes'];

export const tx = translator<AppCodeTextsKey>();
