import type { FactorEntry, ScreenNames } from '../../factors.ts';
import { passkeyCalls, passkeyType } from './calls.ts';
import { useConditionalPasskey } from './login.ts';
import type * as screens from './screens.ts';

/** The passkey screen's route (LOGIN and STEPUP). */
const routes = { authenticatorPasskey: '/authenticator/passkey' } as const;

type PasskeyRoutes = typeof routes;
type PasskeyCalls = typeof passkeyCalls;
declare module '../../factors.ts' {
  interface FactorRoutes extends PasskeyRoutes {}
  interface FactorCalls extends PasskeyCalls {}
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
  screens: {
    authenticatorPasskey: 'PasskeyScreen',
  } satisfies Partial<Record<keyof typeof routes, ScreenNames<typeof screens>>>,
  opens: { [passkeyType]: routes.authenticatorPasskey },
  calls: passkeyCalls,
  textGroups: ['passkey'],
  login: { autocomplete: 'webauthn', useLogin: useConditionalPasskey },
} satisfies FactorEntry;
