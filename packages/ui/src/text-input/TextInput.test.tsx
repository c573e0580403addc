import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { maskDigits } from './mask.ts';
import { TextInput, type TextInputType } from './TextInput.tsx';

function ControlledInput() {
  const [value, setValue] = useState('');
  return (
    <TextInput
      id="u"
      label="Username"
      value={value}
      maxLength={5}
      autoComplete="username"
      onChange={(e) => setValue(e.target.value)}
    />
  );
}

describe('TextInput', () => {
  it('is a labelled text input by default', () => {
    render(<TextInput id="name" label="Full name" />);
    const input = screen.getByLabelText('Full name') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.id).toBe('name');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it.each<[TextInputType, string]>([
    ['number', 'number'],
    ['email', 'email'],
    ['tel', 'tel'],
    ['search', 'search'],
    ['url', 'url'],
    ['password', 'password'],
  ])('type %s renders a native %s input', (type, native) => {
    render(<TextInput id="f" label="Field" type={type} />);
    expect((screen.getByLabelText('Field') as HTMLInputElement).type).toBe(native);
  });

  it('shows a required asterisk hidden from screen readers and sets aria-required', () => {
    render(<TextInput id="u" label="Username" required />);
    const input = screen.getByLabelText('Username');
    expect(input.getAttribute('aria-required')).toBe('true');
    const star = document.querySelector('.gh-field__required');
    expect(star?.textContent).toBe('*');
    expect(star?.getAttribute('aria-hidden')).toBe('true');
  });

  it('shows (optional) when optional', () => {
    render(<TextInput id="m" label="Middle name" optional />);
    expect(screen.getByLabelText('Middle name (optional)')).toBeTruthy();
  });

  it('wires hint and error to aria-describedby, with a hidden Error: prefix', () => {
    render(<TextInput id="u" label="Username" hint="As on your card" error="Enter your username" />);
    const input = screen.getByLabelText('Username');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('u-hint u-error');
    expect(document.getElementById('u-error')?.textContent).toBe('Error: Enter your username');
    expect(document.getElementById('u-hint')?.textContent).toBe('As on your card');
  });

  it('passes value, onChange, maxLength and autoComplete through', async () => {
    const user = userEvent.setup();
    render(<ControlledInput />);
    const input = screen.getByLabelText('Username') as HTMLInputElement;
    await user.type(input, 'abcdefgh');
    expect(input.value).toBe('abcde');
    expect(input.getAttribute('autocomplete')).toBe('username');
  });

  describe('password', () => {
    it('has no spellcheck, no autocapitalise and a current-password default', () => {
      render(<TextInput id="p" label="Password" type="password" />);
      const input = screen.getByLabelText('Password');
      expect(input.getAttribute('spellcheck')).toBe('false');
      expect(input.getAttribute('autocapitalize')).toBe('none');
      expect(input.getAttribute('autocomplete')).toBe('current-password');
    });

    it('Show/Hide toggles the type, controls the input and announces the change', async () => {
      const user = userEvent.setup();
      render(<TextInput id="p" label="Password" type="password" />);
      const input = screen.getByLabelText('Password') as HTMLInputElement;
      const toggle = screen.getByRole('button', { name: 'Show password' });
      expect(toggle.textContent).toBe('Show');
      expect(toggle.getAttribute('aria-controls')).toBe('p');
      await user.click(toggle);
      expect(input.type).toBe('text');
      expect(toggle.textContent).toBe('Hide');
      expect(toggle.getAttribute('aria-label')).toBe('Hide password');
      expect(document.querySelector('[aria-live="polite"]')?.textContent).toBe('Your password is visible');
      await user.keyboard('{Enter}');
      expect(input.type).toBe('password');
    });

    it('is hidden again when its form is submitted', async () => {
      const user = userEvent.setup();
      const onReveal = vi.fn();
      render(
        <form onSubmit={(e) => e.preventDefault()}>
          <TextInput id="p" label="Password" type="password" onRevealChange={onReveal} />
          <button type="submit">Sign in</button>
        </form>,
      );
      const input = screen.getByLabelText('Password') as HTMLInputElement;
      await user.click(screen.getByRole('button', { name: 'Show password' }));
      expect(input.type).toBe('text');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(input.type).toBe('password');
      expect(onReveal.mock.calls).toEqual([[true], [false]]);
    });

    it('can be controlled with revealed', () => {
      render(<TextInput id="p" label="Password" type="password" revealed />);
      expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('text');
    });
  });

  describe('masked ssn and zip', () => {
    it('ssn is numeric text with a pattern and a 123-45-6789 mask', async () => {
      const user = userEvent.setup();
      const onChange = vi.fn();
      render(<TextInput id="s" label="SSN" type="ssn" onChange={(e) => onChange(e.target.value)} />);
      const input = screen.getByLabelText('SSN') as HTMLInputElement;
      expect(input.type).toBe('text');
      expect(input.inputMode).toBe('numeric');
      expect(input.getAttribute('pattern')).toBe('[0-9]{3}-[0-9]{2}-[0-9]{4}');
      await user.type(input, '12a3456789999');
      expect(input.value).toBe('123-45-6789');
      expect(onChange).toHaveBeenLastCalledWith('123-45-6789');
    });

    it('zip takes five digits or zip+4', async () => {
      const user = userEvent.setup();
      render(<TextInput id="z" label="ZIP code" type="zip" />);
      const input = screen.getByLabelText('ZIP code') as HTMLInputElement;
      expect(input.inputMode).toBe('numeric');
      await user.type(input, '90210');
      expect(input.value).toBe('90210');
      await user.type(input, '1234');
      expect(input.value).toBe('90210-1234');
    });

    it('maskDigits groups digits and drops the rest', () => {
      expect(maskDigits('', [3, 2, 4])).toBe('');
      expect(maskDigits('12', [3, 2, 4])).toBe('12');
      expect(maskDigits('1234', [3, 2, 4])).toBe('123-4');
      expect(maskDigits('123-', [3, 2, 4])).toBe('123');
      expect(maskDigits('x1-2 3/4567890', [5, 4])).toBe('12345-6789');
    });
  });

  it('warns on an unknown type', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error an unknown value on purpose
    render(<TextInput id="x" label="X" type="colour" />);
    expect(warn.mock.calls[0]?.[0]).toMatch(/TextInput: unknown type "colour"/);
    expect((screen.getByLabelText('X') as HTMLInputElement).type).toBe('text');
    warn.mockRestore();
  });
});
