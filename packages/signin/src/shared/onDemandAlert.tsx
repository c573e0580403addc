import { onDemand } from './onDemand.tsx';

/**
 * The alert on demand (docs/decisions/019-small-router.md): a login route shows one only after a
 * failed submit (or a notice of the host's), so it and the icons it draws are prefetched when the
 * browser is idle, and fetched at the latest when a submit fails. React 19 passes `ref` through.
 */
export const alertChunk = onDemand(() => import('./alert.ts'));
export const OnDemandAlert = alertChunk.component((m) => m.Alert);
