import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CodeInput, digitsOnly } from './CodeInput.tsx';

function ControlledCode() {
  const [value, setValue] = useState('');
  return (
    <CodeInput id="code" label="Security code" value={value} onChange={(e) => setValue(e.target.value)} />
  );
}

describe('CodeInput', () => {
  it('is numeric text, autocomplete off, six characters, XXXXXX placeholder', () => {
    render(<CodeInput id="code" label="Security code" required />);
    const input = screen.getByLabelText('Security code') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.inputMode).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('off');
    expect(input.maxLength).toBe(6);
    expect(input.placeholder).toBe('XXXXXX');
    expect(input.getAttribute('aria-required')).toBe('true');
  });

  it('ignores keystrokes other than digits', async () => {
    const user = userEvent.setup();
    const onValue = vi.fn();
    render(<CodeInput id="code" label="Security code" onValueChange={onValue} />);
    const input = screen.getByLabelText('Security code') as HTMLInputElement;
    await user.type(input, '1a2 b-3.4e5+6789');
    expect(input.value).toBe('123456');
    expect(onValue).toHaveBeenLastCalledWith('123456');
    await user.keyboard('{Backspace}');
    expect(input.value).toBe('12345');
  });

  it('keeps only the digits of pasted text (controlled)', async () => {
    const user = userEvent.setup();
    render(<ControlledCode />);
    const input = screen.getByLabelText('Security code') as HTMLInputElement;
    await user.click(input);
    await user.paste('Your code: 98 76-54 (expires)');
    expect(input.value).toBe('987654');
  });

  it('shows its error like every field', () => {
    render(<CodeInput id="code" label="Security code" error="Enter the 6-digit code" />);
    const input = screen.getByLabelText('Security code');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('code-error');
    expect(document.getElementById('code-error')?.textContent).toBe('Error: Enter the 6-digit code');
  });

  it('digitsOnly', () => {
    expect(digitsOnly('a1b2c3d4e5f6g7')).toBe('123456');
    expect(digitsOnly('12', 6)).toBe('12');
  });
});
