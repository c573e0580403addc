import { type ChangeEvent, type ComponentPropsWithoutRef, forwardRef, type ReactNode } from 'react';
import { Field, fieldDescribedBy } from '../field/Field.tsx';
import { cx } from '../internal/cx.ts';
import { type Size, sizes } from '../internal/sizes.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import './Select.css';

export interface SelectOption {
  text: string;
  value: string;
  disabled?: boolean;
}
export interface SelectOptionGroup {
  label: string;
  options: SelectOption[];
  disabled?: boolean;
}
export type SelectItem = SelectOption | SelectOptionGroup;
export const selectSizes = sizes;

export function isOptionGroup(item: SelectItem): item is SelectOptionGroup {
  return 'options' in item;
}

export interface SelectProps
  extends Omit<ComponentPropsWithoutRef<'select'>, 'size' | 'onChange' | 'value' | 'id' | 'multiple'> {
  id: string;
  /** The visible label; omit it only when `ariaLabel` names the select. */
  label?: ReactNode;
  options: SelectItem[];
  /** The selected value. */
  value?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLSelectElement>) => void;
  /** An error message (GOV.UK: shown above the control, referenced by aria-describedby). */
  error?: ReactNode;
  required?: boolean;
  optional?: boolean;
  hint?: ReactNode;
  /** Stretches to the width of its container. */
  fullWidth?: boolean;
  /** Visual size; default 'medium'. */
  size?: Size;
  /** aria-label, for a select with no visible label. */
  ariaLabel?: string;
  /** Further ids for aria-describedby. */
  describedBy?: string;
}

/** A native select with options and option groups. */
export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  {
    id,
    label,
    options,
    value,
    onChange,
    error,
    required,
    optional,
    hint,
    fullWidth = false,
    size,
    ariaLabel,
    describedBy,
    className,
    ...rest
  },
  ref,
) {
  const sizeValue = useEnum('Select', 'size', size, selectSizes, 'medium');
  const renderOption = (option: SelectOption) => (
    <option key={option.value} value={option.value} disabled={option.disabled}>
      {option.text}
    </option>
  );
  return (
    <Field id={id} label={label} required={required} optional={optional} hint={hint} error={error}>
      <div className="gh-select" data-full-width={fullWidth || undefined}>
        <select
          ref={ref}
          id={id}
          className={cx('gh-control', 'gh-select__control', className)}
          data-size={sizeValue}
          value={value}
          required={required}
          aria-label={ariaLabel}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy({ id, hint, error }, describedBy)}
          {...rest}
          onChange={(event) => onChange?.(event.target.value, event)}
        >
          {options.map((item) =>
            isOptionGroup(item) ? (
              <optgroup key={`group:${item.label}`} label={item.label} disabled={item.disabled}>
                {item.options.map(renderOption)}
              </optgroup>
            ) : (
              renderOption(item)
            ),
          )}
        </select>
        <svg className="gh-select__chevron" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M1.4 3.3 6 7.9l4.6-4.6L12 4.7l-6 6-6-6 1.4-1.4Z" />
        </svg>
      </div>
    </Field>
  );
});
