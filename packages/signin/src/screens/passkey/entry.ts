import { useEffect, useRef } from 'react';
import { useWidget } from '../../context.tsx';
import type { FactorEntry } from '../../factors.ts';
import { passkeyCalls, passkeyType } from './calls.ts';

/** The passkey screen's route (LOGIN and STEPUP). */
export const passkeyRoute = '/authenticator/passkey';

/**
 * The login screen's hook (decision 041b): once the login screen is up, the conditional passkey
 * request where the browser offers autofill (its code and @simplewebauthn/browser load on demand,
 * off the login route's first paint); it fills the username field with the passkey's username.
 */
function useConditionalPasskey(field: { setUsername(name: string): void; language: string }) {
  const { client, idPrefix } = useWidget();
  const setUsername = useRef(field.setUsername);
  setUsername.current = field.setUsername;
  useEffect(() => {
    let live = true;
    let stop: (() => void) | undefined;
    import('./conditional.ts')
      .then(({ startConditional }) => {
        if (live) stop = startConditional(client, idPrefix, (name) => setUsername.current(name));
      })
      .catch(() => undefined);
    return () => {
      live = false;
      stop?.();
    };
  }, [client, idPrefix]);
}

/** The passkey factor in the widget (shape.md "Widget"): its type, screen, calls, texts, login hooks. */
export const entry: FactorEntry = {
  key: 'passkey',
  types: [passkeyType],
  screens: { [passkeyRoute]: () => import('./PasskeyScreen.tsx') },
  opens: { [passkeyType]: passkeyRoute },
  calls: passkeyCalls,
  textGroups: ['passkey'],
  login: { autocomplete: 'webauthn', useLogin: useConditionalPasskey },
};

export default entry;
