import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Link } from './Link.tsx';

describe('Link', () => {
  it('is a plain link by default', () => {
    render(<Link href="/help">Help</Link>);
    const link = screen.getByRole('link', { name: 'Help' });
    expect(link.getAttribute('target')).toBeNull();
  });

  it('opens in a new window safely and says so to screen readers', () => {
    render(
      <Link href="https://example.com/terms" newWindow>
        Terms
      </Link>,
    );
    const link = screen.getByRole('link', { name: 'Terms (opens in a new window)' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
