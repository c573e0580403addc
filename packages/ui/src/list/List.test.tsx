import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { List, ListItem } from './List.tsx';

describe('List', () => {
  it('is an unordered, never-inline list by default', () => {
    render(
      <List aria-label="Rules">
        <ListItem>One</ListItem>
        <ListItem>Two</ListItem>
      </List>,
    );
    const list = screen.getByRole('list', { name: 'Rules' });
    expect(list.tagName).toBe('UL');
    expect(list.dataset.listStyle).toBe('unordered');
    expect(list.dataset.inline).toBe('never');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });

  it('ordered is an ol; none keeps list semantics', () => {
    const { rerender } = render(
      <List listStyle="ordered">
        <ListItem>Step</ListItem>
      </List>,
    );
    expect(screen.getByRole('list').tagName).toBe('OL');
    rerender(
      <List listStyle="none">
        <ListItem>Plain</ListItem>
      </List>,
    );
    expect(screen.getByRole('list').getAttribute('role')).toBe('list');
  });

  it('allows a nested list group in never-inline mode without a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(
      <List>
        <ListItem>
          Parent
          <List>
            <ListItem>Child</ListItem>
          </List>
        </ListItem>
      </List>,
    );
    expect(screen.getAllByRole('list')).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it.each(['always', 'desktop'] as const)('warns on a nested list group when inline is %s', (inline) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(
      <List inline={inline}>
        <ListItem>
          Parent
          <List>
            <ListItem>Child</ListItem>
          </List>
        </ListItem>
      </List>,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /nested list group is only allowed when the outer list has inline="never"/,
    );
    warn.mockRestore();
  });

  it('warns on an unknown style', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<List listStyle="dashed" />);
    expect(warn.mock.calls[0]?.[0]).toMatch(/List: unknown listStyle "dashed"/);
    warn.mockRestore();
  });
});
