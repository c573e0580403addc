import {
  answerOf,
  type ConsoleAuditEvent,
  type ConsoleCustomer,
  type ConsoleStaff,
  consolePaths,
  createHttpClient,
  type HttpMethod,
  type RepCodePurpose,
} from '@gatehouse/contract/client';
import { defaultLanguage } from '@gatehouse/i18n';
import { t, textsLanguage } from './messages.ts';

/**
 * The console's calls (consolePaths; docs/decisions/028-representative-console.md) over the one
 * client (docs/decisions/040-one-shell-one-client.md). The staff session is the HttpOnly GH_STAFF
 * cookie (path /api/console); the CSRF token comes in the X-XSRF-TOKEN response header and is
 * kept by the client, in memory only (never in web storage).
 */
export type Answer<T> =
  | { ok: true; data: T; message: string }
  | { ok: false; code: number; message: string; signedOut: boolean };

/**
 * When the last call the staff session answered was sent: the server moved its idle limit then
 * (every console call does), so the session ends `idleMinutes` after it at the latest. The moment
 * of sending, not of the answer: the console's count never runs behind the server's.
 */
let lastTouch = 0;
const touchListeners = new Set<(sentAt: number) => void>();
/**
 * The console's other tabs of this browser share the one staff session (one cookie): each tells the
 * others when a call of its own moved the session, so an idle tab does not warn, or sign everyone
 * out, while the member works in another. Only a time goes over it (no token, no customer data).
 */
const tabs =
  typeof BroadcastChannel === 'function' ? new BroadcastChannel('gatehouse-console-activity') : null;
tabs?.addEventListener('message', (event: MessageEvent) => {
  if (typeof event.data === 'number' && Number.isFinite(event.data)) touched(event.data, false);
});
function touched(sentAt: number, share: boolean) {
  if (sentAt <= lastTouch) return;
  lastTouch = sentAt;
  for (const listener of touchListeners) listener(sentAt);
  if (share) tabs?.postMessage(sentAt);
}
/** Calls `listener` with the send time of each call the staff session answered; returns the unsubscribe. */
export function onSessionTouch(listener: (sentAt: number) => void): () => void {
  touchListeners.add(listener);
  return () => touchListeners.delete(listener);
}
/** The send time of the last call the staff session answered, in any tab (0: none yet). */
export const lastSessionTouch = () => lastTouch;

async function call<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  query?: Record<string, string>,
): Promise<Answer<T>> {
  const client = createHttpClient({
    // The service's messages in the language the console shows (docs/decisions/029-languages.md).
    language: textsLanguage() ?? defaultLanguage,
    csrf: 'response',
    credentials: 'same-origin',
    emptyBody: false,
  });
  const sentAt = Date.now();
  try {
    const result = await client.request<T>(method, path, {
      ...(body === undefined ? {} : { body }),
      ...(query ? { query } : {}),
    });
    const answer = answerOf(result, (_code, message, http) =>
      http >= 500 ? t('common.somethingWrong') : message || t('common.somethingWrong'),
    );
    // Answered past the guard (a success or a business outcome): the server's idle limit moved.
    // (Not sign-out's: it ends the session rather than moving it.)
    if (result.http < 400 && method !== 'DELETE') touched(sentAt, true);
    return answer.ok ? answer : { ...answer, signedOut: result.http === 401 };
  } catch {
    return { ok: false, code: 0, message: t('common.offline'), signedOut: false };
  }
}

export const consoleApi = {
  session: () => call<ConsoleStaff>('GET', consolePaths.consoleSession),
  signIn: (name: string, password: string) =>
    call<unknown>('POST', consolePaths.consoleSession, { name, password }),
  factor: (securityCode: string) => call<ConsoleStaff>('POST', consolePaths.consoleFactor, { securityCode }),
  signOut: () => call<unknown>('DELETE', consolePaths.consoleSession),
  /** The staff member is still here: moves the session's idle limit (the warning's action, typing). */
  extend: () => call<ConsoleStaff>('POST', consolePaths.consoleSessionExtend),
  customer: (username: string) => call<ConsoleCustomer>('POST', consolePaths.consoleCustomer, { username }),
  issueCode: (username: string, verification: string, note: string, purpose: RepCodePurpose = 'factor') =>
    call<{ code: string; expiresAt: string }>('POST', consolePaths.consoleIssueCode, {
      username,
      verification,
      note,
      purpose,
    }),
  lift: (username: string, action: string, reason: string) =>
    call<ConsoleCustomer>('POST', consolePaths.consoleLift, { username, action, reason }),
  audit: (filters: Record<string, string>) => {
    const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== ''));
    return call<{ events: ConsoleAuditEvent[] }>(
      'GET',
      consolePaths.consoleAudit,
      undefined,
      Object.keys(query).length > 0 ? query : undefined,
    );
  },
};
