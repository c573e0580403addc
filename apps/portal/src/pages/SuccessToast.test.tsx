import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SuccessToast } from './SuccessToast.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the success toast after a password change', () => {
  it('stays until it is closed: a minute later it is still there to be read', () => {
    render(<SuccessToast title="Success" message="Password changed successfully" />);
    act(() => vi.advanceTimersByTime(60_000));
    const toast = document.querySelector('.gh-toast') as HTMLElement;
    expect(toast.dataset.state).toBe('open');
    expect(toast.textContent).toContain('Success Password changed successfully');
    act(() => screen.getByRole('button', { name: 'Close' }).click());
    act(() => vi.advanceTimersByTime(300));
    expect(document.querySelector('.gh-toast')?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });
});
