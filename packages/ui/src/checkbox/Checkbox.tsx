import {
  type ChangeEvent,
  type ComponentPropsWithoutRef,
  forwardRef,
  type ReactNode,
  useLayoutEffect,
  useRef,
} from 'react';
import { fieldDescribedBy, hasErrorMessage } from '../field/Field.tsx';
import { cx } from '../internal/cx.ts';
import { useMergedRef } from '../internal/useMergedRef.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import './Checkbox.css';

/** What a Checkbox's onChange receives. */
export interface CheckboxChange {
  checked: boolean;
  /** True when this is a select-all checkbox. */
  selectAll: boolean;
}

export interface CheckboxProps
  extends Omit<ComponentPropsWithoutRef<'input'>, 'type' | 'onChange' | 'id' | 'checked'> {
  id: string;
  label: ReactNode;
  checked?: boolean;
  /** Receives `{ checked, selectAll }` and the native event. */
  onChange?: (change: CheckboxChange, event: ChangeEvent<HTMLInputElement>) => void;
  /** Marks the checkbox as the select-all of a group (carried in every change). */
  selectAll?: boolean;
  /** The mixed state (some, not all, selected); the next click checks it. */
  indeterminate?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
}

/** A native checkbox with its label; its state is also on data-state (checked/unchecked/mixed). */
export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(
  {
    id,
    label,
    checked,
    onChange,
    selectAll = false,
    indeterminate = false,
    hint,
    error,
    className,
    'aria-describedby': describedBy,
    ...rest
  },
  forwardedRef,
) {
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = useMergedRef(ownRef, forwardedRef);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a click clears indeterminate; set it again from the prop
  useLayoutEffect(() => {
    if (ownRef.current) ownRef.current.indeterminate = indeterminate;
  }, [indeterminate, checked]);

  return (
    <div
      className={cx('gh-checkbox', className)}
      data-state={indeterminate ? 'mixed' : checked ? 'checked' : 'unchecked'}
    >
      <input
        ref={ref}
        id={id}
        type="checkbox"
        className="gh-checkbox__input"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy({ id, hint, error }, describedBy)}
        data-select-all={selectAll || undefined}
        {...rest}
        onChange={(event) => onChange?.({ checked: event.target.checked, selectAll }, event)}
      />
      <label className="gh-checkbox__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p className="gh-checkbox__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {hasErrorMessage(error) ? (
        <p className="gh-checkbox__error" id={`${id}-error`}>
          <VisuallyHidden>{uiMessages.errorPrefix}</VisuallyHidden> {error}
        </p>
      ) : null}
    </div>
  );
});
