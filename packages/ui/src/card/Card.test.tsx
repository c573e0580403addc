import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Card } from './Card.tsx';

describe('Card', () => {
  it('is 448 wide by default and renders as the element asked for', () => {
    render(
      <Card as="section" aria-label="Sign in">
        Hello
      </Card>,
    );
    const card = screen.getByRole('region', { name: 'Sign in' });
    expect(card.tagName).toBe('SECTION');
    expect(card.dataset.width).toBe('448');
  });

  it('takes 400 for the code step and warns on any other width', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { rerender } = render(<Card width={400}>Code</Card>);
    expect(screen.getByText('Code').dataset.width).toBe('400');
    expect(warn).not.toHaveBeenCalled();
    // @ts-expect-error an unknown value on purpose
    rerender(<Card width={500}>Code</Card>);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Card: unknown width "500"/);
    expect(screen.getByText('Code').dataset.width).toBe('448');
    warn.mockRestore();
  });
});
