import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setReducedMotion } from '../../test/media.ts';
import { ToastProvider, useToast } from './Toast.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function ShowButton() {
  const { show } = useToast();
  return (
    <button
      type="button"
      onClick={() => show({ title: 'Success', message: 'Password changed successfully', variant: 'confirm' })}
    >
      Change password
    </button>
  );
}

function setup() {
  render(
    <ToastProvider>
      <ShowButton />
    </ToastProvider>,
  );
  act(() => screen.getByRole('button', { name: 'Change password' }).click());
}

const toastEl = () => document.querySelector('.gh-toast') as HTMLElement | null;

describe('Toast', () => {
  it('shows title and message, announced politely', () => {
    setup();
    expect(toastEl()?.textContent).toContain('Success');
    expect(toastEl()?.textContent).toContain('Password changed successfully');
    expect(toastEl()?.dataset.variant).toBe('confirm');
    act(() => vi.advanceTimersByTime(50));
    const live = Array.from(document.querySelectorAll('[aria-live]'));
    const announcer = live.find((el) => el.textContent?.includes('Password changed successfully'));
    expect(announcer?.getAttribute('aria-live')).toBe('polite');
    // Title and message are two words apart when read out and in the toast's own text.
    expect(announcer?.textContent).toContain('Success Password changed successfully');
    expect(toastEl()?.textContent).toContain('Success Password changed successfully');
  });

  it('closes after 5000 ms and is removed after the 300 ms exit', () => {
    setup();
    act(() => vi.advanceTimersByTime(4999));
    expect(toastEl()?.dataset.state).toBe('open');
    act(() => vi.advanceTimersByTime(1));
    expect(toastEl()?.dataset.state ?? 'closed').toBe('closed');
    act(() => vi.advanceTimersByTime(300));
    expect(toastEl()).toBeNull();
  });

  it('stays while hovered, then closes 1000 ms after the pointer leaves', () => {
    setup();
    act(() => vi.advanceTimersByTime(4000));
    fireEvent.pointerEnter(toastEl()!);
    act(() => vi.advanceTimersByTime(10_000));
    expect(toastEl()?.dataset.state).toBe('open');
    fireEvent.pointerLeave(toastEl()!);
    act(() => vi.advanceTimersByTime(999));
    expect(toastEl()?.dataset.state).toBe('open');
    act(() => vi.advanceTimersByTime(1));
    expect(toastEl()?.dataset.state ?? 'closed').toBe('closed');
  });

  it('stays while focused, then closes 1000 ms after focus leaves', () => {
    setup();
    act(() => screen.getByRole('button', { name: 'Close' }).focus());
    act(() => vi.advanceTimersByTime(8000));
    expect(toastEl()?.dataset.state).toBe('open');
    act(() => screen.getByRole('button', { name: 'Change password' }).focus());
    act(() => vi.advanceTimersByTime(1000));
    expect(toastEl()?.dataset.state ?? 'closed').toBe('closed');
  });

  it('the close button closes it at once', () => {
    setup();
    act(() => screen.getByRole('button', { name: 'Close' }).click());
    act(() => vi.advanceTimersByTime(300));
    expect(toastEl()).toBeNull();
  });

  it('is removed without the exit delay under reduced motion', () => {
    setReducedMotion(true);
    setup();
    act(() => vi.advanceTimersByTime(5000));
    act(() => vi.advanceTimersByTime(0));
    expect(toastEl()).toBeNull();
  });

  it('useToast outside a provider throws a clear error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ShowButton />)).toThrow(/ToastProvider/);
  });
});
