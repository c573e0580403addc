import { useEffect, useRef } from 'react';
import { t } from './messages/index.ts';

/** The first screen is not a route change: focus stays where the browser put it. */
let firstScreen = true;

/**
 * WCAG 2.4.2 and 2.4.3: each screen names the window ('({n}) ' first while requests wait,
 * 'Error: ' while an error stands) and, on a route change, takes focus to its heading.
 */
export function usePage(title: string, { count = 0, hasErrors = false } = {}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const base = count > 0 ? t('windowTitleWithCount', count, title) : t('windowTitle', title);
    document.title = `${hasErrors ? t('errorTitlePrefix') : ''}${base}`;
  }, [title, count, hasErrors]);
  useEffect(() => {
    if (firstScreen) firstScreen = false;
    else heading.current?.focus();
  }, []);
  return heading;
}

/** Tests start every render as a route change or not. */
export function resetFirstScreen(value = true) {
  firstScreen = value;
}
