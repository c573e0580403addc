import { onDemand } from '@gatehouse/signin';
import { loadPageTexts } from '../messages/index.ts';

/**
 * The add-an-account page hosts the sign-in widget: one on-demand chunk, fetched when the browser
 * is idle, so the start page does not carry the widget (docs/decisions/019-small-router.md). Each
 * page's texts come with it, in the current language.
 */
export const pages = onDemand(() =>
  Promise.all([import('./lazy.ts'), loadPageTexts('add')]).then(([module]) => module),
);

/** The codes page (the otpauth library; jsQR loads later still, when a picture is chosen). */
export const codesPage = onDemand(() =>
  Promise.all([import('./codes/CodesPage.tsx'), loadPageTexts('codes')]).then(([module]) => module),
);
