import { type ReactNode, Suspense, useCallback, useState } from 'react';
import { OnDemandAlert as Alert, alertChunk } from './onDemandAlert.tsx';

/** One error of a failed submit: on a field, or about the whole form. */
export type FormError = { fieldId?: string; message: string };

/**
 * The errors of a screen's last failed submit, announced whatever holds focus (WCAG 4.1.3,
 * 3.3.1). The spec focuses the field in error (§5), and a field that already had focus says
 * nothing when its description changes, so each error is also a live alert: a field's error
 * inside its GOV.UK error message (still the field's description), a form's error as a critical
 * alert. Every failed submit is a new attempt, so the alerts are put on the page afresh and are
 * announced again even when the text is the same as last time. A screen with an error summary
 * (`summary: true`) lets the summary, which takes focus, say the errors once: its fields' messages
 * stay their descriptions and are not alerts of their own.
 */
export function useFormErrors({ summary = false }: { summary?: boolean } = {}) {
  const [state, setState] = useState<{ errors: FormError[]; attempt: number }>({ errors: [], attempt: 0 });
  const fail = useCallback((errors: FormError[]) => {
    if (errors.some((e) => e.fieldId === undefined)) void alertChunk.load().catch(() => undefined);
    setState((s) => ({ errors, attempt: s.attempt + 1 }));
  }, []);
  const clear = useCallback(() => setState((s) => (s.errors.length ? { ...s, errors: [] } : s)), []);
  const { errors, attempt } = state;
  /** The field's error message, for the field's `error` prop. */
  const onField = (fieldId: string): ReactNode => {
    const message = errors.find((e) => e.fieldId === fieldId)?.message;
    if (!message) return undefined;
    return summary ? (
      message
    ) : (
      <span key={attempt} role="alert">
        {message}
      </span>
    );
  };
  /** Errors about the whole form, as a critical alert. */
  const formAlert = (props: { id?: string } = {}): ReactNode => {
    const messages = errors.filter((e) => e.fieldId === undefined).map((e) => e.message);
    // Its own boundary: an alert still loading never hides the form.
    return messages.length ? (
      <Suspense key={attempt} fallback={null}>
        <Alert variant="critical" {...props}>
          {messages.join(' ')}
        </Alert>
      </Suspense>
    ) : null;
  };
  return { errors, invalid: errors.length > 0, attempt, fail, clear, onField, formAlert };
}
