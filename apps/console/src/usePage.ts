import { useEffect, useRef } from 'react';
import { t } from './messages.ts';

/** The first screen is not a route change: focus stays where the browser put it. */
let firstScreen = true;

/**
 * WCAG 2.4.2 and 2.4.3: each screen names the window ('Error: ' first while an error stands) and,
 * on a screen change, takes focus to its heading.
 */
export function usePage(title: string, hasErrors = false) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${hasErrors ? t('common.errorTitlePrefix') : ''}${t('common.windowTitle', title)}`;
  }, [title, hasErrors]);
  useEffect(() => {
    if (firstScreen) firstScreen = false;
    else heading.current?.focus();
  }, []);
  return heading;
}
