import { useAnnounce } from '@gatehouse/ui';
import { type RefObject, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { t } from './messages/index.ts';

/** The first screen is not a route change: focus stays where the browser put it. */
let firstScreen = true;

/** Field errors standing anywhere on the page (a push card's number, an account's new name). */
let standingErrors = 0;
const errorListeners = new Set<() => void>();
const subscribeErrors = (listener: () => void) => {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
};
const readErrors = () => standingErrors;

/**
 * WCAG 2.4.2 and 2.4.3: each screen names the window ('({n}) ' first while requests wait,
 * 'Error: ' while an error stands, its own or a field's on the page) and, on a route change,
 * takes focus to its heading.
 */
export function usePage(title: string, { count = 0, hasErrors = false } = {}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const fieldErrors = useSyncExternalStore(subscribeErrors, readErrors, readErrors);
  const anyError = hasErrors || fieldErrors > 0;
  useEffect(() => {
    const base = count > 0 ? t('windowTitleWithCount', count, title) : t('windowTitle', title);
    document.title = `${anyError ? t('errorTitlePrefix') : ''}${base}`;
  }, [title, count, anyError]);
  useEffect(() => {
    if (firstScreen) firstScreen = false;
    else heading.current?.focus();
  }, []);
  return heading;
}

/**
 * A field's error, GOV.UK's way for a form without a summary: set, then (once the error is in the
 * page and the field describes itself with it) the field takes focus and the error is said in the
 * live region, so a press that changes nothing visible (Enter in a focused field) is heard too.
 * While it stands, the window title starts with 'Error: '.
 */
export function useFieldError(field: RefObject<HTMLElement | null>) {
  const [error, setError] = useState<string | undefined>();
  const [shown, setShown] = useState(0);
  const announce = useAnnounce();
  const show = useCallback((text: string) => {
    setError(text);
    setShown((n) => n + 1);
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per failed press, after its render.
  useEffect(() => {
    if (shown === 0 || !error) return;
    field.current?.focus();
    announce(error);
  }, [shown]);
  const standing = Boolean(error);
  useEffect(() => {
    if (!standing) return;
    standingErrors += 1;
    for (const listener of errorListeners) listener();
    return () => {
      standingErrors -= 1;
      for (const listener of errorListeners) listener();
    };
  }, [standing]);
  return { error, show, clear };
}

/** Tests start every render as a route change or not. */
export function resetFirstScreen(value = true) {
  firstScreen = value;
}
