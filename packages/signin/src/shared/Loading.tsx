import { t } from '../messages/index.ts';

/** Shown while a screen's code or its data loads: a polite status, so the wait is never silent. */
export function Loading() {
  return (
    <p className="gh-signin__loading" role="status" aria-live="polite">
      <span className="gh-signin__loading-ring" aria-hidden="true" />
      {t('page.loading')}
    </p>
  );
}
