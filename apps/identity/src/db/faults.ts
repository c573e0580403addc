import { ErrorType, format, Status, serverMessages } from '@gatehouse/contract';
import { ApiError } from '../lib/http.ts';

/**
 * Database errors, classified in one place. Both drivers (PostgreSQL's pool and PGlite) pass every
 * error of a query or a connection through `classifyDatabaseError`, so the rest of the service sees
 * only three kinds:
 *
 * - `DatabaseUnavailable`: the database cannot be reached, reset the connection, timed out or was
 *   closed. An ApiError: the caller gets 503 with code 5003 ('The service is temporarily
 *   unavailable…') and may retry; the journey resumes when the database is back.
 * - `DatabaseRefusedValue` (SQLSTATE 22021, 22P05: a value PostgreSQL cannot store, such as a NUL
 *   character): an ApiError 400 (4400). The contract's string schemas refuse these first; this is
 *   the backstop for values that reach a query by another way.
 * - `DatabaseFailure`: any other SQL error, with its SQLSTATE `code` (callers still test for
 *   23505) and message only.
 *
 * None of them carries what the raw errors do: the SQL parameters (PGlite's `params`, `query`), the
 * row values in `detail`, or the pg client and its connection settings. Log lines take
 * `databaseErrorFields` (code and message).
 */

/** SQLSTATE codes and classes that mean "the database is not there right now". */
const unavailableStates = [
  /^08/, // connection exception
  /^53/, // insufficient resources (too many connections, out of memory, disk full)
  /^57P0[1-4]$/, // admin or crash shutdown, cannot connect now, database dropped
  /^57014$/, // query canceled: statement_timeout
  /^58/, // system error (I/O)
];
/** Node socket error codes of a lost or refused connection. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ERR_SOCKET_CLOSED',
  'ERR_STREAM_DESTROYED',
]);
/** pg, pg-pool, Kysely and PGlite errors of a lost connection or a timeout, which carry no code. */
const unavailableMessages =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|timeout expired|connection error and is not queryable|not queryable|cannot use a pool after calling end|pool is ending|client was closed|connection (is )?closed|pglite is closed|driver has already been destroyed|connection has been discarded/i;
/** Values PostgreSQL cannot store: NUL in text, a character outside the encoding. */
const refusedValueStates = new Set(['22021', '22P05']);

export class DatabaseUnavailable extends ApiError {
  override name = 'DatabaseUnavailable';
  constructor(
    /** The SQLSTATE or socket code of the underlying error, if it had one. */
    readonly dbCode: string | undefined,
    /** The underlying error's message (never its parameters or connection settings). */
    readonly dbMessage: string,
  ) {
    super(503, Status.UNAVAILABLE, serverMessages.unavailable, ErrorType.SYSTEM);
  }
}

export class DatabaseRefusedValue extends ApiError {
  override name = 'DatabaseRefusedValue';
  constructor(
    readonly dbCode: string,
    readonly dbMessage: string,
  ) {
    const params = ['a value contains a character that is not accepted'];
    super(400, Status.BAD_REQUEST, format(serverMessages.badRequest, ...params));
    this.text = { key: 'badRequest', params };
  }
}

export class DatabaseFailure extends Error {
  override name = 'DatabaseFailure';
  constructor(
    /** SQLSTATE, such as 23505 for a unique violation. */
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export type ClassifiedDatabaseError = DatabaseUnavailable | DatabaseRefusedValue | DatabaseFailure;

function fieldsOf(error: unknown): { code: string | undefined; message: string } {
  if (error !== null && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown };
    return {
      code: typeof e.code === 'string' ? e.code : undefined,
      message: typeof e.message === 'string' ? e.message : String(error),
    };
  }
  return { code: undefined, message: String(error) };
}

/** Whether an error (raw or classified) means the database cannot be reached right now. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true;
  if (error instanceof DatabaseFailure || error instanceof DatabaseRefusedValue) return false;
  const { code, message } = fieldsOf(error);
  if (code && (socketCodes.has(code) || unavailableStates.some((state) => state.test(code)))) return true;
  return unavailableMessages.test(message);
}

/** The one classification of a database error; idempotent. */
export function classifyDatabaseError(error: unknown): ClassifiedDatabaseError {
  if (
    error instanceof DatabaseUnavailable ||
    error instanceof DatabaseRefusedValue ||
    error instanceof DatabaseFailure
  ) {
    return error;
  }
  const { code, message } = fieldsOf(error);
  if (isUnavailable(error)) return new DatabaseUnavailable(code, message);
  if (code && refusedValueStates.has(code)) return new DatabaseRefusedValue(code, message);
  return new DatabaseFailure(code, message);
}

/**
 * What a log line may say about a database error: its code (as `errorCode`) and message, nothing
 * else: never the query's parameters or the client.
 */
export function databaseErrorFields(error: unknown): { errorCode: string | undefined; message: string } {
  if (error instanceof DatabaseUnavailable || error instanceof DatabaseRefusedValue) {
    return { errorCode: error.dbCode, message: error.dbMessage };
  }
  const { code, message } = fieldsOf(error);
  return { errorCode: code, message };
}

/** One line for a person reading the console (start-up, `npm run migrate`): the database's own words. */
export function describeError(error: unknown): string {
  if (error instanceof DatabaseUnavailable) {
    return `the database is unavailable (${[error.dbCode, error.dbMessage].filter(Boolean).join(': ')})`;
  }
  if (error instanceof DatabaseRefusedValue) return error.dbMessage;
  return error instanceof Error ? error.message : String(error);
}
