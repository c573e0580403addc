import {
  API_BASE,
  appDefaults,
  cookies,
  type Envelope,
  headers,
  newRequestId,
  paths,
  Status,
  statusOf,
  UNKNOWN_ERROR,
} from '@gatehouse/contract/client';
import { type CallName, calls } from './calls.ts';

export type ClientSettings = {
  /** Endpoint base; the API lives under `${endpoint}/api`. Empty: the page's own origin. */
  endpoint: string;
  appId: string;
  appName: string;
  /** Sent as SESSION_CTX on every call (portal spec §3, per-request headers), when set. */
  sessionContext?: string;
};

export type CallOptions = {
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

export type CallResult<T = unknown> = {
  http: number;
  status: { code: number; message: string };
  errorType: string;
  envelope: Envelope<T> | null;
};

/** The transport failed (network down, CORS, aborted): no envelope arrived. */
export class TransportError extends Error {
  override name = 'TransportError';
}

/** A cookie the page can read (XSRF-TOKEN, SESSION_SCTX); HttpOnly ones are not visible. */
export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * The one call helper of widget spec §7: JSON, the spec's headers (request id REQ + 32 random
 * characters, app id and name, token type and location, no-cache), credentials included,
 * CSRF header from the XSRF-TOKEN cookie, 204 as success. Every answer is read as the envelope.
 */
export class ApiClient {
  constructor(private readonly settings: ClientSettings) {}

  private url(path: string, query?: Record<string, string>): string {
    const base = this.settings.endpoint.replace(/\/$/, '') + API_BASE + path;
    const search = query ? `?${new URLSearchParams(query).toString()}` : '';
    return base + search;
  }

  /** Makes sure the XSRF-TOKEN cookie exists before a state-changing call. */
  private async ensureXsrf(): Promise<string | undefined> {
    const existing = readCookie(cookies.csrf);
    if (existing) return existing;
    await fetch(this.url(paths.health), { credentials: 'include', cache: 'no-store' }).catch(() => undefined);
    return readCookie(cookies.csrf);
  }

  /** One of the widget's named calls (widget spec §7). */
  call<T = unknown>(name: CallName, options: CallOptions = {}): Promise<CallResult<T>> {
    const call = calls[name];
    // Portal spec §3 and §7: these bodies carry requestBaseInfo with an empty sessionTokens.
    const body =
      'baseInfo' in call && call.baseInfo
        ? { requestBaseInfo: { sessionTokens: {} }, ...(options.body as object | undefined) }
        : options.body;
    return this.request<T>(call.method, call.path, { ...options, ...(body !== undefined ? { body } : {}) });
  }

  /** Any contract path; the portal's calls use this too. */
  async request<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: CallOptions = {},
  ): Promise<CallResult<T>> {
    const requestHeaders: Record<string, string> = {
      Accept: 'application/json',
      'Cache-Control': 'no-cache',
      [headers.requestId]: newRequestId(),
      [headers.appId]: this.settings.appId,
      [headers.appName]: this.settings.appName,
      [headers.acceptTokenType]: appDefaults.tokenType,
      [headers.acceptTokenLocation]: appDefaults.tokenLocation,
      [headers.tokenLocation]: appDefaults.tokenLocation,
      ...(this.settings.sessionContext ? { [headers.sessionCtx]: this.settings.sessionContext } : {}),
      ...options.headers,
    };
    if (method !== 'GET') {
      requestHeaders['Content-Type'] = 'application/json';
      const xsrf = await this.ensureXsrf();
      if (xsrf) requestHeaders[headers.csrf] = xsrf;
    }
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        method,
        headers: requestHeaders,
        credentials: 'include',
        mode: 'cors',
        cache: 'no-store',
        ...(method !== 'GET' ? { body: JSON.stringify(options.body ?? {}) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw new TransportError(error instanceof Error ? error.message : String(error));
    }
    if (response.status === 204) {
      return { http: 204, status: { code: Status.SUCCESS, message: '' }, errorType: 'NONE', envelope: null };
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    const envelope = body as Envelope<T> | null;
    const status = body ? statusOf(body) : { ...UNKNOWN_ERROR };
    return { http: response.status, status, errorType: envelope?.errorType ?? 'NONE', envelope };
  }
}
