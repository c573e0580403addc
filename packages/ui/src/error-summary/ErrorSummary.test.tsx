import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getErrorSummary } from '../../test/testing.ts';
import { TextInput } from '../text-input/TextInput.tsx';
import { ErrorSummary } from './ErrorSummary.tsx';

const errors = [
  { fieldId: 'username', message: 'Enter your username' },
  { fieldId: 'password', message: 'Enter your password' },
];

function Form({ list }: { list: typeof errors }) {
  return (
    <>
      <ErrorSummary errors={list} />
      <TextInput id="username" label="Username" />
      <TextInput id="password" label="Password" type="password" />
    </>
  );
}

describe('ErrorSummary', () => {
  it('renders nothing without errors', () => {
    const { container } = render(<ErrorSummary errors={[]} />);
    expect(container.innerHTML).toBe('');
  });

  it('takes focus when errors appear, titled "There is a problem"', () => {
    const { rerender } = render(<Form list={[]} />);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<Form list={errors} />);
    const summary = getErrorSummary();
    expect(summary.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(summary);
  });

  it('is GOV.UK Frontend 4.4.0 markup: the focused wrapper holds one role="alert" with the title and every link, nothing aria-labelledby', () => {
    render(<Form list={errors} />);
    const alert = screen.getByRole('alert');
    const summary = document.activeElement as HTMLElement;
    // The focused element is not the alert itself (JAWS read only the title of a focused alert).
    expect(summary.getAttribute('role')).toBeNull();
    expect(summary.contains(alert)).toBe(true);
    expect(alert.parentElement).toBe(summary);
    expect(within(alert).getByRole('heading', { level: 2 }).textContent).toBe('There is a problem');
    expect(
      within(alert)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Enter your username', 'Enter your password']);
    expect(summary.querySelector('[aria-labelledby]')).toBeNull();
    expect(summary.hasAttribute('aria-labelledby')).toBe(false);
  });

  it('has tabindex="-1" only to take focus: it is gone once focus leaves, and back on the next attempt', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<ErrorSummary errors={errors} attempt={1} />);
    const summary = getErrorSummary();
    expect(document.activeElement).toBe(summary);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Enter your username' }));
    expect(summary.hasAttribute('tabindex')).toBe(false);
    rerender(<ErrorSummary errors={errors} attempt={2} />);
    expect(summary.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(summary);
  });

  it('links each error to its field and focuses the field on click or Enter', async () => {
    const user = userEvent.setup();
    render(<Form list={errors} />);
    const link = screen.getByRole('link', { name: 'Enter your password' });
    expect(link.getAttribute('href')).toBe('#password');
    await user.click(link);
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    // Back to the top of the form, then Tab: the first link.
    getErrorSummary().setAttribute('tabindex', '-1');
    getErrorSummary().focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Enter your username' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });

  it('takes a custom title', () => {
    render(<ErrorSummary title="Check the form" errors={errors} />);
    expect(document.activeElement).toBe(getErrorSummary('Check the form'));
  });

  it('takes focus again on a new attempt with the same errors (a second failed submit)', () => {
    const { rerender } = render(
      <>
        <ErrorSummary errors={errors} attempt={1} />
        <TextInput id="username" label="Username" />
      </>,
    );
    const summary = getErrorSummary();
    expect(document.activeElement).toBe(summary);
    screen.getByLabelText('Username').focus();
    rerender(
      <>
        <ErrorSummary errors={errors} attempt={1} />
        <TextInput id="username" label="Username" />
      </>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    rerender(
      <>
        <ErrorSummary errors={errors} attempt={2} />
        <TextInput id="username" label="Username" />
      </>,
    );
    expect(document.activeElement).toBe(summary);
  });
});
