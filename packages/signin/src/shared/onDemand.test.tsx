import { act, render, screen } from '@testing-library/react';
import { Suspense, useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onDemand } from './onDemand.tsx';

/** A chunk the test delivers when it wants, and can make fail. */
function chunk() {
  let deliver!: () => void;
  let fail!: (error: Error) => void;
  const mounts: string[] = [];
  function Screen({ name }: { name: string }) {
    useEffect(() => {
      mounts.push(name);
    }, [name]);
    return <h2>{name}</h2>;
  }
  const importer = vi.fn(
    () =>
      new Promise<{ Screen: typeof Screen }>((resolve, reject) => {
        deliver = () => resolve({ Screen });
        fail = reject;
      }),
  );
  return { importer, mounts, deliver: () => deliver(), fail: (e: Error) => fail(e) };
}

const fallback = <p role="status">Loading</p>;

describe('onDemand (screens off the login route)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a screen whose chunk is in renders at once: no fallback, not even for a moment', async () => {
    const c = chunk();
    const screens = onDemand(c.importer);
    const Screen = screens.component((m) => m.Screen);
    const loading = screens.load();
    c.deliver();
    await loading;
    // Every node React puts on the page, fallback included, however briefly it stays.
    const observer = new MutationObserver(() => undefined);
    observer.observe(document.body, { childList: true, subtree: true });
    render(
      <Suspense fallback={fallback}>
        <Screen name="Check your phone" />
      </Suspense>,
    );
    const added = observer
      .takeRecords()
      .flatMap((record) => [...record.addedNodes])
      .map((node) => node.textContent);
    observer.disconnect();
    const seen = added.filter((text) => text?.includes('Loading'));
    expect(screen.getByRole('heading', { name: 'Check your phone' })).toBeTruthy();
    expect(seen).toEqual([]);
    expect(c.importer).toHaveBeenCalledTimes(1);
  });

  it('a screen whose chunk is on its way shows the fallback, then mounts once when it lands', async () => {
    const c = chunk();
    const Screen = onDemand(c.importer).component((m) => m.Screen);
    render(
      <Suspense fallback={fallback}>
        <Screen name="Enter the code" />
      </Suspense>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading');
    await act(async () => c.deliver());
    expect(await screen.findByRole('heading', { name: 'Enter the code' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(c.mounts).toEqual(['Enter the code']);
  });

  it('fetches the chunk once however many screens ask, and again after a failed fetch', async () => {
    const c = chunk();
    const screens = onDemand(c.importer);
    const first = screens.load();
    const second = screens.load();
    expect(c.importer).toHaveBeenCalledTimes(1);
    c.fail(new TypeError('Failed to fetch dynamically imported module'));
    await expect(first).rejects.toThrow('Failed to fetch');
    await expect(second).rejects.toThrow('Failed to fetch');
    const retry = screens.load();
    expect(c.importer).toHaveBeenCalledTimes(2);
    c.deliver();
    await expect(retry).resolves.toHaveProperty('Screen');
  });

  it('prefetch waits for the browser to be idle, then fetches', async () => {
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    const c = chunk();
    onDemand(c.importer).prefetch();
    expect(c.importer).not.toHaveBeenCalled();
    idle.forEach((run) => {
      run();
    });
    expect(c.importer).toHaveBeenCalledTimes(1);
  });
});
