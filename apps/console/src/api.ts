import {
  API_BASE,
  type ConsoleAuditEvent,
  type ConsoleCustomer,
  type ConsoleStaff,
  consolePaths,
  headers,
  newRequestId,
  Status,
  statusOf,
} from '@gatehouse/contract/client';
import { defaultLanguage } from '@gatehouse/i18n';
import { t, textsLanguage } from './messages.ts';

/**
 * The console's calls (consolePaths; docs/decisions/028-representative-console.md). The staff
 * session is the HttpOnly GH_STAFF cookie (path /api/console); the CSRF token comes in the
 * X-XSRF-TOKEN response header and is kept here, in memory only (never in web storage).
 */
export type Answer<T> =
  | { ok: true; data: T; message: string }
  | { ok: false; code: number; message: string; signedOut: boolean };

let csrfToken = '';

async function send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, query?: string) {
  const response = await fetch(`${API_BASE}${path}${query ?? ''}`, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers: {
      Accept: 'application/json',
      // The service's messages in the language the console shows (docs/decisions/029-languages.md).
      'Accept-Language': textsLanguage() ?? defaultLanguage,
      [headers.requestId]: newRequestId(),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(csrfToken ? { [headers.csrf]: csrfToken } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const next = response.headers.get(headers.csrf);
  if (next) csrfToken = next;
  return response;
}

async function call<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  query?: string,
): Promise<Answer<T>> {
  try {
    let response = await send(method, path, body, query);
    // A token of an earlier session (or none yet): the answer carried a fresh one; once more.
    if (response.status === 403 && method !== 'GET') response = await send(method, path, body, query);
    if (response.status === 204) return { ok: true, data: {} as T, message: '' };
    const envelope = (await response.json().catch(() => null)) as { successData?: T } | null;
    const status = statusOf(envelope);
    if (response.ok && status.code === Status.SUCCESS) {
      return { ok: true, data: (envelope?.successData ?? {}) as T, message: status.message };
    }
    return {
      ok: false,
      code: status.code,
      message:
        response.status >= 500 ? t('common.somethingWrong') : status.message || t('common.somethingWrong'),
      signedOut: response.status === 401,
    };
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
  customer: (username: string) => call<ConsoleCustomer>('POST', consolePaths.consoleCustomer, { username }),
  issueCode: (username: string, verification: string, note: string) =>
    call<{ code: string; expiresAt: string }>('POST', consolePaths.consoleIssueCode, {
      username,
      verification,
      note,
    }),
  lift: (username: string, action: string, reason: string) =>
    call<ConsoleCustomer>('POST', consolePaths.consoleLift, { username, action, reason }),
  audit: (filters: Record<string, string>) => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v.trim() !== '')).toString();
    return call<{ events: ConsoleAuditEvent[] }>(
      'GET',
      consolePaths.consoleAudit,
      undefined,
      query ? `?${query}` : '',
    );
  },
};
