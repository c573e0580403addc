/**
 * The one HTTP client of the browser apps (docs/decisions/040-one-shell-one-client.md): JSON over
 * fetch, a request id on every call, the CSRF header on every state-changing call, 204 as success,
 * every answer read as the envelope, a transport failure thrown as TransportError. Each app adds
 * only what is its own: its headers (app id and name, token location, session context), where its
 * CSRF token comes from, and how a failure reads in its catalog (answerOf).
 */
import { appDefaults } from './client-limits.ts';
import { API_BASE } from './customer-paths.ts';
import { type Envelope, statusOf, UNKNOWN_ERROR } from './envelope-core.ts';
import { cookies, headers, newRequestId } from './headers.ts';
import { paths } from './paths.ts';
import { Status } from './status.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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

export type HttpSettings = {
  /** Service base; the API lives under `${endpoint}/api`. Empty: the page's own origin. */
  endpoint?: string;
  /** The page's language, sent as Accept-Language (docs/decisions/029-languages.md). */
  language?: string;
  /** The app's own headers on every call (app id and name, token location, session context). */
  headers?: Record<string, string>;
  /**
   * Where the CSRF token comes from. 'cookie' (the customer apps): the XSRF-TOKEN cookie on the
   * service's own origin, the token of the service's last X-XSRF-TOKEN header on another, fetched
   * first when missing. 'response' (the console): only ever the last X-XSRF-TOKEN response
   * header, and a refused (403) state-changing call is sent once more with the fresh token.
   */
  csrf?: 'cookie' | 'response';
  /** 'include' for a service on another origin; 'same-origin' for one that never is. */
  credentials?: RequestCredentials;
  /**
   * true (the customer API): every non-GET call sends a JSON body, {} when it has none. false (the
   * console): a body, and its Content-Type, only when the call has one.
   */
  emptyBody?: boolean;
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
 * CSRF tokens the service sent in its X-XSRF-TOKEN response header, per service origin ('' for
 * the page's own). A page on another host cannot read the service's cookie, so it echoes the
 * header's token instead; it lives in memory only, never in web storage.
 */
const headerTokens = new Map<string, string>();

function originOf(url: string): string {
  if (typeof location === 'undefined') return '';
  const origin = new URL(url, location.href).origin;
  return origin === location.origin ? '' : origin;
}

/**
 * The customer API's own headers (widget spec §7; portal spec §3 and §7): app id and name, token
 * type and location, no-cache, and SESSION_CTX when the page has a session context.
 */
export function customerHeaders(app: {
  appId: string;
  appName: string;
  sessionContext?: string | undefined;
}) {
  return {
    'Cache-Control': 'no-cache',
    [headers.appId]: app.appId,
    [headers.appName]: app.appName,
    [headers.acceptTokenType]: appDefaults.tokenType,
    [headers.acceptTokenLocation]: appDefaults.tokenLocation,
    [headers.tokenLocation]: appDefaults.tokenLocation,
    ...(app.sessionContext ? { [headers.sessionCtx]: app.sessionContext } : {}),
  };
}

/** The answer of one call: its data, or its code and the app's text for it. */
export type Answer<T> = { ok: true; data: T; message: string } | { ok: false; code: number; message: string };

/**
 * The failure mapping every app shares: success is a 2xx answer whose status is SUCCESS; anything
 * else is the status code with the text `failure` gives it (from the app's outcome table or catalog).
 */
export function answerOf<T>(
  result: CallResult<T>,
  failure: (code: number, serverMessage: string, http: number) => string,
): Answer<T> {
  if (result.http < 300 && result.status.code === Status.SUCCESS) {
    return { ok: true, data: (result.envelope?.successData ?? {}) as T, message: result.status.message };
  }
  return {
    ok: false,
    code: result.status.code,
    message: failure(result.status.code, result.status.message, result.http),
  };
}

export function createHttpClient(settings: HttpSettings = {}) {
  const csrf = settings.csrf ?? 'cookie';
  const url = (path: string, query?: Record<string, string>) =>
    `${(settings.endpoint ?? '').replace(/\/$/, '')}${API_BASE}${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
  // The console's tokens are kept apart from the customer API's, even on one origin.
  const slot = (origin: string) => `${csrf}:${origin}`;
  const keep = (target: string, response: Response) => {
    const token = response.headers?.get?.(headers.csrf);
    const origin = originOf(target);
    if (token && (csrf === 'response' || origin)) headerTokens.set(slot(origin), token);
  };
  const token = (origin: string) =>
    csrf === 'cookie' && !origin ? readCookie(cookies.csrf) : headerTokens.get(slot(origin));

  /** The CSRF token for a state-changing call; in 'cookie' mode fetched first when missing. */
  async function ensureCsrf(): Promise<string | undefined> {
    const health = url(paths.health);
    const origin = originOf(health);
    if (token(origin) || csrf === 'response') return token(origin);
    const response = await fetch(health, {
      credentials: settings.credentials ?? 'include',
      cache: 'no-store',
    }).catch(() => undefined);
    if (response) keep(health, response);
    return token(origin);
  }

  async function send(method: HttpMethod, path: string, options: CallOptions): Promise<Response> {
    const withBody = settings.emptyBody === false ? options.body !== undefined : method !== 'GET';
    const requestHeaders: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': settings.language ?? 'en',
      [headers.requestId]: newRequestId(),
      ...settings.headers,
      ...options.headers,
    };
    if (withBody) requestHeaders['Content-Type'] = 'application/json';
    if (method !== 'GET' || csrf === 'response') {
      const xsrf = await ensureCsrf();
      if (xsrf) requestHeaders[headers.csrf] = xsrf;
    }
    const target = url(path, options.query);
    let response: Response;
    try {
      response = await fetch(target, {
        method,
        headers: requestHeaders,
        credentials: settings.credentials ?? 'include',
        ...(settings.credentials === 'same-origin' ? {} : { mode: 'cors' as const }),
        cache: 'no-store',
        ...(withBody ? { body: JSON.stringify(options.body ?? {}) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw new TransportError(error instanceof Error ? error.message : String(error));
    }
    keep(target, response);
    return response;
  }

  return {
    /** The raw answer, for a body that is not an envelope (the device's event stream). */
    response: send,
    /** Any contract path, read as the envelope. */
    async request<T = unknown>(
      method: HttpMethod,
      path: string,
      options: CallOptions = {},
    ): Promise<CallResult<T>> {
      let response = await send(method, path, options);
      // The console's token of an earlier session (or none yet): the answer carried a fresh one; once more.
      if (csrf === 'response' && response.status === 403 && method !== 'GET') {
        response = await send(method, path, options);
      }
      if (response.status === 204) {
        return {
          http: 204,
          status: { code: Status.SUCCESS, message: '' },
          errorType: 'NONE',
          envelope: null,
        };
      }
      const body: unknown = await response.json().catch(() => null);
      const envelope = body as Envelope<T> | null;
      const status = body ? statusOf(body) : { ...UNKNOWN_ERROR };
      return { http: response.status, status, errorType: envelope?.errorType ?? 'NONE', envelope };
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
