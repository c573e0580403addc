import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setReducedMotion } from '../../test/media.ts';
import { Alert, InlineAlert } from './Alert.tsx';

afterEach(() => {
  vi.useRealTimers();
});

describe('Alert', () => {
  it('defaults to critical with role alert and a hidden variant word', () => {
    render(<Alert title="Sign-in failed">Check your details.</Alert>);
    const alert = screen.getByRole('alert');
    expect(alert.dataset.variant).toBe('critical');
    expect(alert.textContent).toBe('Error: Sign-in failedCheck your details.');
  });

  it.each([
    ['critical', 'alert'],
    ['warning', 'alert'],
    ['info', 'status'],
    ['confirm', 'status'],
  ] as const)('%s has role %s', (variant, role) => {
    render(<Alert variant={variant}>Text</Alert>);
    expect(screen.getByRole(role).dataset.variant).toBe(variant);
  });

  it('warns on an unknown variant', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<Alert variant="success">Done</Alert>);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Alert: unknown variant "success"/);
    warn.mockRestore();
  });

  it('fades out over 150 ms, then is removed and onDismiss runs', () => {
    vi.useFakeTimers();
    const onDismiss = vi.fn();
    render(
      <Alert variant="info" dismissible onDismiss={onDismiss}>
        Saved
      </Alert>,
    );
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    const alert = screen.getByRole('status');
    expect(alert.dataset.state).toBe('closing');
    act(() => vi.advanceTimersByTime(149));
    expect(screen.queryByRole('status')).not.toBeNull();
    expect(onDismiss).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).toBeNull();
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('is removed at once under reduced motion', () => {
    vi.useFakeTimers();
    setReducedMotion(true);
    render(<Alert dismissible>Oops</Alert>);
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    act(() => vi.advanceTimersByTime(0));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('can be focused through its ref', () => {
    const ref = { current: null as HTMLDivElement | null };
    render(
      <Alert ref={ref} tabIndex={-1}>
        Problem
      </Alert>,
    );
    act(() => ref.current?.focus());
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('InlineAlert is the compact alert', () => {
    render(<InlineAlert variant="warning">Caps Lock is on</InlineAlert>);
    expect(screen.getByRole('alert').hasAttribute('data-inline')).toBe(true);
  });

  it('after a dismissal by keyboard, focus goes to the next control, not the body', async () => {
    setReducedMotion(true);
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Before</button>
        <Alert variant="info" dismissible>
          Saved
        </Alert>
        <button type="button">After</button>
      </>,
    );
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
  });

  it('with nothing after it, focus goes to the control before it; onDismiss may place it itself', async () => {
    setReducedMotion(true);
    const user = userEvent.setup();
    const { unmount } = render(
      <>
        <button type="button">Before</button>
        <Alert dismissible>Oops</Alert>
      </>,
    );
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));
    unmount();

    render(
      <>
        <h2 tabIndex={-1}>Messages</h2>
        <Alert dismissible onDismiss={() => screen.getByRole('heading', { name: 'Messages' }).focus()}>
          Oops
        </Alert>
        <button type="button">After</button>
      </>,
    );
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Messages' }));
  });
});
