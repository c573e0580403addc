import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TitleBlock } from './TitleBlock.tsx';

describe('TitleBlock', () => {
  it('is a level-2 heading with no border by default', () => {
    render(<TitleBlock title="Security settings" />);
    expect(screen.getByRole('heading', { level: 2, name: 'Security settings' })).toBeTruthy();
    expect((document.querySelector('.gh-title-block') as HTMLElement).dataset.border).toBe('none');
  });

  it.each([2, 3, 4, 5, 6] as const)('takes level %i without a warning', (level) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(<TitleBlock title="T" level={level} />);
    expect(screen.getByRole('heading', { level })).toBeTruthy();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it.each([1, 7, 0])('warns on level %i and falls back to 2', (level) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an out-of-range level on purpose
    render(<TitleBlock title="T" level={level} />);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(new RegExp(`TitleBlock: unknown level "${level}"`));
    expect(screen.getByRole('heading', { level: 2 })).toBeTruthy();
    warn.mockRestore();
  });

  it('renders the border and the metadata, actions and more slots', () => {
    render(
      <TitleBlock
        title="Devices"
        border="bottom"
        metadata={<span>Last sign-in today</span>}
        actions={<button type="button">Add device</button>}
        more={<p>Two devices</p>}
      />,
    );
    const block = document.querySelector('.gh-title-block') as HTMLElement;
    expect(block.dataset.border).toBe('bottom');
    expect(block.querySelector('.gh-title-block__metadata')?.textContent).toBe('Last sign-in today');
    expect(
      screen.getByRole('button', { name: 'Add device' }).closest('.gh-title-block__actions'),
    ).not.toBeNull();
    expect(block.querySelector('.gh-title-block__more')?.textContent).toBe('Two devices');
  });
});
