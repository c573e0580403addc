import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
    const summary = screen.getByRole('alert', { name: 'There is a problem' });
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
    screen.getByRole('alert').focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Enter your username' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });

  it('takes a custom title', () => {
    render(<ErrorSummary title="Check the form" errors={errors} />);
    expect(screen.getByRole('alert', { name: 'Check the form' })).toBeTruthy();
  });

  it('takes focus again on a new attempt with the same errors (a second failed submit)', () => {
    const { rerender } = render(
      <>
        <ErrorSummary errors={errors} attempt={1} />
        <TextInput id="username" label="Username" />
      </>,
    );
    const summary = screen.getByRole('alert', { name: 'There is a problem' });
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
