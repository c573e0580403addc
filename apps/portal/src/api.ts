import { cookies } from '@gatehouse/contract/client';
import { defaultLanguage } from '@gatehouse/i18n';
import { ApiClient, type CallOptions, readCookie } from '@gatehouse/signin';
import { currentEnvironment } from './environment.ts';
import { settings } from './settings.ts';
import { texts } from './texts.ts';

/**
 * The portal's calls (portal spec §7): the environment's service host, with the call helper's
 * headers (Token-Location among them, and Accept-Language) and the session context read from
 * SESSION_SCTX (spec §3).
 */
export const api = {
  request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}) {
    const context = readCookie(cookies.sessionContext);
    const client = new ApiClient({
      endpoint: currentEnvironment().serviceHost,
      appId: settings.appId,
      appName: settings.appName,
      ...(context ? { sessionContext: context } : {}),
      // The service's messages in the language the page shows.
      language: texts.language() ?? defaultLanguage,
    });
    return client.request<T>(method, path, options);
  },
};

/**
 * The initial password of portal spec §3 "Shared session data": kept in memory for one journey
 * (login, then recovery, then reset), never in storage; a reload forgets it. It is sent only in
 * the third form of the enrollment call (portal spec §4). docs/decisions/007-portal-recovery.md.
 */
let initialPassword: string | undefined;
export const journeyMemory = {
  rememberInitialPassword(password: string) {
    initialPassword = password || undefined;
  },
  initialPassword: (): string | undefined => initialPassword,
  forget() {
    initialPassword = undefined;
  },
};

/** The login result kept between screens (portal spec §3): sessionStorage, never a password. */
const LOGIN_RESULT_KEY = 'gh.portal.loginResult';
const OTP_CONFIRMED_KEY = 'gh.portal.otpConfirmed';
export type LoginResult = { username: string; sessionStatusCode: number; pwdAuthStatusCode: number };

export const serviceData = {
  saveLoginResult(result: LoginResult) {
    sessionStorage.setItem(LOGIN_RESULT_KEY, JSON.stringify(result));
  },
  loginResult(): LoginResult | null {
    const raw = sessionStorage.getItem(LOGIN_RESULT_KEY);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as Partial<LoginResult>;
      return typeof value.username === 'string' ? (value as LoginResult) : null;
    } catch {
      return null;
    }
  },
  /** Merges what one call said into the login result (the widget's page events). */
  updateLoginResult(update: Partial<LoginResult>) {
    const current = serviceData.loginResult() ?? { username: '', sessionStatusCode: 0, pwdAuthStatusCode: 0 };
    serviceData.saveLoginResult({ ...current, ...update });
  },
  /** Set after a correct one-time code; the reset page refuses without it (portal spec §6). */
  markOtpConfirmed(username: string) {
    sessionStorage.setItem(OTP_CONFIRMED_KEY, username);
  },
  otpConfirmedFor(): string | null {
    return sessionStorage.getItem(OTP_CONFIRMED_KEY);
  },
  clearLoginResult() {
    sessionStorage.removeItem(LOGIN_RESULT_KEY);
  },
  clear() {
    sessionStorage.removeItem(LOGIN_RESULT_KEY);
    sessionStorage.removeItem(OTP_CONFIRMED_KEY);
    journeyMemory.forget();
  },
};

/** The host and every parent domain of it, for clearing cookies set on any of them. */
export function cookieDomains(hostname: string): Array<string | undefined> {
  const parts = hostname.split('.');
  const domains: Array<string | undefined> = [undefined];
  for (let i = 0; i < parts.length - 1; i++) domains.push(parts.slice(i).join('.'));
  return domains;
}

/** Clears the portal's session cookies (SESSION_SCTX, ET, MC, SC, FC, RC) on every known domain. */
export function clearSessionCookies(): void {
  const portalHost = currentEnvironment().portalHost;
  const hostnames = new Set([
    window.location.hostname,
    ...(portalHost ? [new URL(portalHost).hostname] : []),
  ]);
  for (const name of cookies.portalLogout) {
    for (const domain of [...hostnames].flatMap(cookieDomains)) {
      // biome-ignore lint/suspicious/noDocumentCookie: expiring cookies on other domains needs the raw setter.
      document.cookie = `${name}=; Max-Age=0; Path=/${domain ? `; Domain=${domain}` : ''}`;
    }
  }
}
