import { useCallback, useState } from 'react';

/** Rethrows an error from an async handler during render, so the error boundary catches it. */
export function useAsyncError(): (error: unknown) => void {
  const [, setState] = useState();
  return useCallback((error: unknown) => {
    setState(() => {
      throw error;
    });
  }, []);
}
