import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeLimitWarning, useSecondsLeft, useTimeLimit } from './TimeLimitWarning.tsx';

/** A page with a field and a time limit: the warning at `lead` before `deadline`, then the end. */
function Page({ deadline, lead, onAction }: { deadline: number; lead: number; onAction: () => void }) {
  const [state, setState] = useState<'running' | 'warned' | 'ended'>('running');
  useTimeLimit(state === 'ended' ? null : deadline, lead, {
    onWarn: () => setState('warned'),
    onEnd: () => setState('ended'),
  });
  const left = useSecondsLeft(state === 'warned' ? deadline : null);
  return (
    <>
      <label>
        Note <input />
      </label>
      <p>{state}</p>
      <TimeLimitWarning
        open={state === 'warned'}
        title="Your session is about to end"
        description={`You will be signed out in ${left} seconds.`}
        actionText="Stay signed in"
        dismissText="Not now"
        onAction={onAction}
        onDismiss={() => setState('running')}
      />
    </>
  );
}

describe('TimeLimitWarning', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('warns `lead` before the deadline with a named, described dialog whose action has focus; the time left counts down; the end comes at the deadline', async () => {
    render(<Page deadline={Date.now() + 60_000} lead={30_000} onAction={() => {}} />);
    act(() => vi.advanceTimersByTime(29_000));
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(1_000));
    const dialog = await screen.findByRole('dialog', { name: 'Your session is about to end' });
    const description = document.getElementById(dialog.getAttribute('aria-describedby')!);
    expect(description?.textContent).toBe('You will be signed out in 30 seconds.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    act(() => vi.advanceTimersByTime(10_000));
    expect(description?.textContent).toBe('You will be signed out in 20 seconds.');
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getByText('ended')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the action calls onAction; Escape calls onDismiss and focus goes back to the field that had it', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onAction = vi.fn();
    render(<Page deadline={Date.now() + 60_000} lead={30_000} onAction={onAction} />);
    const field = screen.getByRole('textbox', { name: 'Note' });
    await user.type(field, 'half a note');
    act(() => vi.advanceTimersByTime(31_000));
    await screen.findByRole('dialog');
    await user.keyboard('{Enter}');
    expect(onAction).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(field));
    expect((field as HTMLInputElement).value).toBe('half a note');
  });
});
