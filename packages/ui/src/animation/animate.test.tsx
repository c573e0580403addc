import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setReducedMotion } from '../../test/media.ts';
import { type AnimationEnd, animate, easeInOutCubic } from './animate.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('animate', () => {
  it('easeInOutCubic starts slow, is half way at the middle and ends at 1', () => {
    expect(easeInOutCubic(0)).toBe(0);
    expect(easeInOutCubic(0.5)).toBe(0.5);
    expect(easeInOutCubic(1)).toBe(1);
    expect(easeInOutCubic(0.1)).toBeCloseTo(0.004, 5);
    expect(easeInOutCubic(0.9)).toBeCloseTo(0.996, 5);
  });

  it('animates over 1000 ms at 60 fps by default and fires the completion with the final value', () => {
    const el = document.createElement('div');
    const onComplete = vi.fn();
    const events: AnimationEnd[] = [];
    el.addEventListener('gh-animation-end', (e) => events.push((e as CustomEvent<AnimationEnd>).detail));
    animate(el, { property: 'height', from: 0, to: 200, onComplete });
    expect(el.style.height).toBe('0px');
    vi.advanceTimersByTime(500);
    const mid = Number.parseFloat(el.style.height);
    expect(mid).toBeGreaterThan(90);
    expect(mid).toBeLessThan(110);
    expect(onComplete).not.toHaveBeenCalled();
    vi.advanceTimersByTime(480);
    expect(onComplete).not.toHaveBeenCalled();
    vi.advanceTimersByTime(40); // the first frame at or after 1000 ms completes it
    expect(el.style.height).toBe('200px');
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith({ property: 'height', value: 200 });
    expect(events).toEqual([{ property: 'height', value: 200 }]);
  });

  it('uses the easing: a quarter of the time is far less than a quarter of the way', () => {
    const el = document.createElement('div');
    animate(el, { property: 'opacity', from: 0, to: 1 });
    vi.advanceTimersByTime(250);
    expect(Number.parseFloat(el.style.opacity)).toBeLessThan(0.1);
  });

  it('honours duration and fps', () => {
    const el = document.createElement('div');
    const writes: string[] = [];
    const onComplete = vi.fn();
    animate(el, {
      property: 'marginTop',
      from: 0,
      to: 10,
      duration: 300,
      fps: 10,
      easing: (t) => t,
      onComplete,
    });
    for (let i = 0; i < 30; i++) {
      vi.advanceTimersByTime(10);
      writes.push(el.style.marginTop);
    }
    // at 10 fps the value changes every 100 ms: 0 until 100 ms, then 3.33, 6.67, 10
    expect([...new Set(writes)].map((v) => Math.round(Number.parseFloat(v) * 100) / 100)).toEqual([
      0, 3.33, 6.67, 10,
    ]);
    expect(onComplete).toHaveBeenCalledWith({ property: 'marginTop', value: 10 });
  });

  it('can be stopped, and then does not complete', () => {
    const el = document.createElement('div');
    const onComplete = vi.fn();
    const stop = animate(el, { property: 'width', from: 0, to: 100, onComplete });
    vi.advanceTimersByTime(300);
    stop();
    vi.advanceTimersByTime(2000);
    expect(onComplete).not.toHaveBeenCalled();
  });

  it('jumps to the end at once under reduced motion', () => {
    setReducedMotion(true);
    const el = document.createElement('div');
    const onComplete = vi.fn();
    animate(el, { property: 'opacity', from: 1, to: 0, onComplete });
    expect(el.style.opacity).toBe('0');
    expect(onComplete).toHaveBeenCalledWith({ property: 'opacity', value: 0 });
  });
});
