import type { FactorEntry } from '../../factors.ts';
import { useConditionalPasskey } from './login.ts';

/** The passkey screen's route (LOGIN and STEPUP). */
const routes = { authenticatorPasskey: '/authenticator/passkey' } as const;

/** Its authenticator type, the contract's PASSKEY_TYPE (written out: its file would join the login route). */
const passkeyType = 'PASSKEY';

type PasskeyRoutes = typeof routes;
declare module '../../factors.ts' {
  interface FactorRoutes extends PasskeyRoutes {}
}

/**
 * The passkey factor in the widget (decision 041b): its type, screen, calls, texts, and what it adds
 * to the login screen: saved passkeys in the username field's autofill (`autocomplete="username
 * webauthn"`) and the conditional request behind it.
 */
export const entry = {
  key: 'passkey',
  types: [passkeyType],
  routes,
  opens: { [passkeyType]: routes.authenticatorPasskey },
  textGroups: ['passkey'],
  login: { autocomplete: 'webauthn', useLogin: useConditionalPasskey },
} satisfies FactorEntry;
