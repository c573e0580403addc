import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { ApiError } from './http.ts';

/**
 * The service's logger. No secret can reach a line by construction, so there is no redaction pass
 * (pino's wildcard redaction walked every object of every line, most of the request line's cost:
 * issue 25, docs/security.md#logs):
 *
 * - a request is written by the `req` serializer: method, path without its query, route, client
 *   address and the clients' correlation headers; never its cookies, other headers or body;
 * - an answer by the `res` serializer: its status only (no Set-Cookie, no body);
 * - an error by the `err` serializer: its type, message, stack, a system code and its causes
 *   (errorFields below); never the other properties a library's error may carry (the request it
 *   failed on, with its body and headers);
 * - every other line names its fields (account ids, counts, reasons; database errors as
 *   databaseErrorFields, client log entries cleaned by plugins/client-logs.ts).
 */
/** A request to the OpenID Provider (oidc/plugin.ts): its routes are under /oidc/. */
const providerPath = (request: FastifyRequest): boolean =>
  request.routeOptions?.url?.startsWith('/oidc/') === true || String(request.url).startsWith('/oidc/');

export function createLogger(level: string, stream: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          // The query is cut; on the OpenID Provider's paths, so are its ids (an interaction's is
          // its cookie's value).
          url: providerPath(request)
            ? String(request.url)
                .replace(/\?.*$/, '?…')
                .replace(/\/[A-Za-z0-9_-]{16,}(?=\/|\?|$)/g, '/…')
            : String(request.url).replace(/\?.*$/, '?…'),
          route: request.routeOptions?.url,
          remoteAddress: request.ip,
          appId: request.headers?.appid,
          appName: request.headers?.appname,
          eventType: request.headers?.eventtype,
          subEventType: request.headers?.sub_eventtype,
        }),
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
        err: errorFields,
      },
    },
    stream,
  );
}

export type ErrorFields = {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  statusCode?: number;
  cause?: ErrorFields | string;
  errors?: Array<ErrorFields | string>;
};

/** A code as systems and libraries name a failure (`ECONNREFUSED`, `ERR_INVALID_URL`, `FST_ERR_…`, `EAUTH`). */
const SYSTEM_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
 * What a log line says about an error: its type, message and stack; its code when it is a system
 * code (or, for an ApiError, its status code from the contract); an HTTP status; its cause and an
 * AggregateError's first errors, the same way. Nothing else is copied: an HTTP client's error
 * carries the request it sent (a body with a password or a one-time code, an Authorization
 * header), a mailer's the message. A value that is not an error is kept if it is a string (a
 * message), otherwise only its type is written.
 */
export function errorFields(value: unknown, depth = 0): ErrorFields | string {
  if (typeof value === 'string') return value;
  if (!(value instanceof Error)) return { type: value === null ? 'null' : typeof value, message: '' };
  const fields: ErrorFields = { type: value.constructor?.name || value.name, message: value.message };
  if (typeof value.stack === 'string') fields.stack = value.stack;
  const { code, statusCode } = value as { code?: unknown; statusCode?: unknown };
  if (value instanceof ApiError) fields.code = value.code;
  else if (typeof code === 'string' && SYSTEM_CODE.test(code)) fields.code = code;
  if (typeof statusCode === 'number') fields.statusCode = statusCode;
  if (depth < 3) {
    if (value.cause !== undefined) fields.cause = errorFields(value.cause, depth + 1);
    if (value instanceof AggregateError && Array.isArray(value.errors)) {
      fields.errors = value.errors.slice(0, 5).map((e) => errorFields(e, depth + 1));
    }
  }
  return fields;
}
