import { limits } from '@gatehouse/contract/client';
import { useEffect, useRef } from 'react';

/** The timers a poller uses: the browser's by default, a test's fake ones when given. */
export type Timers = {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
};

const browserTimers: Timers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
};

export type PollOptions<T> = {
  /** One poll (the push screen's `push/status` call); the signal aborts it when polling stops. */
  poll: (signal: AbortSignal) => Promise<T>;
  /**
   * A final answer ends the polling. The push screen passes `(s) => interpretPush(s) !== 'poll'`, so
   * the rule stays in `pushStates` (widget spec §4: an unknown status keeps polling).
   */
  isFinal: (result: T) => boolean;
  /** Every answer, final or not, in order. */
  onResult: (result: T) => void;
  /** The polls failed once and then on every retry: polling has stopped (spec: 'cannot confirm'). */
  onGiveUp: (error: unknown) => void;
  /** Between the end of one poll and the start of the next; widget spec: 3000 ms. */
  intervalMs?: number;
  /** How many times a failed poll is tried again before giving up; widget spec: 2. */
  retries?: number;
  /** Poll at once instead of after the first interval. */
  immediate?: boolean;
  timers?: Timers;
};

/**
 * Polls until a final answer, a give-up or stop(): widget spec §4 push ("poll every 3000 ms; a
 * failed poll call is retried up to two times"). The next poll is scheduled only when the
 * previous one has settled, so polls never overlap however slow the server is; a success resets
 * the retry count; after stop() nothing more is called, and an answer still in flight is dropped.
 */
export function startPolling<T>(options: PollOptions<T>): { stop: () => void } {
  const {
    poll,
    isFinal,
    onResult,
    onGiveUp,
    intervalMs = limits.pushPollMs,
    retries = limits.pushPollRetries,
    immediate = false,
    timers = browserTimers,
  } = options;
  let stopped = false;
  let failures = 0;
  let timer: unknown;
  let inFlight: AbortController | undefined;

  const schedule = (ms: number) => {
    timer = timers.setTimeout(() => void run(), ms);
  };
  const run = async () => {
    timer = undefined;
    const controller = new AbortController();
    inFlight = controller;
    let result: T;
    try {
      result = await poll(controller.signal);
    } catch (error) {
      inFlight = undefined;
      if (stopped) return;
      failures += 1;
      if (failures > retries) {
        stopped = true;
        onGiveUp(error);
        return;
      }
      schedule(intervalMs);
      return;
    }
    inFlight = undefined;
    if (stopped) return;
    failures = 0;
    const final = isFinal(result);
    if (final) stopped = true;
    onResult(result);
    if (!final && !stopped) schedule(intervalMs);
  };

  if (immediate) void run();
  else schedule(intervalMs);
  return {
    stop: () => {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      inFlight?.abort();
    },
  };
}

/**
 * startPolling for a screen: polls while `active` is true and the screen is mounted, and stops
 * on unmount, on a final answer or when `active` turns false. The callbacks may change between
 * renders without restarting the polling.
 */
export function usePolling<T>(active: boolean, options: PollOptions<T>): void {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (!active) return;
    const { intervalMs, retries, immediate, timers } = latest.current;
    const poller = startPolling<T>({
      poll: (signal) => latest.current.poll(signal),
      isFinal: (result) => latest.current.isFinal(result),
      onResult: (result) => latest.current.onResult(result),
      onGiveUp: (error) => latest.current.onGiveUp(error),
      ...(intervalMs === undefined ? {} : { intervalMs }),
      ...(retries === undefined ? {} : { retries }),
      ...(immediate === undefined ? {} : { immediate }),
      ...(timers === undefined ? {} : { timers }),
    });
    return poller.stop;
  }, [active]);
}
