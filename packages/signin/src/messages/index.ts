import { format } from '@gatehouse/contract/client';
import { en, type MessageKey } from './en.ts';

export type { MessageKey } from './en.ts';

export function t(key: MessageKey, ...args: Array<string | number>): string {
  return format(en[key], ...args);
}

/** A screen folder's own catalog: the same `{0}` filling over its texts. */
export function translator<C extends Record<string, string>>(texts: C) {
  return (key: keyof C, ...args: Array<string | number>): string => format(texts[key] as string, ...args);
}
