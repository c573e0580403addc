import { format } from '@gatehouse/contract/client';
import { en, type MessageKey } from './en.ts';

export type { MessageKey } from './en.ts';

export function t(key: MessageKey, ...args: Array<string | number>): string {
  return format(en[key], ...args);
}
