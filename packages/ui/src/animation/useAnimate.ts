import { type RefObject, useEffect } from 'react';
import { type AnimateOptions, animate } from './animate.ts';

/** Runs `animate` on the ref's element whenever `to` (or the property) changes; stops on unmount. */
export function useAnimate(ref: RefObject<HTMLElement | null>, options: AnimateOptions): void {
  const { property, to } = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run only for a new target value
  useEffect(() => {
    if (!ref.current) return;
    return animate(ref.current, options);
  }, [ref, property, to]);
}
