import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Spinner } from './Spinner.tsx';

function Page({ loading, size }: { loading: boolean; size?: 'small' | 'medium' | 'large' }) {
  return (
    <>
      <button type="button">Send code</button>
      <Spinner hidden={!loading} size={size} announce />
    </>
  );
}

describe('Spinner', () => {
  it('shows the default texts, medium and neutral', () => {
    render(<Spinner />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.getByText('This could take a moment.')).toBeTruthy();
    const spinner = document.querySelector('.gh-spinner') as HTMLElement;
    expect(spinner.dataset.size).toBe('medium');
    expect(spinner.dataset.color).toBe('neutral');
  });

  it('takes focus while shown and gives it back when hidden', () => {
    const { rerender } = render(<Page loading={false} />);
    const button = screen.getByRole('button', { name: 'Send code' });
    button.focus();
    rerender(<Page loading />);
    const status = screen.getByRole('status');
    expect(document.activeElement).toBe(status);
    rerender(<Page loading={false} />);
    expect(document.activeElement).toBe(button);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('gives focus back when unmounted', () => {
    const { rerender } = render(<button type="button">Send code</button>);
    const button = screen.getByRole('button');
    button.focus();
    rerender(
      <>
        <button type="button">Send code</button>
        <Spinner />
      </>,
    );
    expect(document.activeElement?.classList.contains('gh-spinner')).toBe(true);
    rerender(<button type="button">Send code</button>);
    expect(document.activeElement).toBe(button);
  });

  it('announces as a status only when asked', () => {
    const { rerender } = render(<Spinner />);
    expect(screen.queryByRole('status')).toBeNull();
    rerender(<Spinner announce />);
    expect(screen.getByRole('status').textContent).toContain('Loading…');
  });

  it('small hides the visible text but keeps it for screen readers', () => {
    render(<Page loading size="small" />);
    const status = screen.getByRole('status');
    const hidden = status.querySelector('.gh-visually-hidden');
    expect(hidden?.textContent).toBe('Loading… This could take a moment.');
    expect(status.textContent?.replace(hidden?.textContent ?? '', '')).toBe('');
  });

  it('takes custom texts, colour, icon and inline mode', () => {
    render(
      <Spinner
        color="inverse"
        inline
        primaryText="Sending your code"
        secondaryText={null}
        icon={<span data-testid="icon" />}
      />,
    );
    const spinner = document.querySelector('.gh-spinner') as HTMLElement;
    expect(spinner.dataset.color).toBe('inverse');
    expect(spinner.hasAttribute('data-inline')).toBe(true);
    expect(spinner.tagName).toBe('SPAN'); // phrasing content, valid inside a paragraph
    expect(spinner.textContent).toBe('Sending your code');
    expect(screen.getByTestId('icon')).toBeTruthy();
  });

  it('warns on an unknown colour', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<Spinner color="blue" />);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Spinner: unknown color "blue"/);
    warn.mockRestore();
  });
});
