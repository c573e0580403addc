import type { FactorSecurity } from '../../security/factor-security.ts';
import { appItem } from '../../security/service.ts';

/**
 * The token's part of the security page: listed as `tokens` with its public credential id (VSST…),
 * removed through the page's generic removal; it counts towards the apps' cap with the
 * authenticator apps.
 */
export const security: FactorSecurity = {
  policy: {
    cap: { group: 'apps', max: (config) => config.security.caps.apps, message: 'capApps' },
    recentSignsIn: true,
    recovery: false,
  },
  overview: (ctx, credentials) => {
    const items = credentials.map((c) => appItem(ctx, c));
    return {
      items,
      lists: {
        tokens: items.map((item, i) => ({ ...item, credentialId: credentials[i]?.publicPart ?? '' })),
      },
    };
  },
  remove: { route: 'generic', event: 'security.credential-removed', notice: 'credentialRemoved' },
};
