import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Select, type SelectItem } from './Select.tsx';

const options: SelectItem[] = [
  { text: 'Choose a method', value: '' },
  { text: 'Text message', value: 'sms' },
  { text: 'Voice call', value: 'voice', disabled: true },
  {
    label: 'E-mail',
    options: [
      { text: 'Personal e-mail', value: 'email-personal' },
      { text: 'Work e-mail', value: 'email-work' },
    ],
  },
];

function ControlledSelect({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('sms');
  return (
    <Select
      id="m"
      label="Method"
      options={options}
      value={value}
      onChange={(v) => {
        onChange(v);
        setValue(v);
      }}
    />
  );
}

describe('Select', () => {
  it('renders options, disabled options and groups', () => {
    render(<Select id="m" label="Method" options={options} />);
    const select = screen.getByRole('combobox', { name: 'Method' }) as HTMLSelectElement;
    expect(select.options).toHaveLength(5);
    expect((screen.getByRole('option', { name: 'Voice call' }) as HTMLOptionElement).disabled).toBe(true);
    const group = screen.getByRole('group', { name: 'E-mail' });
    expect(group.querySelectorAll('option')).toHaveLength(2);
  });

  it('changing it updates the selected value (keyboard and pointer)', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<ControlledSelect onChange={onChange} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    expect(select.value).toBe('sms');
    await user.selectOptions(select, 'email-work');
    expect(select.value).toBe('email-work');
    expect(onChange).toHaveBeenLastCalledWith('email-work');
  });

  it('carries disabled, required, error, aria label, described-by, size and full width', () => {
    render(
      <>
        <p id="extra">More help</p>
        <Select
          id="m"
          ariaLabel="Delivery method"
          options={options}
          disabled
          required
          error="Choose a method"
          describedBy="extra"
          size="large"
          fullWidth
        />
      </>,
    );
    const select = screen.getByRole('combobox', { name: 'Delivery method' }) as HTMLSelectElement;
    expect(select.disabled).toBe(true);
    expect(select.required).toBe(true);
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.getAttribute('aria-describedby')).toBe('m-error extra');
    expect(select.dataset.size).toBe('large');
    expect(select.parentElement?.hasAttribute('data-full-width')).toBe(true);
  });

  it('warns on an unknown size', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<Select id="m" label="Method" options={options} size="huge" />);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Select: unknown size "huge"/);
    warn.mockRestore();
  });

  it('with the error flag alone: invalid, but no empty "Error:" message and nothing described', () => {
    render(<Select id="m" label="Method" options={options} error />);
    const select = screen.getByRole('combobox', { name: 'Method' });
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.getAttribute('aria-describedby')).toBeNull();
    expect(document.getElementById('m-error')).toBeNull();
    expect(document.body.textContent).not.toContain('Error:');
  });
});
