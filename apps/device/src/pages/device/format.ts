import type { PushContent } from '@gatehouse/contract/client';
import { t, textsLocale } from '../../messages/index.ts';

/** A server time as the customer reads it (the page's language, their region and zone); as given if it is not a time. */
export function formatTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(textsLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/** The journey a push serves, as the server's journey row says: sign-in (LOGIN) or identity check (STEPUP). */
export function journeyName(journey: PushContent['journey']): string {
  return journey === 'STEPUP' ? t('journeyStepUp') : t('journeyLogin');
}

/**
 * The browser and system that asked, as the server read them from its User-Agent (decision 032);
 * a name it could not read is said to be unknown, in the page's language.
 */
export function browserOn(content: Pick<PushContent, 'browserName' | 'osName'>): string {
  return t(
    'detailBrowserValue',
    content.browserName || t('detailBrowserUnknown'),
    content.osName || t('detailSystemUnknown'),
  );
}
