import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Announcer, useAnnounce } from './Announcer.tsx';

function Says({ text }: { text: string }) {
  const announce = useAnnounce();
  useEffect(() => announce(text), [announce, text]);
  return null;
}

describe('the live region', () => {
  afterEach(() => vi.useRealTimers());

  it('says a message, then empties itself so nothing stale is found later (after signing out)', () => {
    vi.useFakeTimers();
    const { container } = render(
      <Announcer>
        <Says text="Signed in. Opening the portal." />
      </Announcer>,
    );
    const region = container.querySelector('[aria-live="polite"]')!;
    expect(region.textContent).toBe('Signed in. Opening the portal.');
    act(() => vi.advanceTimersByTime(5000));
    expect(region.textContent).toBe('');
    expect(screen.queryByText('Signed in. Opening the portal.')).toBeNull();
  });
});
