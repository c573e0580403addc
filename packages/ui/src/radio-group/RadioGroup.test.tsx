import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { RadioGroup, type RadioOption } from './RadioGroup.tsx';

const options: RadioOption[] = [
  { value: 'sms', label: 'Text message' },
  { value: 'voice', label: 'Voice call', hint: 'We read the code twice' },
  { value: 'email', label: 'E-mail' },
];

function Controlled({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('sms');
  return (
    <RadioGroup
      id="method"
      name="method"
      legend="How should we send your code?"
      options={options}
      value={value}
      onChange={(v) => {
        onChange(v);
        setValue(v);
      }}
    />
  );
}

const checkedValues = () =>
  (screen.getAllByRole('radio') as HTMLInputElement[]).filter((r) => r.checked).map((r) => r.value);

describe('RadioGroup', () => {
  it('is a group named by its legend with one radio per option', () => {
    render(<RadioGroup id="m" name="m" legend="Method" options={options} />);
    const group = screen.getByRole('group', { name: 'Method' });
    expect(group.tagName).toBe('FIELDSET');
    expect(screen.getAllByRole('radio')).toHaveLength(3);
    expect(screen.getByRole('radio', { name: 'Voice call' }).getAttribute('aria-describedby')).toBe(
      'm-voice-hint',
    );
  });

  it('keeps exactly one selected per name when clicking', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    expect(checkedValues()).toEqual(['sms']);
    await user.click(screen.getByRole('radio', { name: 'E-mail' }));
    expect(checkedValues()).toEqual(['email']);
    await user.click(screen.getByLabelText('Voice call'));
    expect(checkedValues()).toEqual(['voice']);
    expect(onChange.mock.calls).toEqual([['email'], ['voice']]);
  });

  it('arrow keys move the selection like native radios, Tab enters at the selected one', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <>
        <button type="button">Before</button>
        <Controlled onChange={onChange} />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Text message' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Voice call' }));
    expect(checkedValues()).toEqual(['voice']);
    await user.keyboard('{ArrowUp}');
    expect(checkedValues()).toEqual(['sms']);
  });

  it('shows its error and hint on the fieldset', () => {
    render(
      <RadioGroup id="m" name="m" legend="Method" options={options} hint="Pick one" error="Choose how" />,
    );
    const group = screen.getByRole('group', { name: 'Method' });
    expect(group.getAttribute('aria-describedby')).toBe('m-hint m-error');
    expect(document.getElementById('m-error')?.textContent).toBe('Error: Choose how');
  });

  it('a required group says so once, as a radiogroup, and no radio is invalid before an answer is due', () => {
    render(<RadioGroup id="m" name="m" legend="Method" options={options} required />);
    const group = screen.getByRole('radiogroup', { name: 'Method' });
    expect(group.getAttribute('aria-required')).toBe('true');
    for (const radio of screen.getAllByRole('radio') as HTMLInputElement[]) {
      expect(radio.required).toBe(false);
      expect(radio.matches(':invalid')).toBe(false);
      expect(radio.getAttribute('aria-invalid')).toBeNull();
    }
  });
});
