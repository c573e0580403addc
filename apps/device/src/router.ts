import { useLocation } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';

export { useHashLocation } from 'wouter/use-hash-location';

/** The device app's hash routes (docs/decisions/019-small-router.md, as the portal). */
export const routes = { device: '/', codes: '/codes', add: '/add' } as const;

export function useNavigate() {
  return useLocation()[1];
}

/** The state the previous page left with its navigation. */
export function usePageState<T>(): T | null {
  return useHistoryState<T | null>() ?? null;
}
