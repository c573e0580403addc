import type { ReactNode } from 'react';
import { cx, ids } from '../internal/cx.ts';
import { uiMessages } from '../messages.ts';
import { VisuallyHidden } from '../visually-hidden/VisuallyHidden.tsx';
import './Field.css';

/** The label, hint and error props every form field shares. */
export interface FieldOwnProps {
  /** The control's id; the hint and error get `${id}-hint` and `${id}-error`. */
  id: string;
  /** The visible label. */
  label?: ReactNode;
  /** Shows a red asterisk (hidden from screen readers, which read aria-required instead). */
  required?: boolean;
  /** Shows '(optional)' after the label (ignored when required). */
  optional?: boolean;
  /** Help text under the label, referenced by aria-describedby. */
  hint?: ReactNode;
  /**
   * The error message; sets aria-invalid and is referenced by aria-describedby. `true` is the
   * error flag alone: aria-invalid and the error look, with no message (and no empty 'Error:').
   */
  error?: ReactNode;
}

/** Whether `error` carries a message to show (not only the flag, not an empty string). */
export function hasErrorMessage(error: ReactNode): boolean {
  return error !== undefined && error !== null && typeof error !== 'boolean' && error !== '';
}

/** aria-describedby for a field: hint, then error, then any ids the caller passes. */
export function fieldDescribedBy(
  { id, hint, error }: Pick<FieldOwnProps, 'id' | 'hint' | 'error'>,
  extra?: string,
): string | undefined {
  return ids(hint ? `${id}-hint` : undefined, hasErrorMessage(error) ? `${id}-error` : undefined, extra);
}

export interface FieldProps extends FieldOwnProps {
  children: ReactNode;
  className?: string;
  /** Text after the label for the optional indicator; default '(optional)'. */
  optionalText?: string;
}

/**
 * A form field wrapper in the GOV.UK pattern: label (with the required asterisk or the optional
 * text), hint, error (with a visually hidden "Error:" prefix), then the control.
 */
export function Field({
  id,
  label,
  required,
  optional,
  hint,
  error,
  children,
  className,
  optionalText,
}: FieldProps) {
  return (
    <div className={cx('gh-field', className)} data-invalid={error ? '' : undefined}>
      {label !== undefined && (
        <div className="gh-field__label-row">
          <label className="gh-field__label" htmlFor={id}>
            {label}
            {!required && optional ? (
              <>
                {' '}
                <span className="gh-field__optional">{optionalText ?? uiMessages.optional}</span>
              </>
            ) : null}
          </label>
          {/* Outside the label so the accessible name stays the label; aria-required says it. */}
          {required ? (
            <span className="gh-field__required" aria-hidden="true">
              *
            </span>
          ) : null}
        </div>
      )}
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
      {children}
    </div>
  );
}
