import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
/** SHA-256 in hex; the one-shot `hash` costs a quarter of createHash's object (issue 25). */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');
export const hmac = (key: string, value: string): string =>
  createHmac('sha256', key).update(value).digest('base64url');

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
