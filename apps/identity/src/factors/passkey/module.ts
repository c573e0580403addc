import type { FactorModule } from '../module.ts';
import { PASSKEY, PASSKEY_COUNTER, passkeyRoutes, usablePasskeys } from './routes.ts';
import { security } from './security.ts';
import { passkeySettingsOf, settings } from './settings.ts';

/**
 * Passkeys (WebAuthn Level 3 with @simplewebauthn/server; docs/decisions/041-passkeys.md): the
 * strongest factor, phishing-resistant (the browser binds each assertion to the origin, the
 * authenticator to the RP ID). Registered on the security page after its step-up, offered at
 * sign-in and for step-up ahead of the others; the login screen's conditional mediation proves it
 * before the password. Everything it needs is in this folder: its routes, its challenges, its
 * settings and its migration; its passkeys are credentials (kind passkey) of the credential store.
 */
export const factor: FactorModule = {
  names: {
    key: 'passkey',
    types: [PASSKEY],
    credentialKinds: ['passkey'],
    widgetRoutes: ['/authenticator/passkey'],
    textGroup: 'passkey',
    counterKey: PASSKEY_COUNTER,
    // Its blocks count towards a hold (factors/holds.ts): held, it is refused until a recovery or the console.
    holds: ['passkey'],
    auditEvents: ['passkey-counter-regressed'],
    operations: ['passkeyOptions', 'passkeyAuthentication', 'passkeyLoginOptions', 'passkeyLoginAssertion'],
  },
  // First of the list, before the push (10): the strongest factor, phishing-resistant.
  rank: 5,
  assurance: { level: 3, phishingResistant: true },
  settings,
  offer: async (ctx, account, held, journey = 'login') =>
    account.status === 'active' && (await usablePasskeys(ctx, account.id, journey, held)).length
      ? [{ type: PASSKEY }]
      : [],
  routes: passkeyRoutes,
  limits: (config) => {
    const own = passkeySettingsOf(config);
    return {
      PASSKEY_CHALLENGE_SECONDS: own.challengeMs / 1000,
      PASSKEY_MAX_WRONG_TRIES: own.maxWrongTries,
      PASSKEY_BLOCK_MINUTES: own.blockMs / 60_000,
    };
  },
  security,
};
