import { onDemand } from '@gatehouse/signin';
import { texts } from '../texts.ts';

/** The portal's pages off the login route, behind one dynamic import (one on-demand chunk). */
export { GuardedChangeUsernamePage } from './ChangeUsernamePage.tsx';
export { GuardedHomePage } from './HomePage.tsx';
export { InfoPage } from './InfoPage.tsx';
export { LogoutPage } from './LogoutPage.tsx';
export { NoAccessPage } from './NoAccessPage.tsx';
export { OidcPage } from './OidcPage.tsx';
export { ResetPasswordPage } from './reset/ResetPasswordPage.tsx';
export { SuccessToast } from './SuccessToast.tsx';
export { UsernamePage } from './username/UsernamePage.tsx';

/**
 * These pages' texts (the catalogs' `pages` group), fetched by language with them, and the service's
 * texts they show for a status code (its catalog's `recovery` and `passwordUpdate` groups, portal
 * spec §8), written once, in the service's catalog.
 */
export const pageTexts = import.meta.glob('../../messages/*.json', {
  query: { groups: 'pages', include: '../../../packages/contract/messages:recovery,passwordUpdate' },
  import: 'default',
});

/**
 * The security page (#/security, issue 12), in a chunk of its own, fetched when it is opened: the
 * route in App.tsx costs the login route one line, the page and its QR library nothing.
 */
export const GuardedSecurityPage = onDemand(() =>
  import('./security/SecurityPage.tsx').then(async (module) => {
    await texts.load('security', module.securityTexts);
    return module;
  }),
).component((m) => m.GuardedSecurityPage);
