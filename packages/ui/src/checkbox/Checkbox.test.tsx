import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Checkbox, type CheckboxChange } from './Checkbox.tsx';

function ControlledCheckbox({ changes }: { changes: CheckboxChange[] }) {
  const [checked, setChecked] = useState(false);
  return (
    <Checkbox
      id="remember"
      label="Remember me"
      checked={checked}
      onChange={(change) => {
        changes.push(change);
        setChecked(change.checked);
      }}
    />
  );
}

describe('Checkbox', () => {
  it('toggles with click and Space, emitting the checked value and selectAll false', async () => {
    const user = userEvent.setup();
    const changes: CheckboxChange[] = [];
    render(<ControlledCheckbox changes={changes} />);
    const box = screen.getByRole('checkbox', { name: 'Remember me' }) as HTMLInputElement;
    await user.click(box);
    expect(box.checked).toBe(true);
    await user.keyboard(' ');
    expect(box.checked).toBe(false);
    expect(changes).toEqual([
      { checked: true, selectAll: false },
      { checked: false, selectAll: false },
    ]);
  });

  it('a select-all in the mixed state checks and says it is select-all', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <Checkbox id="all" label="Select all" selectAll indeterminate checked={false} onChange={onChange} />,
    );
    const box = screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement;
    expect(box.indeterminate).toBe(true);
    expect(box.closest('.gh-checkbox')?.getAttribute('data-state')).toBe('mixed');
    await user.click(box);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls[0]?.[0]).toEqual({ checked: true, selectAll: true });
  });

  it('clears the mixed state when indeterminate goes false', () => {
    const { rerender } = render(<Checkbox id="all" label="All" indeterminate checked={false} />);
    const box = screen.getByRole('checkbox') as HTMLInputElement;
    rerender(<Checkbox id="all" label="All" checked />);
    expect(box.indeterminate).toBe(false);
    expect(box.checked).toBe(true);
  });

  it('wires hint and error', () => {
    render(<Checkbox id="t" label="I agree" hint="Read the terms" error="You must agree" />);
    const box = screen.getByRole('checkbox');
    expect(box.getAttribute('aria-describedby')).toBe('t-hint t-error');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('t-error')?.textContent).toBe('Error: You must agree');
  });
});
