import { appDefaults } from '@gatehouse/contract/client';

/** The portal's fixed settings (portal spec §9); the support address and phone are ours. */
export const settings = {
  appId: appDefaults.portalAppId,
  appName: appDefaults.portalAppName,
  context: appDefaults.portalContext,
  subEvent: appDefaults.portalSubEvent,
  supportEmail: 'loginsupport@primeservices.example',
  repPhone: '1-800-555-0199',
  smsSender: 'PrimeSrv',
  version: import.meta.env.VITE_APP_VERSION ?? '0.1.0',
  /** The signed-in page: where the finish callback sends the browser. */
  homeRoute: '/home',
  /** The username / one-time code screen, as a link the widget can follow. */
  usernameRoute: '#/username',
} as const;
