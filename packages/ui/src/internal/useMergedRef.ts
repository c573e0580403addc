import { type ForwardedRef, type RefCallback, type RefObject, useCallback } from 'react';

/** One callback ref that fills a local ref object and the forwarded ref. */
export function useMergedRef<T>(local: RefObject<T | null>, forwarded: ForwardedRef<T>): RefCallback<T> {
  return useCallback(
    (node: T | null) => {
      local.current = node;
      if (typeof forwarded === 'function') forwarded(node);
      else if (forwarded) forwarded.current = node;
    },
    [local, forwarded],
  );
}
