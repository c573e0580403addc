/** The portal's pages off the login route, behind one dynamic import (one on-demand chunk). */
export { GuardedHomePage } from './HomePage.tsx';
export { InfoPage } from './InfoPage.tsx';
export { LogoutPage } from './LogoutPage.tsx';
export { NoAccessPage } from './NoAccessPage.tsx';
export { ResetPasswordPage } from './reset/ResetPasswordPage.tsx';
export { SuccessToast } from './SuccessToast.tsx';
export { UsernamePage } from './username/UsernamePage.tsx';

import { onDemand } from '@gatehouse/signin';
/** The security page (#/security), in a chunk of its own, loaded when it is opened. */
export const GuardedSecurityPage = onDemand(() => import('./security/SecurityPage.tsx')).component(
  (m) => m.GuardedSecurityPage,
);
