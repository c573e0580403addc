import { type ChangeEvent, type ComponentPropsWithoutRef, forwardRef, type ReactNode, useId } from 'react';
import { fieldDescribedBy, hasErrorMessage } from '../field/Field.tsx';
import { cx } from '../internal/cx.ts';
import { useEnum } from '../internal/warnUnknown.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import './RadioGroup.css';

export interface RadioOption {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}
export const radioOrientations = ['vertical', 'horizontal'] as const;
export type RadioOrientation = (typeof radioOrientations)[number];

export interface RadioGroupProps extends Omit<ComponentPropsWithoutRef<'fieldset'>, 'onChange' | 'id'> {
  /** Prefix of each radio's id (`${id}-${value}`) and of the hint/error ids. */
  id: string;
  /** The shared name: exactly one radio per name is selected (native behaviour). */
  name: string;
  /** The legend. */
  legend: ReactNode;
  options: RadioOption[];
  /** The selected value (controlled); use defaultValue for uncontrolled. */
  value?: string;
  defaultValue?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  required?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  /** Default 'vertical'. */
  orientation?: RadioOrientation;
}

/**
 * Native radios in a fieldset: Tab enters the group at the selected radio, arrow keys move and
 * select, exactly as the browser does it.
 */
export const RadioGroup = forwardRef<HTMLFieldSetElement, RadioGroupProps>(function RadioGroup(
  {
    id,
    name,
    legend,
    options,
    value,
    defaultValue,
    onChange,
    required,
    hint,
    error,
    orientation,
    disabled,
    className,
    ...rest
  },
  ref,
) {
  const orientationValue = useEnum('RadioGroup', 'orientation', orientation, radioOrientations, 'vertical');
  const legendId = useId();
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is radiogroup whenever aria-required is set.
    <fieldset
      ref={ref}
      // Required is said once, by the group (a radiogroup may carry aria-required; a radio may not).
      // Native `required` on the radios would make Chromium call each one 'invalid' on arrival.
      role={required ? 'radiogroup' : undefined}
      aria-required={required ? true : undefined}
      className={cx('gh-radio-group', className)}
      data-orientation={orientationValue}
      data-invalid={error ? '' : undefined}
      aria-describedby={fieldDescribedBy({ id, hint, error })}
      disabled={disabled}
      {...rest}
    >
      <legend className="gh-radio-group__legend" id={legendId}>
        {legend}
        {required ? (
          <span className="gh-field__required" aria-hidden="true">
            {' *'}
          </span>
        ) : null}
      </legend>
      {hint ? (
        <p className="gh-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {hasErrorMessage(error) ? (
        <p className="gh-field__error" id={`${id}-error`}>
          <VisuallyHidden>{uiMessages.errorPrefix}</VisuallyHidden> {error}
        </p>
      ) : null}
      <div className="gh-radio-group__options">
        {options.map((option) => {
          const optionId = `${id}-${option.value}`;
          return (
            <div className="gh-radio" key={option.value}>
              <input
                className="gh-radio__input"
                type="radio"
                id={optionId}
                name={name}
                value={option.value}
                disabled={option.disabled}
                aria-invalid={error ? true : undefined}
                aria-describedby={option.hint ? `${optionId}-hint` : undefined}
                {...(value !== undefined
                  ? { checked: value === option.value }
                  : { defaultChecked: defaultValue === option.value })}
                onChange={(event) => {
                  if (event.target.checked) onChange?.(option.value, event);
                }}
              />
              <label className="gh-radio__label" htmlFor={optionId}>
                {option.label}
              </label>
              {option.hint ? (
                <p className="gh-radio__hint" id={`${optionId}-hint`}>
                  {option.hint}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
});
