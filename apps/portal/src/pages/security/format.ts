import { defaultLanguage, localeOf } from '@gatehouse/i18n';
import { texts } from '../../texts.ts';

/** A server time as the customer reads it (their locale and time zone); as given if it is not one. */
export function formatTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(localeOf(texts.language() ?? defaultLanguage), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(time);
}
