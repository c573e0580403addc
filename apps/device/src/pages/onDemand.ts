import { onDemand } from '@gatehouse/signin';

/**
 * The add-an-account page hosts the sign-in widget: one on-demand chunk, fetched when the browser
 * is idle, so the start page does not carry the widget (docs/decisions/019-small-router.md).
 */
export const pages = onDemand(() => import('./lazy.ts'));

/** The codes page (the otpauth library; jsQR loads later still, when a picture is chosen). */
export const codesPage = onDemand(() => import('./codes/CodesPage.tsx'));
