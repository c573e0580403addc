import { t, textsLocale } from '../../messages/index.ts';

/** A server time as the customer reads it (the page's language, their region and zone); as given if it is not a time. */
export function formatTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(textsLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/** The journey a push serves: sign-in (LOGIN) or identity check (STEPUP). */
export function journeyName(journey: string): string {
  const upper = journey.toUpperCase();
  if (upper === 'STEPUP') return t('journeyStepUp');
  if (upper === 'LOGIN') return t('journeyLogin');
  return journey;
}
