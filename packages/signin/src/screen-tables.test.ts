import type { AuthenticatorItem, Callback } from '@gatehouse/contract/client';
import { describe, expect, it } from 'vitest';
import { routes } from './routes.ts';
import {
  authenticatorScreen,
  authenticatorScreens,
  callbackScreen,
  callbackScreens,
  otpChannelTypes,
} from './screen-tables.ts';

const item = (type: string) => ({ type }) as AuthenticatorItem;

describe('authenticator -> screen (widget spec §2 "Entry to the authenticator area")', () => {
  it('has one row per authenticator type of the contract', () => {
    expect(authenticatorScreens).toEqual({
      'OTP-SMS': '/authenticator/otp',
      'OTP-VOICE': '/authenticator/otp',
      'OTP-EMAIL': '/authenticator/otp',
      'OTP-REP': '/authenticator/rep',
      TOTPSVIP: '/authenticator/svip',
      PUSH: '/authenticator/push',
      TOTPAUTHN: '/authenticator/totp',
      PASSKEY: '/authenticator/passkey',
    });
  });

  it.each(['OTP-SMS', 'OTP-VOICE', 'OTP-EMAIL'])(
    'a list starting with %s opens the one-time-code screen',
    (type) => {
      const first = item(type);
      expect(authenticatorScreen([first, item('OTP-REP')])).toEqual({
        to: routes.authenticatorOtp,
        item: first,
      });
    },
  );

  it('a list starting with PUSH opens the push screen, with the entry (and so its context)', () => {
    const push: AuthenticatorItem = { type: 'PUSH', context: { channel: 'web' } };
    expect(authenticatorScreen([push, item('OTP-EMAIL')])).toEqual({
      to: routes.authenticatorPush,
      item: push,
    });
  });

  it('an empty list opens the representative page', () => {
    expect(authenticatorScreen([])).toEqual({ to: routes.authenticatorRep });
  });

  it('every factor of the spec has its screens (issue 12): the token and authenticator-app rows open them', () => {
    expect(authenticatorScreen([item('TOTPSVIP'), item('OTP-EMAIL')])).toEqual({
      to: routes.authenticatorSvip,
      item: item('TOTPSVIP'),
    });
    expect(authenticatorScreen([item('TOTPAUTHN')])).toEqual({
      to: routes.authenticatorTotp,
      item: item('TOTPAUTHN'),
    });
  });

  it('skips types it has no row for, taking the next usable entry', () => {
    const email = item('OTP-EMAIL');
    expect(authenticatorScreen([item('FIDO2'), item('SOMETHING'), email])).toEqual({
      to: routes.authenticatorOtp,
      item: email,
    });
  });

  it("a list with only unknown types opens the representative page, the spec's default, not an empty factor screen", () => {
    expect(authenticatorScreen([item('FIDO2'), item('SOMETHING')])).toEqual({ to: routes.authenticatorRep });
  });

  it('reads only its own rows (an answer cannot name a property of every object)', () => {
    expect(authenticatorScreen([item('constructor'), item('__proto__'), item('toString')])).toEqual({
      to: routes.authenticatorRep,
    });
  });

  it('the one-time-code channels are the rows that open the one-time-code screen', () => {
    expect([...otpChannelTypes].sort()).toEqual(['OTP-EMAIL', 'OTP-SMS', 'OTP-VOICE']);
  });
});

describe('callback -> page (widget spec §4, session login)', () => {
  const cb = (name: string, type: string) => ({ name, type }) as Callback;

  it('has one row per callback', () => {
    expect(callbackScreens).toEqual({
      'PASSWORD/EXPIRED': { to: '/expired' },
      'PASSWORD/SETUP': { to: '/forcedaci' },
      'IDENTITY/MAINTENANCE': { to: '/blocked', state: { reason: 'maintenance' } },
    });
  });

  it.each([
    ['PASSWORD', 'EXPIRED', routes.expired],
    ['PASSWORD', 'SETUP', routes.forcedUpdate],
    ['IDENTITY', 'MAINTENANCE', routes.blocked],
  ])('%s/%s opens %s', (name, type, to) => {
    expect(callbackScreen([cb(name, type)])?.to).toBe(to);
  });

  it('the maintenance page is told why it is shown', () => {
    expect(callbackScreen([cb('IDENTITY', 'MAINTENANCE')])?.state).toEqual({ reason: 'maintenance' });
  });

  it('the first callback with a row wins; none (or only unknown ones) has no page', () => {
    expect(
      callbackScreen([cb('IDENTITY', 'EXPIRED'), cb('PASSWORD', 'SETUP'), cb('PASSWORD', 'EXPIRED')])?.to,
    ).toBe(routes.forcedUpdate);
    expect(callbackScreen([])).toBeUndefined();
    expect(callbackScreen([cb('IDENTITY', 'EXPIRED'), cb('constructor', '')])).toBeUndefined();
  });
});
