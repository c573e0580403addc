import type { Credential } from '../../credentials/store.ts';
import type { FactorModule } from '../registry.ts';
import { PASSKEY_COUNTER, passkeyRoutes, usablePasskeys } from './routes.ts';
import { passkeyOverview, passkeySecurityRoutes } from './security.ts';
import { loadPasskeySettings, passkeySettings } from './settings.ts';

/**
 * Passkeys (WebAuthn Level 3 with @simplewebauthn/server; docs/decisions/041-passkeys.md): the
 * strongest factor, phishing-resistant (the browser binds each assertion to the origin, the
 * authenticator to the RP ID). Registered on the security page after its step-up, offered at
 * sign-in and for step-up ahead of the others; the login screen's conditional mediation proves it
 * before the password. Everything it needs is in this folder: its routes, its challenges, its
 * settings and its migration; its passkeys are credentials (kind passkey) of the credential store.
 */
export const passkeyFactor: FactorModule & {
  names: {
    key: string;
    types: readonly ['PASSKEY'];
    credentialKinds: readonly ['passkey'];
    widgetRoutes: readonly string[];
    textGroup: string;
    counterKey: string;
    operations: readonly string[];
  };
  rank: number;
  assurance: { level: 3; phishingResistant: true };
  settings: typeof passkeySettings;
  security: {
    overview: (
      ctx: Parameters<FactorModule['offer']>[0],
      credentials: Credential[],
    ) => ReturnType<typeof passkeyOverview>;
  };
} = {
  name: 'passkey',
  names: {
    key: 'passkey',
    types: ['PASSKEY'],
    credentialKinds: ['passkey'],
    widgetRoutes: ['/authenticator/passkey'],
    textGroup: 'passkey',
    counterKey: PASSKEY_COUNTER,
    operations: [
      'passkeyOptions',
      'passkeyAuthentication',
      'passkeyLoginOptions',
      'passkeyLoginAssertion',
      'securityPasskeyOptions',
      'securityPasskeyAdd',
    ],
  },
  // First of the list: the strongest factor (NIST SP 800-63B rev. 4 AAL3-capable, phishing-resistant).
  rank: 0,
  assurance: { level: 3, phishingResistant: true },
  settings: passkeySettings,
  types: ['PASSKEY'],
  offer: async (ctx, account, _contacts, journey = 'login') =>
    account.status === 'active' && (await usablePasskeys(ctx, account.id, journey)).length
      ? [{ type: 'PASSKEY' }]
      : [],
  routes: (app, ctx) => {
    const settings = loadPasskeySettings(ctx.config);
    passkeyRoutes(app, ctx, settings);
    passkeySecurityRoutes(app, ctx, settings);
  },
  limits: (config) => {
    const settings = loadPasskeySettings(config);
    return {
      PASSKEY_CHALLENGE_SECONDS: settings.challengeMs / 1000,
      PASSKEY_MAX_WRONG_TRIES: settings.maxWrongTries,
      PASSKEY_BLOCK_MINUTES: settings.blockMs / 60_000,
    };
  },
  security: { overview: passkeyOverview },
};

/** The registry reads `factor` (factors/*\/module.ts). */
export const factor = passkeyFactor;
