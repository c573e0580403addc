import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useEnum, warnUnknown } from './warnUnknown.ts';

const colours = ['red', 'green'] as const;

function Probe({ value }: { value: unknown }) {
  const v = useEnum('Probe', 'colour', value, colours, 'red');
  return <span>{v}</span>;
}

describe('warnUnknown and useEnum', () => {
  it('warns for an unknown value with the allowed list, never for undefined or an allowed one', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(warnUnknown('Probe', 'colour', undefined, colours)).toBe(false);
    expect(warnUnknown('Probe', 'colour', 'green', colours)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
    expect(warnUnknown('Probe', 'colour', 'blue', colours)).toBe(true);
    expect(warn).toHaveBeenCalledWith(
      '[@gatehouse/ui] Probe: unknown colour "blue"; expected one of "red", "green".',
    );
    warn.mockRestore();
  });

  it('useEnum falls back to the default and warns once per value, not per render', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container, rerender } = render(<Probe value="blue" />);
    rerender(<Probe value="blue" />);
    expect(container.textContent).toBe('red');
    expect(warn).toHaveBeenCalledTimes(1);
    rerender(<Probe value="green" />);
    expect(container.textContent).toBe('green');
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('is silent in production builds', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('DEV', false);
    try {
      warnUnknown('Probe', 'colour', 'blue', colours);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllEnvs();
      warn.mockRestore();
    }
  });
});
