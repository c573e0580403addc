import {
  type ChangeEvent,
  type ComponentPropsWithoutRef,
  forwardRef,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { Button } from '../button/Button.tsx';
import { Field, type FieldOwnProps, fieldDescribedBy } from '../field/Field.tsx';
import { cx } from '../internal/cx.ts';
import { type Size, sizes } from '../internal/sizes.ts';
import { useMergedRef } from '../internal/useMergedRef.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import { maskDigits, maskGroups, maskPatterns } from './mask.ts';
import './TextInput.css';

export const textInputTypes = [
  'text',
  'number',
  'password',
  'email',
  'tel',
  'search',
  'url',
  'ssn',
  'zip',
] as const;
export type TextInputType = (typeof textInputTypes)[number];
export const textInputSizes = sizes;

export interface TextInputProps
  extends Omit<ComponentPropsWithoutRef<'input'>, 'type' | 'size' | 'id'>,
    Omit<FieldOwnProps, 'label'> {
  id: string;
  label: ReactNode;
  /** Default 'text'. ssn and zip render type="text" inputmode="numeric" with a pattern and a mask. */
  type?: TextInputType;
  /** Default 'medium'. */
  size?: Size;
  /** Password only: controls whether the password is shown. Uncontrolled when omitted. */
  revealed?: boolean;
  /** Password only: called when the Show/Hide button or a form submit changes visibility. */
  onRevealChange?: (revealed: boolean) => void;
  /** The wrapper's class name; `className` goes on the input. */
  fieldClassName?: string;
}

/**
 * A labelled text input. Password fields get a Show/Hide button (re-hidden when their form is
 * submitted), no spellcheck or autocapitalisation; ssn and zip are masked numeric text.
 */
export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  {
    id,
    label,
    type,
    size,
    required,
    optional,
    hint,
    error,
    revealed,
    onRevealChange,
    fieldClassName,
    className,
    onChange,
    'aria-describedby': describedBy,
    ...rest
  },
  forwardedRef,
) {
  const typeValue = useEnum('TextInput', 'type', type, textInputTypes, 'text');
  const sizeValue = useEnum('TextInput', 'size', size, textInputSizes, 'medium');
  const inputRef = useRef<HTMLInputElement>(null);
  const ref = useMergedRef(inputRef, forwardedRef);
  const isPassword = typeValue === 'password';
  const masked = typeValue === 'ssn' || typeValue === 'zip' ? typeValue : null;

  const [ownRevealed, setOwnRevealed] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const shown = revealed ?? ownRevealed;
  const setShown = (next: boolean) => {
    if (revealed === undefined) setOwnRevealed(next);
    onRevealChange?.(next);
  };
  const setShownRef = useRef(setShown);
  setShownRef.current = setShown;

  // GOV.UK: a revealed password is hidden again when its form is submitted.
  useEffect(() => {
    if (!isPassword) return;
    const form = inputRef.current?.form;
    if (!form) return;
    const onSubmit = () => setShownRef.current(false);
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [isPassword]);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    if (masked) {
      const next = maskDigits(event.target.value, maskGroups[masked]);
      if (next !== event.target.value) event.target.value = next;
    }
    onChange?.(event);
  };

  const nativeType = isPassword ? (shown ? 'text' : 'password') : masked ? 'text' : typeValue;
  const extra: ComponentPropsWithoutRef<'input'> = {};
  if (isPassword) {
    extra.spellCheck = false;
    extra.autoCapitalize = 'none';
    extra.autoCorrect = 'off';
    extra.autoComplete = 'current-password';
  }
  if (masked) {
    extra.inputMode = 'numeric';
    extra.pattern = maskPatterns[masked];
    extra.maxLength = masked === 'ssn' ? 11 : 10;
    extra.autoComplete = masked === 'zip' ? 'postal-code' : 'off';
  }

  const input = (
    <input
      ref={ref}
      id={id}
      type={nativeType}
      className={cx('gh-control', className)}
      data-size={sizeValue}
      data-masked={masked ?? undefined}
      aria-invalid={error ? true : undefined}
      aria-required={required ? true : undefined}
      aria-describedby={fieldDescribedBy({ id, hint, error }, describedBy)}
      {...extra}
      {...rest}
      onChange={handleChange}
    />
  );

  return (
    <Field
      id={id}
      label={label}
      required={required}
      optional={optional}
      hint={hint}
      error={error}
      className={cx('gh-text-input', fieldClassName)}
    >
      {isPassword ? (
        <div className="gh-text-input__wrap">
          {input}
          <Button
            className="gh-text-input__toggle"
            variant="secondary"
            size={sizeValue}
            aria-controls={id}
            aria-label={shown ? uiMessages.hidePassword : uiMessages.showPassword}
            disabled={rest.disabled}
            onClick={() => {
              const next = !shown;
              setShown(next);
              setAnnouncement(next ? uiMessages.passwordShown : uiMessages.passwordHidden);
            }}
          >
            {shown ? uiMessages.hide : uiMessages.show}
          </Button>
          <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
        </div>
      ) : (
        input
      )}
    </Field>
  );
});
