import type { FactorSecurity } from '../../security/factor-security.ts';
import { appItem } from '../../security/service.ts';

/**
 * The push device's part of the security page: added from the device app (device-routes.ts, under
 * the cap below), listed as `pushDevices`, removed through the page's generic removal.
 */
export const security: FactorSecurity = {
  policy: {
    cap: {
      group: 'pushDevices',
      max: (config) => config.security.caps.pushDevices,
      message: 'capPushDevices',
    },
    recentSignsIn: true,
    recovery: false,
  },
  overview: (ctx, credentials) => {
    const items = credentials.map((c) => appItem(ctx, c));
    return { items, lists: { pushDevices: items } };
  },
  remove: { route: 'generic', event: 'security.credential-removed', notice: 'credentialRemoved' },
};
