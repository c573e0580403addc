import {
  API_BASE,
  appDefaults,
  cookies,
  type Envelope,
  headers,
  newRequestId,
  customerPaths as paths,
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
  /**
   * The language the page shows, sent as Accept-Language so the service's messages match it
   * rather than the browser's (docs/decisions/029-languages.md); English by default.
   */
  language?: string;
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
 * CSRF tokens the service sent in its X-XSRF-TOKEN response header, per service origin. A page on
 * another host (the portal's dev, uat, qa and prod environments) cannot read the service's
 * XSRF-TOKEN cookie, so it echoes the header's token instead; it lives in memory only, never in
 * web storage. A page on the service's own origin reads the cookie, which every tab shares.
 */
const headerTokens = new Map<string, string>();

function serviceOrigin(url: string): string | undefined {
  if (typeof location === 'undefined') return undefined;
  const origin = new URL(url, location.href).origin;
  return origin === location.origin ? undefined : origin;
}

function keepHeaderToken(url: string, response: Response) {
  const origin = serviceOrigin(url);
  const token = response.headers?.get?.(headers.csrf);
  if (origin && token) headerTokens.set(origin, token);
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

  /**
   * The CSRF token for a state-changing call: the XSRF-TOKEN cookie on the service's own origin,
   * the token from the service's last X-XSRF-TOKEN header on another; fetched first when missing.
   */
  private async ensureXsrf(): Promise<string | undefined> {
    const health = this.url(paths.health);
    const origin = serviceOrigin(health);
    const current = () => (origin ? headerTokens.get(origin) : readCookie(cookies.csrf));
    if (current()) return current();
    const response = await fetch(health, { credentials: 'include', cache: 'no-store' }).catch(
      () => undefined,
    );
    if (response) keepHeaderToken(health, response);
    return current();
  }

  /** One of the widget's named calls (widget spec §7). */
  call<T = unknown>(name: CallName, options: CallOptions = {}): Promise<CallResult<T>> {
    const call = calls[name];
    if (!call) throw new Error(`No call ${name}: its factor's screens are not loaded`);
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
      'Accept-Language': this.settings.language ?? 'en',
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
    const url = this.url(path, options.query);
    try {
      response = await fetch(url, {
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
    keepHeaderToken(url, response);
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
