import {
  createContext,
  type ReactNode,
  type RefObject,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react';
import { Router } from 'wouter';
import { routes } from './routes.ts';

/** One entry of the widget's history: a route and what the screen that navigated left for the next. */
type Entry = { path: string; state: unknown };
export type NavigateOptions = { replace?: boolean; state?: unknown };

/**
 * The widget's in-memory history for wouter (docs/decisions/019-small-router.md): wouter matches
 * the routes; this location hook keeps the entries, each with its navigation state, and goes
 * Back. wouter's own memoryLocation keeps one state for all entries and has no Back, which the
 * factor screens need (their Back returns to the previous screen as it was).
 */
function memoryHistory(start: string) {
  let entries: Entry[] = [{ path: start, state: null }];
  let index = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const current = () => entries[index] as Entry;
  const navigate = (to: string, { replace = false, state = null }: NavigateOptions = {}) => {
    const entry = { path: to, state };
    if (replace) entries[index] = entry;
    else {
      entries = [...entries.slice(0, index + 1), entry];
      index += 1;
    }
    notify();
  };
  const back = () => {
    if (index === 0) return;
    index -= 1;
    notify();
  };
  /** wouter's location hook: the current path and how to go elsewhere. */
  const hook = (): [string, typeof navigate] => [
    useSyncExternalStore(subscribe, () => current().path),
    navigate,
  ];
  return { subscribe, current, navigate, back, canGoBack: () => index > 0, hook };
}

type MemoryHistory = ReturnType<typeof memoryHistory>;
const HistoryContext = createContext<MemoryHistory | null>(null);

function useHistory(): MemoryHistory {
  const history = useContext(HistoryContext);
  if (!history) throw new Error('Gatehouse sign-in widget: a screen outside the widget router');
  return history;
}

/**
 * The widget's router: in memory, and cut off from any router of the host page (a wouter Router
 * with a location hook of its own inherits nothing from a router above it), so a React host with
 * its own router (the portal's hash router) and the widget never see each other's locations.
 */
export function WidgetRouter({
  children,
  start = routes.login,
  root,
}: {
  children: ReactNode;
  start?: string;
  /** The widget's root element: it carries the current route as `data-route` (tests, host styles). */
  root?: RefObject<HTMLElement | null>;
}) {
  const [history] = useState(() => memoryHistory(start));
  const path = useSyncExternalStore(history.subscribe, () => history.current().path);
  // After the commit: the root's ref is attached once its children's layout effects have run.
  useEffect(() => {
    const element = root?.current;
    element?.setAttribute('data-route', path);
    return () => element?.removeAttribute('data-route');
  }, [root, path]);
  return (
    <HistoryContext.Provider value={history}>
      <Router hook={history.hook}>{children}</Router>
    </HistoryContext.Provider>
  );
}

/** Goes to a route (with state for the next screen, or in place of the current entry), or Back with -1. */
export function useNavigate(): (to: string | -1, options?: NavigateOptions) => void {
  const history = useHistory();
  // Stable for the widget's lifetime, like the history itself.
  const [navigate] = useState(
    () => (to: string | -1, options?: NavigateOptions) =>
      to === -1 ? history.back() : history.navigate(to, options),
  );
  return navigate;
}

/** The current entry's navigation state (null when the screen was reached without any). */
export function useLocationState<T>(): T | null {
  const history = useHistory();
  return useSyncExternalStore(history.subscribe, () => history.current().state) as T | null;
}

/** Whether there is an earlier screen to go Back to. */
export function useCanGoBack(): boolean {
  const history = useHistory();
  return useSyncExternalStore(history.subscribe, history.canGoBack);
}
