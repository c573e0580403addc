import { appDefaults, clientLimits as limits } from './client-limits.ts';

/** Request header names of both specs (§7 widget, §3 portal). */
export const headers = {
  appId: 'AppId',
  appName: 'AppName',
  requestId: 'X-Request-Id',
  acceptTokenType: 'Accept-Token-Type',
  acceptTokenLocation: 'Accept-Token-Location',
  tokenLocation: 'Token-Location',
  sessionCtx: 'SESSION_CTX',
  eventType: 'eventtype',
  subEventType: 'sub_eventtype',
  csrf: 'X-XSRF-TOKEN',
} as const;

export const cookies = {
  session: 'ET',
  sessionContext: 'SESSION_SCTX',
  csrf: 'XSRF-TOKEN',
  device: 'GH_DEVICE',
  /** The recovery flow (portal username / one-time code screen, reset password): HttpOnly. */
  recovery: 'GH_RECOVERY',
  /** Cookies the portal clears at logout (portal spec §2, §3). */
  portalLogout: ['SESSION_SCTX', 'ET', 'MC', 'SC', 'FC', 'RC'],
} as const;

/** REQ + 32 random characters from a CSPRNG. */
export function newRequestId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const length = appDefaults.requestIdPrefix.length + limits.requestIdRandomLength;
  let id: string = appDefaults.requestIdPrefix;
  while (id.length < length) {
    const bytes = new Uint8Array(48);
    globalThis.crypto.getRandomValues(bytes);
    // Rejection sampling: 248 = 4 * 62, so every character is equally likely.
    for (const b of bytes) if (b < 248 && id.length < length) id += alphabet[b % 62];
  }
  return id;
}
