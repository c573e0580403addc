import {
  type Callback,
  type Codes,
  type Envelope,
  ErrorType,
  type ErrorTypeValue,
  format,
  genericOutcomes,
  headers,
  type Outcome,
  outcomeMessages,
  type ServerMessageKey,
  Status,
  serverMessages,
  UNKNOWN_ERROR,
} from '@gatehouse/contract';
import { defaultLanguage, type Language } from '@gatehouse/i18n';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { localise, serverText } from './language.ts';

export type Extra = {
  successData?: unknown;
  redirectPath?: string;
  ruleData?: Record<string, unknown>;
  callbacks?: Callback[];
};

/**
 * An expected failure: becomes the envelope with its HTTP status, code and message. The message
 * is English (logs, tests); the envelope carries it in the request's language, by `text`'s key
 * and placeholders when it has them, else by the English text (lib/language.ts).
 */
export class ApiError extends Error {
  text?: { key: ServerMessageKey; params: Array<string | number> };
  constructor(
    readonly http: number,
    readonly code: number,
    message: string,
    readonly errorType: ErrorTypeValue = ErrorType.APPLICATION,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** A failure whose message is a catalog text with placeholders. */
  static of(
    http: number,
    code: number,
    key: ServerMessageKey,
    params: Array<string | number>,
    headers: Record<string, string> = {},
  ): ApiError {
    const error = new ApiError(http, code, format(serverMessages[key], ...params), undefined, headers);
    error.text = { key, params };
    return error;
  }
}

/** The host's context of a call (the SESSION_CTX header), when it is one: 1-64 of [A-Za-z0-9_.-]. */
export const contextHeader = (request: FastifyRequest): string | null => {
  const value = request.headers[headers.sessionCtx.toLowerCase()];
  return typeof value === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : null;
};

/** 4401 (HTTP 401): no signed-in session, or it expired. */
export const sessionExpired = () => new ApiError(401, Status.UNAUTHENTICATED, serverMessages.sessionExpired);

/** 1401 (HTTP 401): no login transaction in progress (or another request finished it first). */
export const noLoginInProgress = () => new ApiError(401, Status.BLOCKED, serverMessages.noLoginInProgress);

/**
 * The envelope of an answer; its message in the request's language (`text`: the catalog key and
 * placeholders it was built from, when known).
 */
export function envelope(
  request: FastifyRequest,
  english: { code: number; message: string },
  extra: Extra & { errorType?: ErrorTypeValue } = {},
  text?: { key: ServerMessageKey; params: ReadonlyArray<string | number> },
): Envelope {
  const status = { code: english.code, message: localise(request, english.message, text?.key, text?.params) };
  const body: Envelope = { responseBaseInfo: { requestId: request.id, status } };
  if (extra.successData !== undefined) body.successData = extra.successData;
  if (extra.redirectPath !== undefined) body.redirectPath = extra.redirectPath;
  if (extra.ruleData !== undefined) body.ruleData = extra.ruleData;
  if (extra.callbacks !== undefined) body.callbacks = extra.callbacks;
  if (extra.errorType !== undefined) {
    body.errorType = extra.errorType;
    body.error = status;
  }
  return body;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An answer outside its route's outcome table is a 500 (development and test), or only an
     * error log line (production). Decorated once in app.ts.
     */
    outcomesStrict: boolean;
  }
}

/** The outcome table of the request's route (the generic answers included); the generic ones alone without a route. */
const routeOutcomes = (request: FastifyRequest): { route: string; codes: Codes } =>
  request.routeOptions?.config?.outcomes ?? { route: `${request.method} (no route)`, codes: genericOutcomes };

const holds = (entry: Outcome | undefined, http: number): entry is Outcome =>
  entry !== undefined && !entry.unsent && (entry.http === http || !!entry.alsoHttp?.includes(http));

/**
 * The one check every answer goes through: its route's outcome table must hold the code with
 * this HTTP status (docs/decisions/015-outcome-tables.md). A violation is logged as an error
 * naming route and code; in development and test the answer becomes the 500 envelope
 * ('Unknown error') so that any test that meets it fails. Returns false when that 500 was sent.
 */
function checkAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  http: number,
  code: number,
  problem?: string,
): boolean {
  const { route, codes } = routeOutcomes(request);
  const entry = codes[code];
  if (holds(entry, http) && !problem) return true;
  request.log.error(
    {
      route,
      code,
      http,
      problem: problem ?? (entry ? `the table says HTTP ${entry.http}` : 'not in the table'),
    },
    'answer outside the outcome table',
  );
  if (!request.server.outcomesStrict) return true;
  reply.code(500).send(envelope(request, { ...UNKNOWN_ERROR }, { errorType: ErrorType.SYSTEM }));
  return false;
}

/** A refused request or a business failure: the envelope with errorType and error. */
export function failure(request: FastifyRequest, reply: FastifyReply, error: ApiError, extra: Extra = {}) {
  if (!checkAnswer(request, reply, error.http, error.code)) return reply;
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.http)
    .send(
      envelope(
        request,
        { code: error.code, message: error.message },
        { ...extra, errorType: error.errorType },
        error.text,
      ),
    );
}

export type AnswerOptions = Extra & {
  /** Which of the code's messages (default: the table's first). */
  message?: ServerMessageKey;
  /** Values for the message's `{0}`-style placeholders. */
  params?: Array<string | number>;
  headers?: Record<string, string>;
  /** The body of a route whose table says raw JSON or HTML (health, outbox, the OpenAPI document). */
  body?: unknown;
};

/**
 * Answers with a code of the route's outcome table: its HTTP status, its message (filled with
 * `params`), and for a failure errorType and error; 204 without a body; a raw or HTML route
 * sends `body`. A code (or message) the table does not hold goes through the same check as
 * failure() (thrown ApiErrors).
 */
export function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  code: number,
  options: AnswerOptions = {},
) {
  const { message, params = [], headers = {}, body, ...extra } = options;
  const entry = routeOutcomes(request).codes[code];
  const messages = entry ? outcomeMessages(entry) : [];
  const key = message ?? messages[0];
  const http = entry?.http ?? (code >= Status.UNKNOWN ? 500 : 200);
  const problem =
    message !== undefined && !messages.includes(message)
      ? `message ${message} is not in the table`
      : undefined;
  if (!checkAnswer(request, reply, http, code, problem)) return reply;
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.code(http);
  if (http === 204) return reply.send();
  if (body !== undefined) return reply.send(body);
  const text = key ? format(serverMessages[key], ...params) : '';
  const errorType = entry?.failure
    ? code >= Status.UNKNOWN
      ? ErrorType.SYSTEM
      : ErrorType.APPLICATION
    : undefined;
  return reply.send(
    envelope(
      request,
      { code, message: text },
      { ...extra, ...(errorType ? { errorType } : {}) },
      key ? { key, params } : undefined,
    ),
  );
}

/** zod's own messages in a shipped language (its locales), English where zod has none. */
const zodMessages = (language: Language) =>
  (z.locales as Partial<Record<string, () => { localeError: z.core.$ZodErrorMap }>>)[language]?.()
    .localeError;

/**
 * Parses a request part with its contract schema, or throws the 400 envelope naming the field:
 * `password: is required` when it is absent, `username: Invalid input: expected string, received
 * number` when it has the wrong type, both in the request's language (zod's locale for its own
 * messages; a schema's own message stays as the contract words it). A problem with the whole part
 * names the part (`body: …`).
 */
export function parse<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: 'body' | 'query' = 'body',
  language: Language = defaultLanguage,
): z.infer<T> {
  const error = language === defaultLanguage ? undefined : zodMessages(language);
  const result = schema.safeParse(value, error ? { error } : undefined);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.map(String).join('.') : part;
  // zod does not report the input by default: look the value up to tell "absent" from "wrong".
  let given: unknown = value;
  for (const key of issue.path) {
    given =
      given !== null && typeof given === 'object' ? (given as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const problem =
    issue.code === 'invalid_type' && given === undefined
      ? serverText(language, 'fieldRequired')
      : issue.message;
  throw ApiError.of(400, Status.BAD_REQUEST, 'badRequest', [`${where}: ${problem}`]);
}
