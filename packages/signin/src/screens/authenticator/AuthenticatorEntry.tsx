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
 * Reads the authenticators the server allows (from session login in the login journey, from
 * the server in step-up), limited to the host's `authenticators` when it gives them, keeps the one-time-code channels in session storage, and goes to the
 * screen of the first one (the table in screen-tables.ts); the representative page is the default.
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
    const go = (list: AuthenticatorItem[]) => {
      const channels = list.filter((a) => otpChannelTypes.has(a.type)).map((a) => a.type);
      sessionStorage.setItem(otpChannelsKey(idPrefix), JSON.stringify(channels));
      const { to, item } = authenticatorScreen(list);
      navigate(to, { replace: true, state: item?.context ? { context: item.context } : null });
    };
    // The host's list limits the server's (the device app leaves push out: a device cannot vouch
    // for its own enrolment); in step-up without a server list it is the list.
    const host = config.authenticators;
    const server = state?.data?.authenticators;
    const given =
      server && host ? server.filter((a) => host.some((h) => h.type === a.type)) : (server ?? host);
    if (given) {
      sessionStorage.removeItem(recentKey(idPrefix));
      go(given);
      return;
    }
    void call('authenticators').then((outcome) => {
      if (outcome.kind === 'success') {
        const data = outcome.data as { authenticators?: AuthenticatorItem[]; recent?: string[] } | undefined;
        // Step-up: the methods left out because they were added recently, for the screens to say so.
        sessionStorage.setItem(recentKey(idPrefix), JSON.stringify(data?.recent ?? []));
        go(data?.authenticators ?? []);
      }
    });
  }, [call, idPrefix, navigate, state, config.authenticators]);

  return <Loading />;
}
