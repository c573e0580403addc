import { messages } from '../../messages.ts';

/** A server time as the customer reads it (their locale and zone); as given if it is not a time. */
export function formatTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/** The journey a push serves: sign-in (LOGIN) or identity check (STEPUP). */
export function journeyName(journey: string): string {
  const upper = journey.toUpperCase();
  if (upper === 'STEPUP') return messages.journeyStepUp;
  if (upper === 'LOGIN') return messages.journeyLogin;
  return journey;
}
