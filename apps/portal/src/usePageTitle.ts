import { useEffect } from 'react';
import { t } from './texts.ts';

/**
 * WCAG 2.4.2: each route names itself in the window title; while errors stand after a failed
 * submit, 'Error: ' comes first (GOV.UK Frontend), so the failure is heard whatever has focus.
 */
export function usePageTitle(title: string, hasErrors = false) {
  useEffect(() => {
    document.title = `${hasErrors ? t('shell.errorTitlePrefix') : ''}${title} – ${t('shell.productName')}`;
  }, [title, hasErrors]);
}
