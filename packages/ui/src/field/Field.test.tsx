import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field, fieldDescribedBy } from './Field.tsx';

describe('Field', () => {
  it('labels any control and shows hint then error', () => {
    render(
      <Field id="dob" label="Date of birth" hint="For example, 27 3 1990" error="Enter a real date">
        <input id="dob" aria-describedby={fieldDescribedBy({ id: 'dob', hint: 'x', error: 'y' })} />
      </Field>,
    );
    const input = screen.getByLabelText('Date of birth');
    expect(input.getAttribute('aria-describedby')).toBe('dob-hint dob-error');
    expect(document.getElementById('dob-hint')?.textContent).toBe('For example, 27 3 1990');
    expect(document.getElementById('dob-error')?.textContent).toBe('Error: Enter a real date');
    expect(document.querySelector('.gh-field')?.hasAttribute('data-invalid')).toBe(true);
  });

  it('required wins over optional', () => {
    render(
      <Field id="a" label="Name" required optional>
        <input id="a" />
      </Field>,
    );
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(document.querySelector('.gh-field__optional')).toBeNull();
    expect(document.querySelector('.gh-field__required')).not.toBeNull();
  });

  it('fieldDescribedBy joins only the ids that exist', () => {
    expect(fieldDescribedBy({ id: 'a' })).toBeUndefined();
    expect(fieldDescribedBy({ id: 'a', error: 'e' }, 'extra')).toBe('a-error extra');
  });
});
