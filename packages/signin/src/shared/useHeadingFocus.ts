import { limits } from '@gatehouse/contract/client';
import { type RefObject, useEffect } from 'react';

/**
 * Widget spec §4: a 400 ms delay precedes focusing headings. The heading takes focus only if
 * the person has not already moved focus into the page, so typing is never interrupted.
 */
export function useHeadingFocus(ref: RefObject<HTMLElement | null>, delay: number = limits.focusDelayMs) {
  useEffect(() => {
    const timer = window.setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body || active === ref.current) ref.current?.focus();
    }, delay);
    return () => window.clearTimeout(timer);
  }, [ref, delay]);
}
