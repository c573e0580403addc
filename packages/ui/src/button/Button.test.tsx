import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button, buttonVariants } from './Button.tsx';

describe('Button', () => {
  it('is a native button of type button, primary and medium by default', () => {
    render(<Button>Continue</Button>);
    const button = screen.getByRole('button', { name: 'Continue' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.dataset.variant).toBe('primary');
    expect(button.dataset.size).toBe('medium');
  });

  it('passes variant, size, type and other props through', () => {
    render(
      <Button variant="danger" size="large" type="submit" data-testid="b" aria-describedby="x">
        Delete
      </Button>,
    );
    const button = screen.getByTestId('b');
    expect(button.dataset.variant).toBe('danger');
    expect(button.dataset.size).toBe('large');
    expect(button.getAttribute('type')).toBe('submit');
    expect(button.getAttribute('aria-describedby')).toBe('x');
  });

  it('exports the five variants', () => {
    expect(buttonVariants).toEqual(['primary', 'secondary', 'tertiary', 'link', 'danger']);
  });

  it('warns once on an unknown variant and falls back to primary', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<Button variant="fancy">Go</Button>);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Button: unknown variant "fancy"/);
    expect(screen.getByRole('button').dataset.variant).toBe('primary');
    warn.mockRestore();
  });

  it('submits its form on click and on Enter', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button type="submit">Sign in</Button>
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('while loading: no second submit, keeps focus, aria-disabled, spinner, announced', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    const onClick = vi.fn();
    const { rerender } = render(
      <form onSubmit={onSubmit}>
        <Button type="submit" loading={false} onClick={onClick}>
          Sign in
        </Button>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(screen.getByRole('status').textContent).toBe('');
    await user.click(button);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    rerender(
      <form onSubmit={onSubmit}>
        <Button type="submit" loading onClick={onClick}>
          Sign in
        </Button>
      </form>,
    );
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('type')).toBe('button');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.querySelector('svg')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    await user.click(button);
    await user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onClick).toHaveBeenCalledTimes(1);
    // still reachable by keyboard
    await user.tab({ shift: true });
    await user.tab();
    expect(document.activeElement).toBe(button);
  });

  it('forwards its ref to the native button', () => {
    const ref = { current: null as HTMLButtonElement | null };
    render(<Button ref={ref}>Ok</Button>);
    expect(ref.current).toBeInstanceOf(HTMLButtonElement);
  });
});
