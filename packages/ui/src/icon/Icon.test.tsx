import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Icon } from './Icon.tsx';

describe('Icon', () => {
  it('is decorative by default and medium', () => {
    const { container } = render(<Icon name="lock" />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.dataset.size).toBe('medium');
  });

  it('is an image with a name when labelled', () => {
    render(<Icon name="warning" label="Warning" size="large" />);
    const img = screen.getByRole('img', { name: 'Warning' });
    expect(img.dataset.size).toBe('large');
  });

  it('renders a simple glyph at xsmall without a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<Icon name="close" size="xsmall" />);
    expect((container.querySelector('svg') as SVGSVGElement).dataset.size).toBe('xsmall');
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('warns when an icon is unavailable at xsmall and renders it small', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<Icon name="phone" size="xsmall" />);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Icon: "phone" is not available at size "xsmall"/);
    expect((container.querySelector('svg') as SVGSVGElement).dataset.size).toBe('small');
    warn.mockRestore();
  });

  it('warns on an unknown size', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<Icon name="close" size="xl" />);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Icon: unknown size "xl"/);
    warn.mockRestore();
  });
});
