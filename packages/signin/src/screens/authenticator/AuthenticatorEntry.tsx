import type { AuthenticatorItem } from '@gatehouse/contract/client';
import { useEffect, useRef } from 'react';
import { useWidget } from '../../context.tsx';
import { useLocationState, useNavigate } from '../../router.tsx';
import { authenticatorScreen, otpChannelTypes } from '../../screen-tables.ts';
import { Loading } from '../../shared/Loading.tsx';
import { useCall } from '../../shared/useCall.ts';
import { recentKey } from './RecentNotice.tsx';

/** The one-time-code channels allowed, kept for the factor screens (per widget instance). */
export const otpChannelsKey = (idPrefix: string) => `gh.signin.${idPrefix}.otpChannels`;

/**
 * The server's list limited to the host's types, when the host gives a list (the device app leaves
 * push out: a device cannot vouch for its own enrolment). The server's order and items; a host's
 * item gives its context to a server's item that has none.
 */
function narrowed(server: readonly AuthenticatorItem[], host?: readonly AuthenticatorItem[]) {
  if (!host) return [...server];
  return server.flatMap((item) => {
    const given = host.find((h) => h.type === item.type);
    return given ? [{ ...given, ...item }] : [];
  });
}

/**
 * Reads the authenticators the server allows (from session login in the login journey, from
 * the server in step-up), limited to the host's `authenticators` when it gives them and less its
 * `excludeAuthenticators`, keeps the one-time-code channels in session storage, and goes to the
 * screen of the first one (the table in screen-tables.ts); the representative page is the default.
 * A method the server does not offer (one added recently, in a step-up) is never offered, whatever
 * the host's list says.
 */
export function AuthenticatorEntry() {
  const { idPrefix, config } = useWidget();
  const call = useCall();
  const navigate = useNavigate();
  const state = useLocationState() as { data?: { authenticators?: AuthenticatorItem[] } } | null;
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const go = (offered: AuthenticatorItem[]) => {
      // Less the types the host cannot use (the device app: push).
      const list = offered.filter((a) => !config.excludeAuthenticators?.includes(a.type));
      const channels = list.filter((a) => otpChannelTypes.has(a.type)).map((a) => a.type);
      sessionStorage.setItem(otpChannelsKey(idPrefix), JSON.stringify(channels));
      const { to, item } = authenticatorScreen(list);
      navigate(to, { replace: true, state: item?.context ? { context: item.context } : null });
    };
    const host = config.authenticators;
    const server = state?.data?.authenticators;
    if (server) {
      sessionStorage.removeItem(recentKey(idPrefix));
      go(narrowed(server, host));
      return;
    }
    void call('authenticators').then((outcome) => {
      if (outcome.kind === 'success') {
        const data = outcome.data as { authenticators?: AuthenticatorItem[]; recent?: string[] } | undefined;
        // Step-up: the methods left out because they were added recently, for the screens to say so.
        sessionStorage.setItem(recentKey(idPrefix), JSON.stringify(data?.recent ?? []));
        go(narrowed(data?.authenticators ?? [], host));
      }
    });
  }, [call, idPrefix, navigate, state, config.authenticators, config.excludeAuthenticators]);

  return <Loading />;
}
