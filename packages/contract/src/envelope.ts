import { z } from 'zod';
import { ErrorType } from './status.ts';

export const callbackSchema = z.object({
  name: z.enum(['PASSWORD', 'IDENTITY']),
  type: z.enum(['EXPIRED', 'SETUP', 'MAINTENANCE']),
});

export const statusSchema = z.object({ code: z.number().int(), message: z.string() });

/**
 * The one response envelope of both specs (design.md, "Contract decisions"): success and
 * failure alike carry responseBaseInfo.status; the other fields are present when they apply.
 */
export function envelopeSchema<T extends z.ZodType>(successData: T) {
  return z.object({
    responseBaseInfo: z.object({ requestId: z.string(), status: statusSchema }),
    successData: successData.optional(),
    redirectPath: z.string().optional(),
    ruleData: z.record(z.string(), z.unknown()).optional(),
    callbacks: z.array(callbackSchema).optional(),
    errorType: z.enum([ErrorType.APPLICATION, ErrorType.SYSTEM]).optional(),
    error: statusSchema.optional(),
  });
}

export const anyEnvelopeSchema = envelopeSchema(z.unknown());
export type { Callback, Envelope } from './envelope-core.ts';
export { statusOf, UNKNOWN_ERROR } from './envelope-core.ts';
