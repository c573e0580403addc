import { type ComponentType, lazy, useState } from 'react';

/** Runs `task` when the browser is idle (after the login route has painted and settled). */
export function whenIdle(task: () => void, timeout = 2000): void {
  if (typeof window === 'undefined') return;
  if ('requestIdleCallback' in window) window.requestIdleCallback(() => task(), { timeout });
  else setTimeout(task, 200);
}

/**
 * One on-demand chunk (docs/decisions/019-small-router.md): `load()` fetches it once (a failed
 * fetch may be tried again), `prefetch()` fetches it when the browser is idle, and `component()`
 * gives a component of it. A component whose chunk is already in renders at once, with no
 * Suspense fallback (React.lazy would show the fallback for a moment even then); otherwise it
 * suspends until the chunk arrives. Which of the two is decided once per mount, so a screen is
 * never remounted when its chunk lands.
 */
export function onDemand<M>(importer: () => Promise<M>) {
  let loaded: M | undefined;
  let pending: Promise<M> | undefined;
  const load = (): Promise<M> => {
    pending ??= importer().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const prefetch = () => whenIdle(() => void load().catch(() => undefined));
  function component<P extends object>(pick: (module: M) => ComponentType<P>): ComponentType<P> {
    const Lazy = lazy(() => load().then((module) => ({ default: pick(module) })));
    function OnDemand(props: P) {
      const [Ready] = useState(() => (loaded === undefined ? undefined : pick(loaded)));
      return Ready ? <Ready {...props} /> : <Lazy {...props} />;
    }
    return OnDemand;
  }
  return { load, prefetch, component };
}
