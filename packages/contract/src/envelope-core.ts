import { type ErrorType, Status } from './status.ts';

export type Callback = { name: 'PASSWORD' | 'IDENTITY'; type: 'EXPIRED' | 'SETUP' | 'MAINTENANCE' };

export type Envelope<T = unknown> = {
  responseBaseInfo: { requestId: string; status: { code: number; message: string } };
  successData?: T;
  redirectPath?: string;
  ruleData?: Record<string, unknown>;
  callbacks?: Callback[];
  errorType?: (typeof ErrorType)[keyof typeof ErrorType];
  error?: { code: number; message: string };
};

export const UNKNOWN_ERROR = { code: Status.UNKNOWN, message: 'Unknown error' } as const;

/**
 * The status of any envelope-like body, or the unknown error when the body is not one. Written
 * without zod so that clients reading answers do not carry the schema library.
 */
export function statusOf(body: unknown): { code: number; message: string } {
  const isStatus = (v: unknown): v is { code: number; message: string } =>
    typeof v === 'object' &&
    v !== null &&
    Number.isInteger((v as { code?: unknown }).code) &&
    typeof (v as { message?: unknown }).message === 'string';
  if (typeof body !== 'object' || body === null) return { ...UNKNOWN_ERROR };
  const { error, responseBaseInfo } = body as { error?: unknown; responseBaseInfo?: { status?: unknown } };
  if (isStatus(error)) return { code: error.code, message: error.message };
  const status = responseBaseInfo?.status;
  return isStatus(status) ? { code: status.code, message: status.message } : { ...UNKNOWN_ERROR };
}
