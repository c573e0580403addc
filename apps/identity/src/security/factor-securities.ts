import { security as otp } from '../factors/otp/security.ts';
import { security as passkey } from '../factors/passkey/security.ts';
import { security as push } from '../factors/push/security.ts';
import { security as token } from '../factors/token/security.ts';
import { security as totp } from '../factors/totp/security.ts';
import { provideFactorSecurities } from './factor-lookup.ts';
import type { FactorSecurityEntry } from './factor-security.ts';

/**
 * The factors' security parts, with the key and credential kinds of each module, provided to the
 * lookup (factor-lookup.ts) when this module loads (security/routes.ts imports it, so every app
 * has them before its first request). Interim: once every `FactorModule` carries `security` and
 * its name table (factors/module.ts), this list is the registry's modules that declare one, and
 * this file goes. The representative's code (rep) has no
 * credential of the account, so it has no security part. Order: the overview's and the page's.
 */
export const factorSecurityList: readonly FactorSecurityEntry[] = [
  { key: 'passkey', credentialKinds: ['passkey'], security: passkey },
  { key: 'totp', credentialKinds: ['totp'], security: totp },
  { key: 'push', credentialKinds: ['push'], security: push },
  { key: 'token', credentialKinds: ['token'], security: token },
  { key: 'otp', credentialKinds: ['phone', 'email'], security: otp },
];

provideFactorSecurities(factorSecurityList);
