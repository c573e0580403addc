import { useEffect, useRef } from 'react';
import { useWidget } from '../../context.tsx';

/**
 * The login screen's hook (decision 041b): once the login screen is up, the conditional passkey
 * request where the browser offers autofill. Its code and @simplewebauthn/browser load on demand
 * (conditional.ts), off the login route's first paint; it fills the username field with the
 * passkey's username.
 */
export function useConditionalPasskey(field: { setUsername(name: string): void; language: string }) {
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
