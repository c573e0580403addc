import { limits } from '@gatehouse/contract/client';
import { type RefObject, useEffect, useRef } from 'react';

/**
 * Widget spec §4: a 400 ms delay precedes focusing headings. The heading takes focus only if
 * the person has not already moved focus into the page, so typing is never interrupted.
 */
export function useHeadingFocus(
  ref: RefObject<HTMLElement | null>,
  delay: number = limits.focusDelayMs,
  /** A value that changes when the screen's content changes in place (a view switched): focus again. */
  view?: unknown,
) {
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view (switched in place) moves focus again
  useEffect(() => {
    // A view switched in place: the control that switched it goes away, so the heading takes focus.
    const switched = !first.current;
    first.current = false;
    const timer = window.setTimeout(() => {
      const active = document.activeElement;
      if (switched || !active || active === document.body || active === ref.current) ref.current?.focus();
    }, delay);
    return () => window.clearTimeout(timer);
  }, [ref, delay, view]);
}
