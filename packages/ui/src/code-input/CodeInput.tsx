import {
  type ChangeEvent,
  type ClipboardEvent,
  type ComponentPropsWithoutRef,
  forwardRef,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Field, type FieldOwnProps, fieldDescribedBy } from '../field/Field.tsx';
import { cx } from '../internal/cx.ts';
import { type Size, sizes } from '../internal/sizes.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';

/** Security codes are six digits. */
export const codeLength = 6;

/** Keeps the digits of `value`, at most `max` of them. */
export function digitsOnly(value: string, max = codeLength): string {
  return value.replace(/\D/g, '').slice(0, max);
}

export interface CodeInputProps
  extends Omit<ComponentPropsWithoutRef<'input'>, 'type' | 'size' | 'id'>,
    Omit<FieldOwnProps, 'label'> {
  id: string;
  label: ReactNode;
  /** Default 'medium'. */
  size?: Size;
  /** Called with the digits after every accepted change. */
  onValueChange?: (value: string) => void;
  fieldClassName?: string;
}

/**
 * The security-code input used by every code field: type="text" inputmode="numeric",
 * autocomplete off, six digits at most. Any other keystroke is ignored and pasted text keeps only
 * its digits.
 */
export const CodeInput = forwardRef<HTMLInputElement, CodeInputProps>(function CodeInput(
  {
    id,
    label,
    size,
    required,
    optional,
    hint,
    error,
    maxLength = codeLength,
    placeholder = uiMessages.codePlaceholder,
    onValueChange,
    onChange,
    onKeyDown,
    onPaste,
    fieldClassName,
    className,
    'aria-describedby': describedBy,
    ...rest
  },
  ref,
) {
  const sizeValue = useEnum('CodeInput', 'size', size, sizes, 'medium');

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // A printable key that is not a digit is ignored; editing keys and shortcuts still work.
    if (
      event.key.length === 1 &&
      !/[0-9]/.test(event.key) &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey
    ) {
      event.preventDefault();
    }
    onKeyDown?.(event);
  };

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    onPaste?.(event);
    if (event.defaultPrevented) return;
    const text = event.clipboardData.getData('text');
    if (/^\d*$/.test(text)) return;
    // Insert only the digits of the pasted text at the caret.
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? input.value.length;
    const next = digitsOnly(
      input.value.slice(0, start) + digitsOnly(text, maxLength) + input.value.slice(end),
      maxLength,
    );
    setNativeValue(input, next);
  };

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const clean = digitsOnly(event.target.value, maxLength);
    if (clean !== event.target.value) event.target.value = clean;
    onChange?.(event);
    onValueChange?.(clean);
  };

  return (
    <Field
      id={id}
      label={label}
      required={required}
      optional={optional}
      hint={hint}
      error={error}
      className={cx('gh-code-input', fieldClassName)}
    >
      <input
        ref={ref}
        id={id}
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        spellCheck={false}
        maxLength={maxLength}
        placeholder={placeholder}
        className={cx('gh-control', className)}
        data-size={sizeValue}
        aria-invalid={error ? true : undefined}
        aria-required={required ? true : undefined}
        aria-describedby={fieldDescribedBy({ id, hint, error }, describedBy)}
        {...rest}
        onKeyDown={handleKeyDown}
        onPaste={handlePaste}
        onChange={handleChange}
      />
    </Field>
  );
});

/** Sets an input's value the way a user edit would, so React's onChange fires. */
function setNativeValue(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
