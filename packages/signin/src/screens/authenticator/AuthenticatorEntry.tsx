import type { AuthenticatorItem } from '@gatehouse/contract/client';
import { useEffect, useRef } from 'react';
import { useWidget } from '../../context.tsx';
import { useLocationState, useNavigate } from '../../router.tsx';
import { routes, unbuiltRoutes } from '../../routes.ts';
import { Loading } from '../../shared/Loading.tsx';
import { useCall } from '../../shared/useCall.ts';

const otpTypes = new Set(['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL']);

/** Where an authenticator leads (widget spec §2 "Entry to the authenticator area"). */
export function routeFor(item: AuthenticatorItem | undefined): string {
  switch (item?.type) {
    case 'OTP-SMS':
    case 'OTP-VOICE':
    case 'OTP-EMAIL':
      return routes.authenticatorOtp;
    case 'OTP-REP':
      return routes.authenticatorRep;
    case 'TOTPSVIP':
      return routes.authenticatorSvip;
    case 'PUSH':
      return routes.authenticatorPush;
    case 'TOTPAUTHN':
      return routes.authenticatorTotp;
    default:
      return routes.authenticatorRep;
  }
}

/**
 * Where the first usable authenticator leads. Unknown types and factors whose screen is not built
 * yet are skipped; an empty list opens the spec's default, the representative page; a list with
 * nothing usable left goes to the error route (never to an empty factor screen).
 */
export function entryRoute(list: AuthenticatorItem[]): { to: string; item?: AuthenticatorItem } {
  if (list.length === 0) return { to: routes.authenticatorRep };
  const known = new Set(['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL', 'OTP-REP', 'TOTPSVIP', 'PUSH', 'TOTPAUTHN']);
  const item = list.find((a) => known.has(a.type) && !unbuiltRoutes.has(routeFor(a)));
  return item ? { to: routeFor(item), item } : { to: routes.error };
}

/** The one-time-code channels allowed, kept for the factor screens (per widget instance). */
export const otpChannelsKey = (idPrefix: string) => `gh.signin.${idPrefix}.otpChannels`;

/**
 * Reads the authenticators the server allows (from session login in the login journey, from
 * the server in step-up), keeps the one-time-code channels in session storage, and goes to the
 * screen of the first one; the representative page is the default.
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
      const channels = list.filter((a) => otpTypes.has(a.type)).map((a) => a.type);
      sessionStorage.setItem(otpChannelsKey(idPrefix), JSON.stringify(channels));
      const { to, item } = entryRoute(list);
      navigate(to, { replace: true, state: item?.context ? { context: item.context } : null });
    };
    const given = state?.data?.authenticators ?? config.authenticators;
    if (given) {
      go(given);
      return;
    }
    void call('authenticators').then((outcome) => {
      if (outcome.kind === 'success') {
        go((outcome.data as { authenticators?: AuthenticatorItem[] } | undefined)?.authenticators ?? []);
      }
    });
  }, [call, idPrefix, navigate, state, config.authenticators]);

  return <Loading />;
}
