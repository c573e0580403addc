import { afterEach, expect, test, vi } from 'vitest';
import { streamEvents } from '../src/api.ts';
import { startLive } from '../src/device/live.ts';

afterEach(() => vi.useRealTimers());

const body = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });

test('streamEvents yields each event name, across chunk boundaries, skipping comments', async () => {
  const names: string[] = [];
  for await (const name of streamEvents(
    body(': hello\n\n', 'event: pu', 'shes\ndata: {}\n\ndata: x\n\n', 'event: pushes\r\n\r\n'),
  ))
    names.push(name);
  expect(names).toEqual(['pushes', 'message', 'pushes']);
});

test('re-reads on each pushes event and by polling; a channel that ends is reopened after a growing backoff', async () => {
  vi.useFakeTimers();
  const refresh = vi.fn();
  const opened: number[] = [];
  const open = vi.fn(async () => {
    opened.push(Date.now());
    if (opened.length === 1) return streamEvents(body('event: pushes\ndata: {}\n\n'));
    throw new Error('refused');
  });
  const stop = startLive({ refresh, open, pollMs: 10_000, backoffMs: [1_000, 8_000], hiddenPauseMs: 60_000 });
  await vi.advanceTimersByTimeAsync(0);
  // Start, the event, then the end of the channel: three reads.
  expect(refresh).toHaveBeenCalledTimes(3);
  const start = opened[0]!;
  await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 8_000 + 8_000);
  expect(opened.map((t) => t - start)).toEqual([0, 1_000, 3_000, 7_000, 15_000, 23_000]);
  const before = refresh.mock.calls.length;
  stop();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(refresh.mock.calls.length).toBe(before);
  expect(open).toHaveBeenCalledTimes(6);
});

test('a page hidden for a minute stops; shown again it re-reads and reopens at once', async () => {
  vi.useFakeTimers();
  const refresh = vi.fn();
  const signals: AbortSignal[] = [];
  const open = vi.fn(async (signal: AbortSignal) => {
    signals.push(signal);
    return (async function* () {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    })();
  });
  let visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(
    () => visibility as DocumentVisibilityState,
  );
  const stop = startLive({ refresh, open, pollMs: 10_000, backoffMs: [1_000, 8_000], hiddenPauseMs: 60_000 });
  await vi.advanceTimersByTimeAsync(0);
  visibility = 'hidden';
  document.dispatchEvent(new Event('visibilitychange'));
  await vi.advanceTimersByTimeAsync(60_000);
  expect(signals[0]!.aborted).toBe(true);
  const calls = refresh.mock.calls.length;
  await vi.advanceTimersByTimeAsync(120_000);
  expect(refresh.mock.calls.length).toBe(calls);
  visibility = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
  await vi.advanceTimersByTimeAsync(0);
  expect(refresh.mock.calls.length).toBe(calls + 1);
  expect(open).toHaveBeenCalledTimes(2);
  stop();
});
