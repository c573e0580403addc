import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setReducedMotion } from '../../test/media.ts';
import { ExpandCollapse, type ExpandState } from './ExpandCollapse.tsx';

afterEach(() => {
  vi.useRealTimers();
});

const root = () => document.querySelector('.gh-expand') as HTMLElement;

describe('ExpandCollapse', () => {
  it('goes collapsed -> expanding -> expanded -> collapsing -> collapsed over 250 ms', () => {
    vi.useFakeTimers();
    const states: ExpandState[] = [];
    render(
      <ExpandCollapse title="Why do we ask?" onStateChange={(s) => states.push(s)}>
        Because the bank needs it.
      </ExpandCollapse>,
    );
    const button = screen.getByRole('button', { name: 'Why do we ask?' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(root().dataset.state).toBe('collapsed');
    expect(screen.queryByRole('region')).toBeNull(); // the hidden panel is out of the accessibility tree

    act(() => button.click());
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(root().dataset.state).toBe('expanding');
    act(() => vi.advanceTimersByTime(249));
    expect(root().dataset.state).toBe('expanding');
    act(() => vi.advanceTimersByTime(1));
    expect(root().dataset.state).toBe('expanded');
    expect(screen.getByRole('region', { name: 'Why do we ask?' }).hasAttribute('hidden')).toBe(false);

    act(() => button.click());
    expect(root().dataset.state).toBe('collapsing');
    act(() => vi.advanceTimersByTime(250));
    expect(root().dataset.state).toBe('collapsed');
    expect(states).toEqual(['collapsed', 'expanding', 'expanded', 'collapsing', 'collapsed']);
  });

  it('skips the animation under reduced motion', () => {
    setReducedMotion(true);
    const states: ExpandState[] = [];
    render(
      <ExpandCollapse title="More" onStateChange={(s) => states.push(s)}>
        Details
      </ExpandCollapse>,
    );
    act(() => screen.getByRole('button', { name: 'More' }).click());
    expect(root().dataset.state).toBe('expanded');
    expect(states).toEqual(['collapsed', 'expanded']);
  });

  it('toggles with Enter and Space', async () => {
    setReducedMotion(true);
    const user = userEvent.setup();
    render(<ExpandCollapse title="More">Details</ExpandCollapse>);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('region', { name: 'More' }).textContent).toBe('Details');
    await user.keyboard(' ');
    expect(root().dataset.state).toBe('collapsed');
  });

  it('opens for printing when asked and closes again afterwards', () => {
    render(
      <ExpandCollapse title="Terms" expandOnPrint>
        Terms text
      </ExpandCollapse>,
    );
    act(() => {
      fireEvent(window, new Event('beforeprint'));
    });
    expect(root().dataset.state).toBe('expanded');
    act(() => {
      fireEvent(window, new Event('afterprint'));
    });
    expect(root().dataset.state).toBe('collapsed');
  });

  it('does not open for printing by default', () => {
    render(<ExpandCollapse title="Terms">Terms text</ExpandCollapse>);
    act(() => {
      fireEvent(window, new Event('beforeprint'));
    });
    expect(root().dataset.state).toBe('collapsed');
  });

  it('can be controlled and start expanded', () => {
    const onChange = vi.fn();
    render(
      <ExpandCollapse title="More" expanded onExpandedChange={onChange} headingLevel={3}>
        Details
      </ExpandCollapse>,
    );
    expect(root().dataset.state).toBe('expanded');
    expect(screen.getByRole('heading', { level: 3, name: 'More' })).toBeTruthy();
    act(() => screen.getByRole('button').click());
    expect(onChange).toHaveBeenCalledWith(false);
    expect(root().dataset.state).toBe('expanded');
  });

  it('measures the panel when it is shown: the opening animation runs from 0 to the content height', () => {
    vi.useFakeTimers();
    // jsdom has no layout: a hidden panel measures 0, a shown one its content (120 px).
    const scrollHeight = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.hidden || this.closest('[hidden]') ? 0 : 120;
    });
    render(<ExpandCollapse title="More">Details</ExpandCollapse>);
    const panel = document.querySelector('.gh-expand__panel') as HTMLElement;
    act(() => screen.getByRole('button', { name: 'More' }).click());
    expect(root().dataset.state).toBe('expanding');
    expect(panel.hidden).toBe(false);
    expect(panel.style.height).toBe('120px');
    act(() => vi.advanceTimersByTime(250));
    expect(panel.style.height).toBe('');
    scrollHeight.mockRestore();
  });
});
