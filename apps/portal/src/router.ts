import { useLocation } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';

export { useHashLocation } from 'wouter/use-hash-location';

/**
 * The portal's navigation (portal spec §2: hash routes), on wouter's hash location
 * (docs/decisions/019-small-router.md): `navigate(path, { replace, state })`.
 */
export function useNavigate() {
  return useLocation()[1];
}

/** The state the previous page left with its navigation (kept in the browser's history entry). */
export function usePageState<T>(): T | null {
  return useHistoryState<T | null>() ?? null;
}
