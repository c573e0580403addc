import { limits } from '@gatehouse/contract/client';
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPolling, type Timers, usePolling } from './polling.ts';

type Answer = { status: string };
const final = (a: Answer) => a.status !== 'PENDING';

/** A poll whose calls the test answers one by one, recording when each started. */
function scriptedPoll() {
  const calls: Array<{
    at: number;
    signal: AbortSignal;
    resolve: (a: Answer) => void;
    reject: (e: unknown) => void;
  }> = [];
  const poll = vi.fn(
    (signal: AbortSignal) =>
      new Promise<Answer>((resolve, reject) => {
        calls.push({ at: Date.now(), signal, resolve, reject });
      }),
  );
  return { poll, calls };
}

/** Lets the promise callbacks of a settled poll run. */
const settle = () => act(async () => {});

describe('startPolling (push screen: widget spec §4, every 3000 ms, two retries)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every 3000 ms, counted from the end of the previous poll', async () => {
    const { poll, calls } = scriptedPoll();
    const results: string[] = [];
    startPolling({ poll, isFinal: final, onResult: (a) => results.push(a.status), onGiveUp: vi.fn() });
    expect(limits.pushPollMs).toBe(3000);
    await vi.advanceTimersByTimeAsync(2999);
    expect(poll).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.at)).toEqual([3000]);
    // The server takes 500 ms to answer: the next poll starts 3000 ms after that answer.
    await vi.advanceTimersByTimeAsync(500);
    calls[0]!.resolve({ status: 'PENDING' });
    await settle();
    await vi.advanceTimersByTimeAsync(2999);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.at)).toEqual([3000, 6500]);
    expect(results).toEqual(['PENDING']);
  });

  it('never overlaps polls: a slow answer holds the next poll back', async () => {
    const { poll, calls } = scriptedPoll();
    startPolling({ poll, isFinal: final, onResult: vi.fn(), onGiveUp: vi.fn() });
    await vi.advanceTimersByTimeAsync(3000);
    await vi.advanceTimersByTimeAsync(30_000); // ten intervals pass with the first poll unanswered
    expect(poll).toHaveBeenCalledTimes(1);
    calls[0]!.resolve({ status: 'PENDING' });
    await settle();
    await vi.advanceTimersByTimeAsync(3000);
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('tries a failed poll again twice, then gives up once and polls no more', async () => {
    const { poll, calls } = scriptedPoll();
    const onGiveUp = vi.fn();
    startPolling({ poll, isFinal: final, onResult: vi.fn(), onGiveUp });
    expect(limits.pushPollRetries).toBe(2);
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(3000);
      expect(poll).toHaveBeenCalledTimes(i + 1);
      expect(onGiveUp).not.toHaveBeenCalled();
      calls[i]!.reject(new TypeError('Failed to fetch'));
      await settle();
    }
    expect(onGiveUp).toHaveBeenCalledTimes(1);
    expect(onGiveUp.mock.calls[0]![0]).toBeInstanceOf(TypeError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it('an answer between failures starts the retry count again', async () => {
    const { poll, calls } = scriptedPoll();
    const onGiveUp = vi.fn();
    startPolling({ poll, isFinal: final, onResult: vi.fn(), onGiveUp });
    const outcomes = ['fail', 'fail', 'PENDING', 'fail', 'fail', 'PENDING'];
    for (const [i, outcome] of outcomes.entries()) {
      await vi.advanceTimersByTimeAsync(3000);
      if (outcome === 'fail') calls[i]!.reject(new Error('503'));
      else calls[i]!.resolve({ status: outcome });
      await settle();
    }
    expect(onGiveUp).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(poll).toHaveBeenCalledTimes(7);
  });

  it('stops on a final state and reports it', async () => {
    const { poll, calls } = scriptedPoll();
    const results: string[] = [];
    startPolling({ poll, isFinal: final, onResult: (a) => results.push(a.status), onGiveUp: vi.fn() });
    await vi.advanceTimersByTimeAsync(3000);
    calls[0]!.resolve({ status: 'PENDING' });
    await settle();
    await vi.advanceTimersByTimeAsync(3000);
    calls[1]!.resolve({ status: 'DECLINED' });
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(poll).toHaveBeenCalledTimes(2);
    expect(results).toEqual(['PENDING', 'DECLINED']);
  });

  it('stop() cancels the next poll, aborts the one in flight and drops its late answer', async () => {
    const { poll, calls } = scriptedPoll();
    const onResult = vi.fn();
    const poller = startPolling({ poll, isFinal: final, onResult, onGiveUp: vi.fn() });
    await vi.advanceTimersByTimeAsync(3000);
    poller.stop();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve({ status: 'SUCCESS' });
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(poll).toHaveBeenCalledTimes(1);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('runs on the timers it is given (an injectable clock)', async () => {
    vi.useRealTimers();
    const due: Array<{ at: number; run: () => void }> = [];
    let now = 0;
    const timers: Timers = {
      setTimeout: (run, ms) => {
        const entry = { at: now + ms, run };
        due.push(entry);
        return entry;
      },
      clearTimeout: (id) => {
        due.splice(due.indexOf(id as (typeof due)[number]), 1);
      },
    };
    const tick = async (ms: number) => {
      now += ms;
      for (const entry of due.filter((e) => e.at <= now)) {
        due.splice(due.indexOf(entry), 1);
        entry.run();
      }
      await Promise.resolve();
      await Promise.resolve();
    };
    const poll = vi.fn(async () => ({ status: 'PENDING' }));
    const poller = startPolling({ poll, isFinal: final, onResult: vi.fn(), onGiveUp: vi.fn(), timers });
    await tick(2999);
    expect(poll).toHaveBeenCalledTimes(0);
    await tick(1);
    await tick(3000);
    expect(poll).toHaveBeenCalledTimes(2);
    poller.stop();
    expect(due).toHaveLength(0);
  });
});

describe('usePolling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function PushWaiting({
    poll,
    onResult,
  }: {
    poll: (s: AbortSignal) => Promise<Answer>;
    onResult: () => void;
  }) {
    usePolling(true, { poll, isFinal: final, onResult, onGiveUp: vi.fn() });
    return <p>Waiting for your approval</p>;
  }

  it('stops when the screen unmounts, aborting the poll in flight', async () => {
    const { poll, calls } = scriptedPoll();
    const onResult = vi.fn();
    const view = render(<PushWaiting poll={poll} onResult={onResult} />);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    calls[0]!.resolve({ status: 'PENDING' });
    await settle();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(poll).toHaveBeenCalledTimes(2);
    view.unmount();
    expect(calls[1]!.signal.aborted).toBe(true);
    calls[1]!.resolve({ status: 'SUCCESS' });
    await settle();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(poll).toHaveBeenCalledTimes(2);
    expect(onResult).toHaveBeenCalledTimes(1);
  });

  it('re-renders with new callbacks do not restart the polling', async () => {
    const { poll, calls } = scriptedPoll();
    const first = vi.fn();
    const second = vi.fn();
    const view = render(<PushWaiting poll={poll} onResult={first} />);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    view.rerender(<PushWaiting poll={poll} onResult={second} />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(poll).toHaveBeenCalledTimes(1); // still 3000 ms after mount, not after the re-render
    calls[0]!.resolve({ status: 'PENDING' });
    await settle();
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith({ status: 'PENDING' });
    view.unmount();
  });
});
