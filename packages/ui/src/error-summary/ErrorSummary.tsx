import { type ComponentPropsWithoutRef, forwardRef, type MouseEvent, useEffect, useId, useRef } from 'react';
import { cx } from '../internal/cx.ts';
import { useMergedRef } from '../internal/useMergedRef.ts';
import { uiMessages } from '../messages.ts';
import './ErrorSummary.css';

export interface ErrorSummaryItem {
  /** The id of the field in error; the link goes to `#${fieldId}`. */
  fieldId: string;
  message: string;
}

export interface ErrorSummaryProps extends Omit<ComponentPropsWithoutRef<'div'>, 'title'> {
  /** Default 'There is a problem'. */
  title?: string;
  errors: ErrorSummaryItem[];
  /** Heading level of the title; default 2. */
  headingLevel?: 2 | 3 | 4;
  /**
   * Changes on every failed submit (a counter): the summary takes focus again, and so is read
   * again, even when the errors are the same as last time (GOV.UK re-renders the page).
   */
  attempt?: number;
}

/** Moves focus to the field (and scrolls its label into view) instead of only changing the hash. */
function focusField(event: MouseEvent<HTMLAnchorElement>, fieldId: string): void {
  const field = document.getElementById(fieldId);
  if (!field) return;
  event.preventDefault();
  const label = ('labels' in field && (field as HTMLInputElement).labels?.[0]) || field;
  label.scrollIntoView?.({ block: 'start' });
  field.focus({ preventScroll: true });
}

/**
 * GOV.UK error summary: nothing when there are no errors; otherwise a focused alert listing each
 * error as a link to its field. It takes focus each time the list of errors changes, and on each
 * new `attempt`.
 */
export const ErrorSummary = forwardRef<HTMLDivElement, ErrorSummaryProps>(function ErrorSummary(
  { title = uiMessages.errorSummaryTitle, errors, headingLevel = 2, attempt, className, ...rest },
  forwardedRef,
) {
  const ownRef = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(ownRef, forwardedRef);
  const titleId = useId();
  const signature = errors.map((e) => `${e.fieldId}\u0000${e.message}`).join('\u0001');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt must refocus.
  useEffect(() => {
    if (signature !== '') ownRef.current?.focus();
  }, [signature, attempt]);

  if (errors.length === 0) return null;
  const Title = `h${headingLevel}` as const;
  return (
    <div
      ref={ref}
      className={cx('gh-error-summary', className)}
      role="alert"
      tabIndex={-1}
      aria-labelledby={titleId}
      {...rest}
    >
      <Title id={titleId} className="gh-error-summary__title">
        {title}
      </Title>
      <ul className="gh-error-summary__list">
        {errors.map((error) => (
          <li key={error.fieldId}>
            <a
              className="gh-error-summary__link"
              href={`#${error.fieldId}`}
              onClick={(event) => focusField(event, error.fieldId)}
            >
              {error.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
});
