import { type ComponentPropsWithoutRef, forwardRef, type MouseEvent, useEffect, useRef } from 'react';
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
 * GOV.UK error summary, in the markup of GOV.UK Frontend 4.4.0 and later: nothing when there are
 * no errors; otherwise a wrapper that takes focus and, inside it, a `role="alert"` container with
 * the title and each error as a link to its field. 4.4.0 moved `role="alert"` off the focused
 * root onto that inner container and dropped `aria-labelledby`: JAWS read only the labelling
 * heading of a focused, labelled alert, not the whole summary. As GOV.UK's script does, the
 * wrapper gets `tabindex="-1"` only to take focus, and loses it when focus leaves, so a click on
 * its text does not focus it later. It takes focus each time the list of errors changes, and on
 * each new `attempt`.
 */
export const ErrorSummary = forwardRef<HTMLDivElement, ErrorSummaryProps>(function ErrorSummary(
  { title = uiMessages.errorSummaryTitle, errors, headingLevel = 2, attempt, className, ...rest },
  forwardedRef,
) {
  const ownRef = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(ownRef, forwardedRef);
  const signature = errors.map((e) => `${e.fieldId}\u0000${e.message}`).join('\u0001');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt must refocus.
  useEffect(() => {
    const root = ownRef.current;
    if (signature === '' || !root) return;
    root.setAttribute('tabindex', '-1');
    const leave = () => root.removeAttribute('tabindex');
    root.addEventListener('blur', leave, { once: true });
    root.focus();
    return () => root.removeEventListener('blur', leave);
  }, [signature, attempt]);

  if (errors.length === 0) return null;
  const Title = `h${headingLevel}` as const;
  return (
    <div ref={ref} className={cx('gh-error-summary', className)} {...rest}>
      <div role="alert">
        <Title className="gh-error-summary__title">{title}</Title>
        <div className="gh-error-summary__body">
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
      </div>
    </div>
  );
});
