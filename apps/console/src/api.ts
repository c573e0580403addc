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
  try {
    const result = await client.request<T>(method, path, {
      ...(body === undefined ? {} : { body }),
      ...(query ? { query } : {}),
    });
    const answer = answerOf(result, (_code, message, http) =>
      http >= 500 ? t('common.somethingWrong') : message || t('common.somethingWrong'),
    );
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
