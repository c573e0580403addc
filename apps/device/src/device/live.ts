import { settings } from '../settings.ts';

export type LiveOptions = {
  /** Re-reads the pushes. */
  refresh: () => Promise<void> | void;
  /** Opens the live channel; answers the event names it carries until it ends. */
  open: (signal: AbortSignal) => Promise<AsyncIterable<string>>;
  pollMs?: number;
  backoffMs?: readonly [number, number];
  hiddenPauseMs?: number;
};

/**
 * Keeps the pushes fresh (docs/decisions/022-push-and-device.md): a re-read on each `pushes`
 * event of the live channel, every `pollMs` besides, and when the channel ends, which is reopened
 * after a backoff (doubled per failure, reset once a channel delivered). A page hidden for
 * `hiddenPauseMs` closes everything; shown again, it re-reads at once and reopens. Returns stop().
 */
export function startLive(options: LiveOptions): () => void {
  const pollMs = options.pollMs ?? settings.pollMs;
  const [firstWait, lastWait] = options.backoffMs ?? settings.backoffMs;
  const hiddenPauseMs = options.hiddenPauseMs ?? settings.hiddenPauseMs;
  let running = false;
  let stopped = false;
  let controller: AbortController | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let pauseTimer: ReturnType<typeof setTimeout> | undefined;
  let wait = firstWait;

  const refresh = () => {
    void Promise.resolve()
      .then(options.refresh)
      .catch(() => undefined);
  };

  async function channel(signal: AbortSignal) {
    while (!signal.aborted) {
      try {
        for await (const event of await options.open(signal)) {
          wait = firstWait;
          if (event === 'pushes') refresh();
        }
      } catch {
        // A failed or refused channel: retried after the backoff.
      }
      if (signal.aborted) return;
      refresh();
      await new Promise<void>((resolve) => {
        retry = setTimeout(resolve, wait);
      });
      wait = Math.min(wait * 2, lastWait);
    }
  }

  function resume() {
    if (running || stopped) return;
    running = true;
    refresh();
    poll = setInterval(refresh, pollMs);
    controller = new AbortController();
    void channel(controller.signal);
  }

  function pause() {
    if (!running) return;
    running = false;
    clearInterval(poll);
    clearTimeout(retry);
    controller?.abort();
  }

  const onVisibility = () => {
    clearTimeout(pauseTimer);
    if (document.visibilityState === 'hidden') pauseTimer = setTimeout(pause, hiddenPauseMs);
    else resume();
  };

  document.addEventListener('visibilitychange', onVisibility);
  resume();
  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', onVisibility);
    clearTimeout(pauseTimer);
    pause();
  };
}
