/**
 * Every screen off the login route, behind one dynamic import: one on-demand chunk instead of
 * many small ones, which keeps the login route's own files few and small.
 */
export { TokenScreen } from './app-codes/TokenScreen.tsx';
export { TokenSyncScreen } from './app-codes/TokenSyncScreen.tsx';
export { TotpScreen } from './app-codes/TotpScreen.tsx';
export { AuthenticatorEntry } from './authenticator/AuthenticatorEntry.tsx';
export { OtpCodeScreen } from './otp/OtpCodeScreen.tsx';
export { OtpContactScreen } from './otp/OtpContactScreen.tsx';
export { RepScreen } from './otp/RepScreen.tsx';
export { PushDeniedScreen } from './push/PushDeniedScreen.tsx';
export { PushScreen } from './push/PushScreen.tsx';
export { ExtendSession } from './session/ExtendSession.tsx';
export { BlockedRoute, RejectRoute } from './states/routes.tsx';
export { StatePage } from './states/StatePage.tsx';
export { ChangeUsernameScreen } from './username/ChangeUsernameScreen.tsx';
export { UsernameConfirmationScreen } from './username/UsernameConfirmationScreen.tsx';

/** The screens' texts: the catalogs' groups of these screens, fetched by language on demand. */
export const screenTexts = import.meta.glob('../../messages/*.json', {
  query: { groups: 'otp,push,appCodes,states,username' },
  import: 'default',
});
