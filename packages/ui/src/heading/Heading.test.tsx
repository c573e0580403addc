import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import { Heading } from './Heading.tsx';

describe('Heading and VisuallyHidden', () => {
  it('Heading is h2 by default and takes a level', () => {
    const { rerender } = render(<Heading>Sign in</Heading>);
    expect(screen.getByRole('heading', { level: 2, name: 'Sign in' })).toBeTruthy();
    rerender(<Heading level={1}>Sign in</Heading>);
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  });

  it('Heading warns on a level outside 1 to 6', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<Heading level={9}>X</Heading>);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Heading: unknown level "9"/);
    warn.mockRestore();
  });

  it('VisuallyHidden text is part of the accessible name', () => {
    render(
      <button type="button">
        Edit <VisuallyHidden>phone number</VisuallyHidden>
      </button>,
    );
    expect(screen.getByRole('button', { name: 'Edit phone number' })).toBeTruthy();
  });
});
