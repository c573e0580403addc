import {
  type Callback,
  type Envelope,
  ErrorType,
  type ErrorTypeValue,
  format,
  Status,
  serverMessages,
} from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

export type Extra = {
  successData?: unknown;
  redirectPath?: string;
  ruleData?: Record<string, unknown>;
  callbacks?: Callback[];
};

/** An expected failure: becomes the envelope with its HTTP status, code and message. */
export class ApiError extends Error {
  constructor(
    readonly http: number,
    readonly code: number,
    message: string,
    readonly errorType: ErrorTypeValue = ErrorType.APPLICATION,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 4401 (HTTP 401): no signed-in session, or it expired. */
export const sessionExpired = () => new ApiError(401, Status.UNAUTHENTICATED, serverMessages.sessionExpired);

/** 1401 (HTTP 401): no login transaction in progress (or another request finished it first). */
export const noLoginInProgress = () => new ApiError(401, Status.BLOCKED, serverMessages.noLoginInProgress);

/** 1203: the account is locked after too many wrong passwords; the password must be reset. */
export const blockedForReset = () =>
  new ApiError(200, Status.BLOCKED_FOR_RESET, serverMessages.blockedForReset);

/** 1491 with 'Please contact {support} for assistance (status code 1491).' (portal spec §8). */
export const contactSupport = (supportEmail: string) =>
  new ApiError(200, Status.LIMIT_REACHED, format(serverMessages.contactSupport, supportEmail));

export function envelope(
  request: FastifyRequest,
  status: { code: number; message: string },
  extra: Extra & { errorType?: ErrorTypeValue } = {},
): Envelope {
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

/** A business outcome that is not an error: HTTP 200 with its code in the body. */
export function outcome(
  request: FastifyRequest,
  reply: FastifyReply,
  code: number,
  message: string,
  extra: Extra = {},
) {
  return reply.code(200).send(envelope(request, { code, message }, extra));
}

/** A refused request or a business failure: the envelope with errorType and error. */
export function failure(request: FastifyRequest, reply: FastifyReply, error: ApiError, extra: Extra = {}) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.http)
    .send(
      envelope(
        request,
        { code: error.code, message: error.message },
        { ...extra, errorType: error.errorType },
      ),
    );
}

/**
 * Parses a request part with its contract schema, or throws the 400 envelope naming the field:
 * `password: is required` when it is absent, `username: Invalid input: expected string, received
 * number` when it has the wrong type. A problem with the whole part names the part (`body: …`).
 */
export function parse<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: 'body' | 'query' = 'body',
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.map(String).join('.') : part;
  // zod does not report the input by default: look the value up to tell "absent" from "wrong".
  let given: unknown = value;
  for (const key of issue.path) {
    given =
      given !== null && typeof given === 'object' ? (given as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const problem = issue.code === 'invalid_type' && given === undefined ? 'is required' : issue.message;
  throw new ApiError(400, Status.BAD_REQUEST, format(serverMessages.badRequest, `${where}: ${problem}`));
}
